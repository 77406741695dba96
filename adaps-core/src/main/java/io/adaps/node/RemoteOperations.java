package io.adaps.node;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.directory.LocationCache;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * The remote half of a worker: splits the rows of an operation that other nodes hold into one
 * request per (peer, table) (more if a request would exceed the message size), sends them, and
 * tracks them as a {@link RemoteCall} until every answer is in. A row goes to where this node's
 * {@link LocationCache} last saw it, else to its home ({@link #route}).
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
    long locationHits;
    long locationMisses;

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
        add(peer, table, row, buffer, position, 0);
    }

    /** {@link #add}; a REFRESH also says which {@code version} of the row the replica has. */
    void add(int peer, Table table, long row, float[] buffer, int position, long version) {
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
        builder.add(row, buffer, position, version);
    }

    /** Where to send a request for {@code row}: its cached location if known (and alive), else its home. */
    int route(Table table, long row) {
        int cached = node.locations().get(table.id(), row);
        if (cached != LocationCache.UNKNOWN && cached != node.nodeId() && node.peerFailure(cached) == null) {
            locationHits++;
            return cached;
        }
        locationMisses++;
        return node.home(table, row);
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
        return send(ticket, buffer, null);
    }

    /**
     * As {@link #send(long, float[])}; {@code inFlight}, if not {@code null}, has counted every row
     * of this push, and the call uncounts each part's rows when the part closes.
     */
    RemoteCall send(long ticket, float[] buffer, InFlightPushes inFlight) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        if (!call.complete() || !call.observed) {
            awaitCompletion(call);
            if (call.failure() != null && !call.observed && unobservedFailure == null) {
                unobservedFailure = call.failure();
            }
            call.observed = true;
        }
        call.reset(ticket, operation, buffer, inFlight);
        long requestIdBase = ((long) workerId << 48) | (ticket & 0xFFFF_FFFFL);
        int rows = 0;
        for (int u = 0; u < used.size(); u++) {
            PartBuilder builder = builders[used.getInt(u)];
            rows += builder.positions.size();
            builder.finish(call, requestIdBase, node.nodeId());
        }
        if (operation == Operation.SYNC || operation == Operation.REFRESH) {
            call.clearVersions(rows);
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
                    call.failPart(part, e);
                }
            }
            builder.clear();
        }
        used.clear();
        switch (operation) {
            case PULL -> remotePulls += rows;
            case PUSH -> remotePushes += rows;
            case SET -> remoteSets += rows;
            case LOCALIZE, SYNC, REFRESH -> { }
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
            if (node.isClosed()) {
                call.failAll(new ClusterException("node " + node.nodeId() + " closed while worker " + workerId
                        + " waited for answers from " + openPeers(call)));
                break;
            }
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
                call.failAll(new ClusterException("worker " + workerId + " of node " + node.nodeId() + ": no answer to "
                        + "requests sent to " + openPeers(call) + " within " + node.config().operationTimeout()
                        + failedPeers()));
            } else {
                LockSupport.parkNanos(this, Math.min(left, PARK_NANOS));
            }
        }
        if (call.operation == Operation.LOCALIZE && call.failure() != null && !call.observed) {
            node.relocator().abandon(workerId, call.ticket, call);
        }
    }

    private void failPartsOfFailedPeers(RemoteCall call) {
        for (int part = 0; part < call.parts; part++) {
            PeerFailedException failure = node.peerFailure(call.partPeer[part]);
            if (failure != null) {
                call.failPart(part, failure);
            }
        }
    }

    /** Names the failed peers, which may have held rows that a request was forwarded to. */
    private String failedPeers() {
        StringBuilder failed = new StringBuilder();
        for (int peer = 0; peer < node.clusterSize(); peer++) {
            if (node.peerFailure(peer) != null) {
                failed.append(failed.length() == 0 ? " (failed meanwhile: " : ", ").append(node.describePeer(peer));
            }
        }
        return failed.length() == 0 ? "" : failed.append(')').toString();
    }

    private String openPeers(RemoteCall call) {
        StringBuilder peers = new StringBuilder();
        for (int part = 0; part < call.parts; part++) {
            String peer = node.describePeer(call.partPeer[part]);
            if (call.isOpen(part) && peers.indexOf(peer) < 0) {
                peers.append(peers.length() == 0 ? "" : ", ").append(peer);
            }
        }
        return peers.toString();
    }

    /**
     * Handles an answer from {@code peer}: a PULL_REPLY, ACK, ERROR, or the HANDOVER of rows this
     * worker localized (after the node installed them); called on a transport thread, or on any
     * thread that served a request of this node. An answer may cover any subset of a part's rows.
     */
    void onAnswer(int peer, Message message) {
        long requestId = message.requestId();
        RemoteCall call = calls[(int) (requestId & (IN_FLIGHT - 1))];
        int ticket = (int) requestId;
        int part = (int) (requestId >>> 32) & 0xFFFF;
        if (call.complete() || (int) call.ticket != ticket || part >= call.parts || !call.lockPart(part)) {
            return; // the answer of a part that was failed (timed out) earlier
        }
        if ((int) call.ticket != ticket) {
            call.unlockPart(part, RemoteCall.OPEN); // the call was reused meanwhile
            return;
        }
        byte outcome;
        if (message.type() == MessageType.ERROR) {
            call.fail(refusal(peer, message));
            outcome = RemoteCall.FAILED;
        } else {
            String problem = checkAnswer(call, part, message);
            if (problem != null) {
                call.fail(new ClusterException(node.describePeer(peer) + " sent a malformed answer: " + problem));
                outcome = RemoteCall.FAILED;
            } else {
                apply(peer, call, part, message);
                call.partRemaining[part] -= message.count();
                outcome = call.partRemaining[part] == 0 ? RemoteCall.ANSWERED : RemoteCall.OPEN;
                if (outcome == RemoteCall.ANSWERED) {
                    node.recordRoundTrip(peer, System.nanoTime() - call.partSentNanos[part]);
                }
            }
        }
        call.unlockPart(part, outcome);
    }

    private ClusterException refusal(int peer, Message error) {
        if ((error.flags() & Message.FLAG_PEER_FAILED) != 0) {
            int failed = error.aux() - 1;
            return new PeerFailedException(failed, node.describePeer(failed) + " (reported by " + node.describePeer(peer)
                    + "): " + error.errorText());
        }
        return new ClusterException(node.describePeer(peer) + " refused a request: " + error.errorText());
    }

    private String checkAnswer(RemoteCall call, int part, Message answer) {
        MessageType type = answer.type();
        boolean expected = call.operation == Operation.PULL ? type == MessageType.PULL_REPLY
                : call.operation == Operation.SYNC ? type == MessageType.REFRESHED
                : call.operation == Operation.REFRESH ? type == MessageType.REFRESHED || type == MessageType.UNCHANGED
                : type == MessageType.ACK || (call.operation == Operation.LOCALIZE && type == MessageType.HANDOVER);
        if (!expected) {
            return "type=" + type + " (expected the answer to a " + call.operation + ")";
        }
        Table table = node.tables().get(call.partTable[part]);
        if (answer.table() != table.id() && type != MessageType.ACK) {
            return "table=" + answer.table() + " (expected " + table.id() + ")";
        }
        String problem = answer.validate(table.valueLength(), node.stride(table));
        if (problem != null) {
            return problem;
        }
        if (answer.count() > call.partRemaining[part]) {
            return "count=" + answer.count() + " (expected at most the " + call.partRemaining[part] + " rows unanswered)";
        }
        int entryLength = type.entryLength(table.valueLength(), node.stride(table));
        int indexAt = type == MessageType.HANDOVER ? Message.ROW_LENGTH : 0;
        for (int i = 0; i < answer.count(); i++) {
            int index = answer.intAt(answer.entry(i, entryLength) + indexAt);
            if (index < 0 || index >= call.partCount[part]) {
                return "index=" + index + " (expected 0.." + (call.partCount[part] - 1) + ")";
            }
        }
        return null;
    }

    /** Copies pulled values into the caller's buffer and learns where the rows are. */
    private void apply(int peer, RemoteCall call, int part, Message answer) {
        MessageType type = answer.type();
        if (type == MessageType.HANDOVER) {
            return; // the rows are here now: the node has installed them
        }
        Table table = node.tables().get(call.partTable[part]);
        int valueLength = table.valueLength();
        int entryLength = type.entryLength(valueLength, 0);
        boolean moved = peer != call.partPeer[part];
        LocationCache locations = node.locations();
        for (int i = 0; i < answer.count(); i++) {
            int entry = answer.entry(i, entryLength);
            int position = call.partFirst[part] + answer.intAt(entry);
            if (type == MessageType.PULL_REPLY) {
                answer.readFloats(entry + Message.INDEX_LENGTH, call.buffer, call.positions.getInt(position), valueLength);
            } else if (type == MessageType.REFRESHED || type == MessageType.UNCHANGED) {
                long version = answer.versionAt(entry + Message.INDEX_LENGTH);
                if (type == MessageType.REFRESHED) {
                    answer.readFloats(entry + Message.INDEX_LENGTH + Message.VERSION_LENGTH, call.buffer,
                            call.positions.getInt(position), valueLength);
                    call.versions[position] = version;
                } else {
                    call.versions[position] = RemoteCall.UNCHANGED | version;
                }
            }
            if (moved) {
                locations.put(table.id(), call.rows.getLong(position), peer);
            }
        }
    }
}
