package io.adaps.api;

/**
 * A peer node died or its connection broke: thrown by every pending and every later operation
 * that needs that peer. Operations that only involve live nodes keep working.
 */
public class PeerFailedException extends ClusterException {
    private static final long serialVersionUID = 1L;

    private final int peer;

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
    }

    /** The failed node's id. */
    public int peer() {
        return peer;
    }
}
