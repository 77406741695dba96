package io.adaps.api;

/**
 * A cluster-level failure: peers that cannot be reached at start-up, a handshake that finds a
 * different cluster id, protocol version or table schema, an operation that waited past its bound.
 * The message names the nodes involved.
 */
public class ClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public ClusterException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
