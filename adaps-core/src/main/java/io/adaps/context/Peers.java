package io.adaps.context;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.LatencyMetrics;
import io.adaps.api.PeerFailedException;
import io.adaps.api.PeerMetrics;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportConfig;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageListener;
import io.adaps.protocol.MessageType;

/**
 * This node's view of the other nodes: sends messages to them (a message to this node itself is
 * handled at once, on the sending thread), knows which have failed, and counts the traffic and
 * the round trips to each. On a cluster of one there is no transport, and nothing is ever sent.
 *
 * <p>Thread-safe. A peer's failure is recorded once; {@linkplain #onFailure listeners} then run on
 * the thread that reported it (a transport thread), so they must be short and must not block.
 */
public final class Peers {
    private static final Logger LOG = LoggerFactory.getLogger(Peers.class);
    /** ERROR texts are cut to this many characters. */
    private static final int MAX_ERROR_TEXT = 1000;

    private final int self;
    private final int size;
    private final Transport transport;
    private final TransportConfig transportConfig;
    private final AtomicReferenceArray<PeerFailedException> failures;
    private final AtomicInteger failureCount = new AtomicInteger();
    private final List<Consumer<PeerFailedException>> failureListeners = new CopyOnWriteArrayList<>();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LatencyRecorder[] roundTrips;
    /** Per request message type (by ordinal): the latency of the requests of that type. */
    private final LatencyRecorder[] requestLatencies;
    private volatile MessageListener local;
    private volatile boolean closing;

    /**
     * The peers of node {@code self} of {@code size}; {@code transport} and its config are
     * {@code null} on a cluster of one.
     */
    public Peers(int self, int size, Transport transport, TransportConfig transportConfig) {
        this.self = self;
        this.size = size;
        this.transport = transport;
        this.transportConfig = transportConfig;
        this.failures = new AtomicReferenceArray<>(size);
        this.roundTrips = new LatencyRecorder[size];
        for (int peer = 0; peer < size; peer++) {
            roundTrips[peer] = new LatencyRecorder();
        }
        this.requestLatencies = new LatencyRecorder[MessageType.values().length];
        for (int type = 0; type < requestLatencies.length; type++) {
            requestLatencies[type] = new LatencyRecorder();
        }
    }

    /**
     * Joins the cluster: messages to this node itself go to {@code local}, the transport's to
     * {@code inbound}; returns once every peer is connected (see {@link Transport#start}).
     */
    public void connect(MessageListener local, MessageHandler inbound) {
        this.local = local;
        if (transport != null) {
            transport.start(transportConfig, inbound);
        }
    }

    /** This node's id. */
    public int self() {
        return self;
    }

    /** Nodes in the cluster, this one included. */
    public int size() {
        return size;
    }

    /**
     * Sends a message to {@code peer}, counting it; throws the peer's {@link PeerFailedException}
     * if it has failed. A message to this node itself is handled at once, on the calling thread,
     * from a copy (so its handler may send more messages, even from the same buffer).
     */
    public void send(int peer, DirectBuffer buffer, int offset, int length) {
        if (peer == self) {
            byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            local.onMessage(peer, new Message().wrap(new UnsafeBuffer(copy), 0, length));
            return;
        }
        PeerFailedException failure = failures.get(peer);
        if (failure != null) {
            throw failure;
        }
        transport.send(peer, buffer, offset, length);
        messagesSent.increment();
        bytesSent.add(length);
    }

    /**
     * Sends an answer or forwarded message whose recipient may have failed meanwhile, or while this
     * node closes: then it is dropped (failures are handled elsewhere), with a debug log.
     */
    public void sendQuietly(int peer, DirectBuffer buffer, int offset, int length) {
        try {
            send(peer, buffer, offset, length);
        } catch (PeerFailedException e) {
            LOG.debug("node {}: dropped a message to {}: {}", self, describe(peer), e.getMessage());
        } catch (IllegalStateException e) {
            if (!closing) {
                throw e;
            }
            LOG.debug("node {}: closing; dropped a message to {}", self, describe(peer));
        }
    }

    /** Sends a header-only message (barrier, leave) with {@code id} as its request id. */
    public void sendControl(int peer, MessageType type, long id) {
        MutableDirectBuffer buffer = Message.newBuffer(Message.HEADER_LENGTH);
        Message.writeHeader(buffer, 0, type, 0, 0, 0, id, self, 0);
        send(peer, buffer, 0, Message.HEADER_LENGTH);
    }

