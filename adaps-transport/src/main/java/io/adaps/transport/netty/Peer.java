package io.adaps.transport.netty;

import java.util.concurrent.atomic.AtomicReference;

/**
 * This node's view of one other node: its outbox, its connection once the handshake is done, and its
 * failure, which is final (a failed peer does not re-join).
 */
final class Peer {
    private final int id;
    private final String description;
    private final String address;
    private final Outbox outbox;
    private final AtomicReference<Connection> connection = new AtomicReference<>();
    private final AtomicReference<String> failure = new AtomicReference<>();

    /**
     * @param id          the peer's node id
     * @param description {@code node N (host:port)}
     * @param address     {@code host:port}
     * @param outbox      what is queued for it
     */
    Peer(int id, String description, String address, Outbox outbox) {
        this.id = id;
        this.description = description;
        this.address = address;
        this.outbox = outbox;
    }

    int id() {
        return id;
    }

    /** {@code node N (host:port)}, for messages. */
    String description() {
        return description;
    }

    /** {@code host:port} as configured. */
    String address() {
        return address;
    }

    Outbox outbox() {
        return outbox;
    }

    /** Whether a connection to the peer completed its handshake (it may have failed since). */
    boolean isConnected() {
        return connection.get() != null;
    }

    /** The established connection, or null. */
    Connection connection() {
        return connection.get();
    }

    /** Why the peer failed, or null while it has not. */
    String failure() {
        return failure.get();
    }

    /**
     * Makes {@code handshaken} the peer's connection.
     *
     * @return false if the peer is connected or failed already
     */
    boolean establish(Connection handshaken) {
        return failure.get() == null && connection.compareAndSet(null, handshaken);
    }

    /**
     * Records the peer's failure.
     *
     * @return true the first time only
     */
    boolean fail(String reason) {
        return failure.compareAndSet(null, reason);
    }
}
