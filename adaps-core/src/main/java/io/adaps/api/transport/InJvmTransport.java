package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;

/**
 * A {@link Transport} between nodes of one JVM, for fast tests: a message is copied into the
 * receiver's inbound queue, and one delivery thread per node hands messages to its handler in
 * order. Closing a transport is seen by its peers as that node's failure, after the messages it
 * sent before. Its handshake compares cluster secrets; there are no links for TLS to protect, so
 * TLS settings are ignored.
 */
public final class InJvmTransport implements Transport {
    /** An inbound message, or (with {@code bytes == null}) the failure of {@code from}. */
    private record Delivery(int from, byte[] bytes) {
    }

    private final InJvmNetwork network;
    private final LinkedBlockingQueue<Delivery> inbound = new LinkedBlockingQueue<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final Object drained = new Object();
    private volatile TransportConfig config;
    private volatile MessageHandler handler;
    private volatile boolean closed;
    private volatile boolean[] failed;
    private Thread delivery;

    /** A transport that will join {@code network}. */
    public InJvmTransport(InJvmNetwork network) {
        this.network = checkNotNull(network, "network");
    }

    @Override
    public void start(TransportConfig config, MessageHandler handler) {
        checkNotNull(config, "config");
        checkNotNull(handler, "handler");
        if (this.config != null) {
            throw new IllegalStateException("transport of " + config.describe(config.nodeId()) + " is started already");
        }
        this.config = config;
        this.handler = handler;
        this.failed = new boolean[config.clusterSize()];
        network.register(config.self(), this);
        delivery = new Thread(this::deliver, "adaps-injvm-" + config.nodeId());
        delivery.setDaemon(true);
        delivery.start();
        try {
            awaitPeers(config);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void awaitPeers(TransportConfig config) {
        long deadline = System.nanoTime() + config.connectTimeout().toNanos();
        while (true) {
            String refusal = network.refusal(config.self());
            if (refusal != null) {
                throw new ClusterException(refusal);
            }
            List<String> missing = new ArrayList<>();
            for (int peer = 0; peer < config.clusterSize(); peer++) {
                if (peer == config.nodeId()) {
                    continue;
                }
                InJvmTransport other = network.endpoint(config.peers().get(peer));
                if (other == null || other.config == null) {
                    missing.add(config.describe(peer));
                } else {
                    checkHandshake(network, config, peer, other.config);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException(config.describe(config.nodeId()) + ": peers " + missing
                        + " did not connect within " + config.connectTimeout());
            }
            sleepBriefly();
        }
    }

    private static void checkHandshake(InJvmNetwork network, TransportConfig local, int peer, TransportConfig remote) {
        String difference = null;
        if (remote.nodeId() != peer) {
            difference = "node id " + remote.nodeId() + " (expected " + peer + ")";
        } else if (!remote.clusterId().equals(local.clusterId())) {
            difference = "cluster id '" + remote.clusterId() + "' (expected '" + local.clusterId() + "')";
        } else if (!remote.schema().equals(local.schema())) {
            difference = "schema '" + remote.schema() + "' (expected '" + local.schema() + "')";
        } else if (!sameSecret(local.secret(), remote.secret())) {
            difference = "cluster secret (expected " + (local.secret() == null ? "none" : "this node's") + ")";
        }
        if (difference != null) {
            String reason = local.describe(local.nodeId()) + ": handshake with " + local.describe(peer) + " refused: "
                    + difference;
            network.refuse(local.peers().get(peer), reason);
            throw new ClusterException(reason);
        }
    }

    /** Whether both have no secret or the same (the in-JVM transport has no links to encrypt; TLS is ignored). */
    private static boolean sameSecret(ClusterSecret local, ClusterSecret remote) {
        if (local == null || remote == null) {
            return local == remote;
        }
        byte[] probe = "in-jvm".getBytes(StandardCharsets.US_ASCII);
        return local.verify(remote.mac(probe), probe);
    }

    @Override
    public void send(int peer, DirectBuffer buffer, int offset, int length) {
        TransportConfig config = this.config;
        if (closed || config == null) {
            throw new IllegalStateException("transport is " + (closed ? "closed" : "not started")
                    + " (expected a started transport)");
        }
        if (peer < 0 || peer >= config.clusterSize() || peer == config.nodeId()) {
            throw new IllegalArgumentException("peer=" + peer + " (expected another node of 0.." + (config.clusterSize() - 1) + ")");
        }
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("length=" + length + " (expected <= maxMessageBytes=" + config.maxMessageBytes() + ")");
        }
        InJvmTransport target = network.endpoint(config.peers().get(peer));
        if (failed[peer] || target == null || target.closed) {
            throw new PeerFailedException(peer, config.peers().get(peer) + " is closed");
        }
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        target.enqueue(config.nodeId(), bytes, Thread.currentThread() != delivery, config);
    }

    private void enqueue(int from, byte[] bytes, boolean mayBlock, TransportConfig senderConfig) {
        if (mayBlock && pendingBytes.get() > senderConfig.maxPendingBytes()) {
            long deadline = System.nanoTime() + senderConfig.sendTimeout().toNanos();
            synchronized (drained) {
                while (pendingBytes.get() > senderConfig.maxPendingBytes() && !closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new ClusterException(senderConfig.describe(from) + ": sending to "
                                + config.describe(config.nodeId()) + " held back for " + senderConfig.sendTimeout()
                                + " (peer not keeping up)");
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(drained, left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ClusterException("interrupted while sending to " + config.describe(config.nodeId()), e);
                    }
                }
            }
        }
        pendingBytes.addAndGet(bytes.length);
        inbound.add(new Delivery(from, bytes));
    }

    private void deliver() {
        UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        while (true) {
            Delivery next;
            try {
                next = inbound.take();
            } catch (InterruptedException e) {
                return;
            }
            if (closed) {
                return;
            }
            if (next.bytes() == null) {
                if (!failed[next.from()]) {
                    failed[next.from()] = true;
                    handler.onPeerFailure(new PeerFailedException(next.from(), config.peers().get(next.from()) + " closed"));
                }
                continue;
            }
            if (failed[next.from()]) {
                continue;
            }
            view.wrap(next.bytes());
            handler.onMessage(next.from(), view, 0, next.bytes().length);
            pendingBytes.addAndGet(-next.bytes().length);
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        TransportConfig config = this.config;
        if (config == null) {
            return;
        }
        network.unregister(config.self(), this);
        for (int peer = 0; peer < config.clusterSize(); peer++) {
            InJvmTransport other = peer == config.nodeId() ? null : network.endpoint(config.peers().get(peer));
            if (other != null) {
                other.inbound.add(new Delivery(config.nodeId(), null));
            }
        }
        delivery.interrupt();
        synchronized (drained) {
            drained.notifyAll();
        }
        if (Thread.currentThread() != delivery) {
            try {
                delivery.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for peers", e);
        }
    }
}