    /**
     * Refuses request {@code requestId} of node {@code peer} with an ERROR saying {@code text};
     * {@code failedPeer} is the node whose failure is the reason, or -1.
     */
    public void sendError(int peer, long requestId, int failedPeer, String text) {
        int length = Math.min(text.length(), MAX_ERROR_TEXT);
        MutableDirectBuffer buffer = Message.newBuffer(Message.HEADER_LENGTH + length);
        buffer.putStringWithoutLengthAscii(Message.HEADER_LENGTH, text, 0, length);
        Message.writeHeader(buffer, 0, MessageType.ERROR, failedPeer >= 0 ? Message.FLAG_PEER_FAILED : 0, 0, length,
                requestId, peer, failedPeer + 1);
        sendQuietly(peer, buffer, 0, Message.HEADER_LENGTH + length);
    }

    /** Counts a message received from another node. */
    public void countReceived(int length) {
        messagesReceived.increment();
        bytesReceived.add(length);
    }

    /** Hears every peer failure from now on (see the class comment). */
    public void onFailure(Consumer<PeerFailedException> listener) {
        failureListeners.add(listener);
    }

    /** Records that a peer failed or left; the first report per peer counts, later ones are ignored. */
    public void markFailed(PeerFailedException failure) {
        if (!failures.compareAndSet(failure.peer(), null, failure)) {
            return;
        }
        failureCount.incrementAndGet();
        if (closing || failure.left()) {
            LOG.info("node {}: {}", self, failure.getMessage());
        } else {
            LOG.warn("node {}: {}", self, failure.getMessage());
        }
        for (Consumer<PeerFailedException> listener : failureListeners) {
            listener.accept(failure);
        }
    }

    /** The failure of {@code peer}, or {@code null} while it is alive. */
    public PeerFailedException failure(int peer) {
        return failures.get(peer);
    }

    /** Changes whenever a peer fails; lets waiters notice failures with one read. */
    public int failureCount() {
        return failureCount.get();
    }

    /** Names the failed peers for an error message, e.g. {@code " (failed meanwhile: node 2 (host:port))"}, or "". */
    public String describeFailed() {
        StringBuilder failed = new StringBuilder();
        for (int peer = 0; peer < size; peer++) {
            if (failures.get(peer) != null) {
                failed.append(failed.length() == 0 ? " (failed meanwhile: " : ", ").append(describe(peer));
            }
        }
        return failed.length() == 0 ? "" : failed.append(')').toString();
    }

    /** {@code host:port} of {@code peer}, or {@code node N} on a cluster of one. */
    public String address(int peer) {
        return transportConfig == null ? "node " + peer : transportConfig.peers().get(peer).toString();
    }

    /** {@code node N (host:port)}, for messages. */
    public String describe(int peer) {
        return transportConfig == null ? "node " + peer : transportConfig.describe(peer);
    }

    /** Records the round trip of a request of type {@code request} answered by {@code peer}. Any thread. */
    public void recordRoundTrip(int peer, MessageType request, long nanos) {
        roundTrips[peer].record(nanos);
        requestLatencies[request.ordinal()].record(nanos);
    }

    /** The round trips to {@code peer} since the start. */
    public PeerMetrics roundTripMetrics(int peer) {
        LatencyRecorder.Snapshot total = roundTrips[peer].total();
        return new PeerMetrics(peer, total.count(), total.p50Micros(), total.p99Micros(), total.maxMicros(),
                total.meanMicros());
    }

    /** The round trips of the requests of type {@code request} (PULL, PUSH, ...) to any peer since the start. */
    public LatencyMetrics latencyMetrics(MessageType request) {
        LatencyRecorder.Snapshot total = requestLatencies[request.ordinal()].total();
        return new LatencyMetrics(request.name().toLowerCase(java.util.Locale.ROOT), total.count(), total.p50Micros(),
                total.p99Micros(), total.maxMicros(), total.meanMicros());
    }

    public long messagesSent() {
        return messagesSent.sum();
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    public long messagesReceived() {
        return messagesReceived.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /**
     * Says goodbye to every live peer with LEAVE carrying {@code barriersPassed}, so that they log
     * a departure rather than a failure, then closes the transport. From the start of this call,
     * messages that cannot be sent any more are dropped quietly.
     */
    public void leave(long barriersPassed) {
        closing = true;
        if (transport == null) {
            return;
        }
        for (int peer = 0; peer < size; peer++) {
            if (peer != self && failures.get(peer) == null) {
                try {
                    sendControl(peer, MessageType.LEAVE, barriersPassed);
                } catch (RuntimeException e) {
                    LOG.debug("node {}: could not say goodbye to {}: {}", self, describe(peer), e.getMessage());
                }
            }
        }
        transport.close();
    }

    /** Whether {@link #leave} has begun. */
    public boolean isClosing() {
        return closing;
    }
}
