package io.adaps.transport.netty;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.TransportConfig;
import io.netty.buffer.ByteBufAllocator;

/**
 * What the connections of one node share: its configuration and handler, its {@link Peer}s, the
 * handshake rules, start-up progress and failure reporting.
 *
 * <p>Start-up: {@link #awaitStarted} waits until every peer completed a handshake, the first fatal
 * handshake problem ({@link #startFailed}), a peer failure, or the deadline. Afterwards failures go to
 * the handler only, once per peer, and never while the node itself is closing.
 */
final class Cluster {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

    private final TransportConfig config;
    private final MessageHandler handler;
    private final TlsContexts tls;
    private final Peer[] peers;
    private final String self;
    private final int maxFrameLength;
    private final Object startLock = new Object();
    private int connected;
    private String startFailure;
    private boolean started;
    private volatile boolean closing;

    /**
     * The cluster of {@code config} seen from its node {@code config.nodeId()}.
     *
     * @param tls the node's TLS contexts, or null for plaintext links
     */
    Cluster(TransportConfig config, MessageHandler handler, ByteBufAllocator allocator, TlsContexts tls) {
        this.config = config;
        this.handler = handler;
        this.tls = tls;
        this.self = config.describe(config.nodeId());
        this.maxFrameLength = Frame.maxLength(config.maxMessageBytes());
        this.peers = new Peer[config.clusterSize()];
        for (int id = 0; id < peers.length; id++) {
            if (id != config.nodeId()) {
                peers[id] = new Peer(id, config.describe(id), config.peers().get(id).toString(),
                        new Outbox(allocator, config.maxPendingBytes()));
            }
        }
    }

    TransportConfig config() {
        return config;
    }

    MessageHandler handler() {
        return handler;
    }

    /** This node as {@code node N (host:port)}. */
    String self() {
        return self;
    }

    /** The largest frame length field accepted, from {@code maxMessageBytes}. */
    int maxFrameLength() {
        return maxFrameLength;
    }

    /** Peer {@code id}; null for this node. */
    Peer peer(int id) {
        return peers[id];
    }

    /** The node's TLS contexts, or null: plaintext links. */
    TlsContexts tls() {
        return tls;
    }

    /** What this node says in a HANDSHAKE, with that connection's {@code nonce}. */
    Hello hello(byte[] nonce) {
        return new Hello(config.nodeId(), config.clusterId(), config.schema(), nonce);
    }

    /** Whether node {@code id} is one of those that connect to this node (higher ids connect to lower). */
    boolean connectsHere(int id) {
        return id > config.nodeId() && id < config.clusterSize();
    }

    /** Why a HANDSHAKE saying {@code hello} is refused, or null if it is accepted. */
    String refusal(Hello hello) {
        if (!hello.clusterId().equals(config.clusterId())) {
            return "cluster id '" + hello.clusterId() + "' (expected '" + config.clusterId() + "')";
        }
        if (!connectsHere(hello.nodeId())) {
            return config.nodeId() == config.clusterSize() - 1
                    ? "node id " + hello.nodeId() + " (expected none: " + self + " connects to all its peers)"
                    : "node id " + hello.nodeId() + " (expected " + (config.nodeId() + 1) + ".."
                            + (config.clusterSize() - 1) + ")";
        }
        if (!hello.schema().equals(config.schema())) {
            return "schema '" + hello.schema() + "' (expected '" + config.schema() + "'" + firstDifference(hello.schema())
                    + ")";
        }
        Peer peer = peers[hello.nodeId()];
        if (peer.failure() != null) {
            return peer.description() + " failed before (re-joining is not supported)";
        }
        return peer.isConnected() ? peer.description() + " is connected already" : null;
    }

    /** {@code "; first difference: 'theirs' against 'ours'"} between the schemas' {@code ;}-separated items. */
    private String firstDifference(String theirs) {
        String[] a = theirs.split(";");
        String[] b = config.schema().split(";");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "";
            String y = i < b.length ? b[i] : "";
            if (!x.equals(y)) {
                return "; first difference: '" + x + "' against '" + y + "'";
            }
        }
        return "";
    }

    /** Peer {@code peer} completed its handshake. */
    void established(Peer peer) {
        LOG.debug("{}: connected to {}", self, peer.description());
        synchronized (startLock) {
            connected++;
            startLock.notifyAll();
        }
    }

    /**
     * A handshake went wrong in a way that waiting cannot fix: logs {@code message}, and if start-up
     * is still going on, {@link #awaitStarted} throws it.
     */
    void startFailed(String message) {
        LOG.error(message);
        synchronized (startLock) {
            if (!started && startFailure == null) {
                startFailure = message;
                startLock.notifyAll();
            }
        }
    }

    /**
     * The established connection to {@code peer} is gone for {@code reason}: the peer has failed.
     * Reported to the handler once (not while this node closes); its outbox is dropped.
     */
    void lost(Peer peer, String reason) {
        if (!peer.fail(reason)) {
            return;
        }
        peer.outbox().close();
        peer.outbox().release();
        if (closing) {
            return;
        }
        // DEBUG: the handler reports the failure at the level it deserves (a node that said goodbye
        // before closing its connection has not failed).
        LOG.debug("{}: {} failed: {}", self, peer.description(), reason);
        synchronized (startLock) {
            if (!started && startFailure == null) {
                startFailure = self + ": " + peer.description() + " failed during start-up: " + reason;
                startLock.notifyAll();
            }
        }
        try {
            handler.onPeerFailure(new PeerFailedException(peer.id(), reason));
        } catch (RuntimeException e) {
            LOG.error("{}: the handler failed on the failure of {}", self, peer.description(), e);
        }
    }

    /**
     * Waits until every peer is connected.
     *
     * @throws ClusterException naming the peers still missing at {@code deadlineNanos}
     *                          ({@link System#nanoTime()}), or why start-up failed
     */
    void awaitStarted(long deadlineNanos) {
        synchronized (startLock) {
            while (startFailure == null && !closing && connected < peers.length - 1) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    throw new ClusterException(self + ": peers " + missingPeers() + " did not connect within "
                            + config.connectTimeout());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(startLock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ClusterException(self + ": interrupted while waiting for peers " + missingPeers(), e);
                }
            }
            if (startFailure != null) {
                throw new ClusterException(startFailure);
            }
            if (closing) {
                throw new ClusterException(self + ": closed while waiting for peers " + missingPeers());
            }
            started = true;
        }
    }

    /** Whether start-up has failed for good (no point in dialing again). */
    boolean hasStartFailed() {
        synchronized (startLock) {
            return startFailure != null;
        }
    }

    private List<String> missingPeers() {
        List<String> missing = new ArrayList<>();
        for (Peer peer : peers) {
            if (peer != null && !peer.isConnected()) {
                missing.add(peer.description());
            }
        }
        return missing;
    }

    /** This node is closing: no more failure reports, start-up gives up. */
    void close() {
        closing = true;
        synchronized (startLock) {
            startLock.notifyAll();
        }
    }

    boolean isClosing() {
        return closing;
    }

    /** Every peer, for closing; entries are null for this node. */
    Peer[] peers() {
        return peers;
    }
}
