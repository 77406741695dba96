package io.adaps.api;

/**
 * A peer node died, its connection broke, or it left the cluster ({@link #left()}): thrown by every
 * pending and every later operation that needs that peer. Operations that only involve live nodes
 * keep working.
 */
public class PeerFailedException extends ClusterException {
    private static final long serialVersionUID = 1L;

    private final int peer;
    private final boolean left;

    /**
     * A failure of node {@code peer}.
     *
     * @param peer   the failed node's id
     * @param reason what was observed, e.g. "connection closed" or "no heartbeat for 3000 ms";
     *               should name the peer's address
     */
    public PeerFailedException(int peer, String reason) {
        super("node " + peer + " failed: " + reason);
        this.peer = peer;
        this.left = false;
    }

    private PeerFailedException(int peer, String reason, boolean left) {
        super("node " + peer + " " + reason);
        this.peer = peer;
        this.left = left;
    }

    /**
     * Node {@code peer} closed normally and left the cluster.
     *
     * @param reason e.g. "(host:port) left the cluster after barrier 3"
     */
    public static PeerFailedException left(int peer, String reason) {
        return new PeerFailedException(peer, reason, true);
    }

    /** Whether the peer left the cluster by closing normally, rather than failing. */
    public boolean left() {
        return left;
    }

    /** The failed node's id. */
    public int peer() {
        return peer;
    }
}
