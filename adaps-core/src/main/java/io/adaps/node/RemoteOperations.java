package io.adaps.node;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * The remote half of a worker: splits the rows of an operation that other nodes hold into one
 * request per (peer, table) (more if a request would exceed the message size), sends them, and
 * tracks them as a {@link RemoteCall} until every answer is in.
 *
 * <p>A worker keeps {@value #IN_FLIGHT} calls in a ring indexed by ticket; a new operation whose
 * slot is still busy first waits for it, which bounds what one worker has in flight. Request ids
 * carry {@code worker (16 bits) | part (16 bits) | ticket (low 32 bits)}, so an answer finds its
 * call without a map. Answers arrive on transport threads ({@link #onAnswer}); everything else
 * runs on the worker's thread.
 */
final class RemoteOperations {
    static final int IN_FLIGHT = 64;
    // Waiting: spin briefly, then yield (other threads, such as the transport's, may need the core)
    // for about a loopback round trip, and only then park: waking a parked thread costs more than
    // a round trip on loopback.
    private static final int SPINS = 100;
    private static final long YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Node node;
    private final int workerId;
    private final RemoteCall[] calls = new RemoteCall[IN_FLIGHT];
    private final PartBuilder[] builders;
    private final IntArrayList used = new IntArrayList();
    private final int tables;
    private ClusterException unobservedFailure;
    private Operation operation;
    long remotePulls;
    long remotePushes;
    long remoteSets;

    RemoteOperations(Node node, int workerId, Thread thread) {
        this.node = node;
        this.workerId = workerId;
        this.tables = node.tables().size();
        this.builders = new PartBuilder[node.clusterSize() * tables];
        for (int i = 0; i < IN_FLIGHT; i++) {
            calls[i] = new RemoteCall(thread);
        }
    }

    /** Starts collecting the remote rows of an operation. */
    void begin(Operation operation) {
        this.operation = operation;
    }

    /** Adds {@code row} of {@code table}, held by {@code peer}, whose value is at {@code buffer[position ..]}. */
    void add(int peer, Table table, long row, float[] buffer, int position) {
        int index = peer * tables + table.id();
        PartBuilder builder = builders[index];
        if (builder == null) {
            builder = new PartBuilder(peer, table.id(), table.valueLength(), node.config().maxMessageBytes());
            builders[index] = builder;
        }
        if (builder.isEmpty()) {
            builder.begin(operation);
            used.add(index);
        }
        builder.add(row, buffer, position);
    }

    /** Whether rows were added since {@link #begin}. */
    boolean hasRows() {
        return !used.isEmpty();
    }

    /**
     * Sends the collected rows as the call of {@code ticket}; returns it (complete or not).
     * Parts that cannot be sent because their peer failed are closed as failed.
     */
    RemoteCall send(long ticket, float[] buffer) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        if (!call.complete() || !call.observed) {
            awaitCompletion(call);
            if (call.failure() != null && !call.observed && unobservedFailure == null) {
                unobservedFailure = call.failure();
            }
            call.observed = true;
        }
        call.reset(ticket, operation, buffer);
        long requestIdBase = ((long) workerId << 48) | (ticket & 0xFFFF_FFFFL);
        int rows = 0;
        for (int u = 0; u < used.size(); u++) {
            PartBuilder builder = builders[used.getInt(u)];
            rows += builder.positions.size();
            builder.finish(call, requestIdBase);
        }
        call.open();
        int part = 0;
        for (int u = 0; u < used.size(); u++) {
            PartBuilder builder = builders[used.getInt(u)];
            for (int m = 0; m < builder.messages(); m++, part++) {
                call.partSentNanos[part] = System.nanoTime();
                try {
                    node.send(builder.peer, builder.buffer, builder.messageStart(m), builder.messageLength(m));
                } catch (ClusterException e) {
                    if (call.claim(part, RemoteCall.FAILED)) {
                        call.fail(e);
                        call.close();
                    }
                }
            }
            builder.clear();
        }
        used.clear();
        switch (operation) {
            case PULL -> remotePulls += rows;
            case PUSH -> remotePushes += rows;
            case SET -> remoteSets += rows;
            default -> throw new AssertionError(operation);
        }
        return call;
    }

    /** Waits for {@code call} and throws its failure, if any. */
    void await(RemoteCall call) {
        awaitCompletion(call);
        call.observed = true;
        ClusterException failure = call.failure();
        if (failure != null) {
            throw failure;
        }
    }

    /** Waits for the call of {@code ticket} if it is still tracked; throws its failure. */
    void awaitTicket(long ticket) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        if (call.ticket == ticket && !call.observed) {
            await(call);
        }
    }

    /** Whether the call of {@code ticket} is complete (or no longer tracked). */
    boolean isDone(long ticket) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        return call.ticket != ticket || call.complete();
    }

    /** Waits for every call; throws the first failure not reported yet. */
    void awaitAll() {
        ClusterException first = unobservedFailure;
        unobservedFailure = null;
        for (RemoteCall call : calls) {
            if (!call.observed) {
                awaitCompletion(call);
                call.observed = true;
                if (first == null) {
                    first = call.failure();
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Waits, bounded by the operation timeout, until every part of {@code call} is closed: by an
     * answer, or by this thread when the part's peer failed or time ran out.
     */
    private void awaitCompletion(RemoteCall call) {
        long start = System.nanoTime();
        long deadline = start + node.config().operationTimeout().toNanos();
        int failuresSeen = -1;
        int spins = 0;
        while (!call.complete()) {
            int failures = node.peerFailureCount();
            if (failures != failuresSeen) {
                failuresSeen = failures;
                failPartsOfFailedPeers(call);
                continue;
            }
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (now - start < YIELD_NANOS) {
                Thread.yield();
                continue;
            }
            long left = deadline - now;
            if (left <= 0) {
                call.failAll(new ClusterException("worker " + workerId + " of node " + node.nodeId() + ": no answer from "
                        + openPeers(call) + " within " + node.config().operationTimeout()));
            } else {
                LockSupport.parkNanos(this, Math.min(left, PARK_NANOS));
            }
        }
    }

    private void failPartsOfFailedPeers(RemoteCall call) {
        for (int part = 0; part < call.parts; part++) {
            PeerFailedException failure = node.peerFailure(call.partPeer[part]);
            if (failure != null && call.claim(part, RemoteCall.FAILED)) {
                call.fail(failure);
                call.close();
            }
        }
    }

    private String openPeers(RemoteCall call) {
        StringBuilder peers = new StringBuilder();
        for (int part = 0; part < call.parts; part++) {
            String peer = node.describePeer(call.partPeer[part]);
            if (call.partState[part] == RemoteCall.OPEN && peers.indexOf(peer) < 0) {
                peers.append(peers.length() == 0 ? "" : ", ").append(peer);
            }
        }
        return peers.toString();
    }

    /** Handles an answer (PULL_REPLY, ACK or ERROR) from {@code peer}; called on a transport thread. */
    void onAnswer(int peer, Message message) {
        long requestId = message.requestId();
        RemoteCall call = calls[(int) (requestId & (IN_FLIGHT - 1))];
        int ticket = (int) requestId;
        int part = (int) (requestId >>> 32) & 0xFFFF;
        if (call.complete() || (int) call.ticket != ticket || part >= call.parts || call.partPeer[part] != peer) {
            return; // the answer of a part that was failed (timed out) earlier
        }
        if (!call.claim(part, RemoteCall.ANSWERED)) {
            return;
        }
        if ((int) call.ticket != ticket) {
            call.unclaim(part, RemoteCall.ANSWERED);
            return;
        }
        MessageType type = message.type();
        if (type == MessageType.ERROR) {
            call.fail(new ClusterException(node.describePeer(peer) + " refused a request: " + message.errorText()));
        } else if (call.operation == Operation.PULL) {
            copyValues(peer, message, call, part);
        } else if (type != MessageType.ACK) {
            call.fail(new ClusterException(node.describePeer(peer) + " answered " + type + " (expected ACK)"));
        }
        node.recordRoundTrip(peer, System.nanoTime() - call.partSentNanos[part]);
        call.close();
    }

    private void copyValues(int peer, Message message, RemoteCall call, int part) {
        Table table = node.tables().get(call.partTable[part]);
        int valueLength = table.valueLength();
        int rows = call.partCount[part];
        String problem = message.type() != MessageType.PULL_REPLY ? "type=" + message.type() + " (expected PULL_REPLY)"
                : message.count() != rows ? "count=" + message.count() + " (expected " + rows + ")"
                : message.validate(valueLength);
        if (problem != null) {
            call.fail(new ClusterException(node.describePeer(peer) + " sent a malformed answer: " + problem));
            return;
        }
        int first = call.partFirst[part];
        for (int i = 0; i < rows; i++) {
            message.readFloats(message.replyValueOffset(i, valueLength), call.buffer, call.positions.getInt(first + i),
                    valueLength);
        }
    }
}
