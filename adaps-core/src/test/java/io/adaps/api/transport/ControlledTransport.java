package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

import org.agrona.DirectBuffer;

/**
 * A node's end of a {@link ControlledNetwork}: {@link #send} only queues a copy of the message, and
 * the network delivers it when the test steps it. {@link #start} registers the node and returns at
 * once (there is nothing to wait for: links exist as soon as both ends are started), so the nodes of
 * a cluster can be built one after the other on the test's thread. No handshake is made; the
 * network's size must be the cluster's.
 */
public final class ControlledTransport implements Transport {
    private final ControlledNetwork network;
    private TransportConfig config;
    private MessageHandler handler;
    private boolean closed;

    /** A transport that will join {@code network}. */
    public ControlledTransport(ControlledNetwork network) {
        this.network = checkNotNull(network, "network");
    }

    @Override
    public void start(TransportConfig config, MessageHandler handler) {
        checkNotNull(config, "config");
        checkNotNull(handler, "handler");
        if (this.config != null) {
            throw new IllegalStateException("transport of " + config.describe(config.nodeId()) + " is started already");
        }
        if (config.clusterSize() != network.size()) {
            throw new IllegalArgumentException("peers=" + config.peers() + " (expected the " + network.size()
                    + " nodes of the network)");
        }
        network.register(config.nodeId(), this);
        this.handler = handler;
        this.config = config;
    }

    @Override
    public void send(int peer, DirectBuffer buffer, int offset, int length) {
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
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        network.send(config.nodeId(), peer, bytes);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (config != null) {
            network.closed(config.nodeId());
        }
    }

    MessageHandler handler() {
        return handler;
    }

    /** This node's address, for failure messages. */
    String address() {
        return config.self().toString();
    }
}
