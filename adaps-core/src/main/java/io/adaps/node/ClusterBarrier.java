package io.adaps.node;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.protocol.MessageType;

/**
 * A cluster-wide barrier coordinated by node 0: every node counts its barriers; a node entering
 * barrier {@code b} tells node 0, which, once all nodes entered {@code b}, releases them all. A
 * failed peer, or one that left before passing {@code b}, ends the wait with its
 * {@link PeerFailedException}; a peer that left after passing {@code b} does not (its goodbye can
 * overtake node 0's release, which travels on another connection). Every wait is bounded by the
 * barrier timeout.
 */
final class ClusterBarrier {
    private final Node node;
    private final Map<Long, Integer> arrivals = new HashMap<>();
    private long entered;
    private long released;
    private boolean waiting;

    ClusterBarrier(Node node) {
        this.node = node;
    }

    synchronized void await() {
        if (waiting) {
            throw new IllegalStateException("barrier() is already waiting on another thread of node " + node.nodeId()
                    + " (expected one thread per node to call it)");
        }
        long barrier = ++entered;
        waiting = true;
        try {
            if (node.nodeId() == 0) {
                arrive(barrier);
            } else {
                node.sendControl(0, MessageType.BARRIER_ENTER, barrier);
            }
            long deadline = System.nanoTime() + node.config().barrierTimeout().toNanos();
            while (released < barrier) {
                PeerFailedException failure = node.barrierObstacle(barrier);
                if (failure != null) {
                    throw failure;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ClusterException("node " + node.nodeId() + ": barrier " + barrier + " not reached by all nodes within "
                            + node.config().barrierTimeout());
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("node " + node.nodeId() + ": interrupted in barrier " + barrier, e);
        } finally {
            waiting = false;
        }
    }

    /** Barriers this node has passed. */
    synchronized long passed() {
        return released;
    }

    /** At node 0: {@code peer} entered {@code barrier}. */
    synchronized void onEnter(long barrier) {
        arrive(barrier);
    }

    /** Node 0 released {@code barrier}. */
    synchronized void onRelease(long barrier) {
        released = Math.max(released, barrier);
        notifyAll();
    }

    /** A peer failed: wake the waiter so that it throws. */
    synchronized void onPeerFailure() {
        notifyAll();
    }

    private void arrive(long barrier) {
        int count = arrivals.merge(barrier, 1, Integer::sum);
        if (count == node.clusterSize()) {
            arrivals.remove(barrier);
            for (int peer = 1; peer < node.clusterSize(); peer++) {
                node.sendControl(peer, MessageType.BARRIER_RELEASE, barrier);
            }
            released = Math.max(released, barrier);
            notifyAll();
        }
    }
}
