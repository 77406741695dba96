package io.adaps.node;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * A cluster-wide barrier coordinated by node 0: every node counts its barriers; a node entering
 * barrier {@code b} tells node 0, which, once all nodes entered {@code b}, releases them all. A
 * failed peer, or one that left before passing {@code b}, ends the wait with its
 * {@link PeerFailedException}; a peer that left after passing {@code b} does not (its goodbye can
 * overtake node 0's release, which travels on another connection). Every wait is bounded by the
 * barrier timeout.
 *
 * <p>Node 0 also decides, as it releases a barrier, whether the barrier takes a periodic
 * checkpoint ({@link #CHECKPOINT_FLAG} in the release's id), so that every node takes it at the
 * same barrier.
 */
final class ClusterBarrier {
    private final NodeContext context;
    private final Peers peers;
    private final Map<Long, Integer> arrivals = new HashMap<>();
    /** Per peer: the barriers it had passed when it left, or -1 while it has not left. */
    private final AtomicLongArray passedWhenLeft;
    /** Set in a release's id when the barrier takes a periodic checkpoint. */
    static final long CHECKPOINT_FLAG = 1L << 62;

    private final BooleanSupplier checkpointDue;
    private long entered;
    private long released;
    /** The last barrier whose release asked for a periodic checkpoint, or 0. */
    private long checkpointBarrier;
    private boolean waiting;

    /**
     * @param checkpointDue asked by node 0 as it releases a barrier: whether the barrier takes a
     *                      periodic checkpoint (its answer travels with the release, so that every
     *                      node agrees)
     */
    ClusterBarrier(NodeContext context, BooleanSupplier checkpointDue) {
        this.context = context;
        this.checkpointDue = checkpointDue;
        this.peers = context.peers();
        this.passedWhenLeft = new AtomicLongArray(context.clusterSize());
        for (int peer = 0; peer < context.clusterSize(); peer++) {
            passedWhenLeft.set(peer, -1);
        }
    }

    synchronized void await() {
        if (waiting) {
            throw new IllegalStateException("barrier() is already waiting on another thread of node " + context.nodeId()
                    + " (expected one thread per node to call it)");
        }
        long barrier = ++entered;
        waiting = true;
        try {
            if (context.nodeId() == 0) {
                arrive(barrier);
            } else {
                peers.sendControl(0, MessageType.BARRIER_ENTER, barrier);
            }
            long deadline = context.clock().nanoTime() + context.config().barrierTimeout().toNanos();
            while (released < barrier) {
                PeerFailedException failure = obstacle(barrier);
                if (failure != null) {
                    throw failure;
                }
                long left = deadline - context.clock().nanoTime();
                if (left <= 0) {
                    throw new ClusterException("node " + context.nodeId() + ": barrier " + barrier
                            + " not reached by all nodes within " + context.config().barrierTimeout());
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("node " + context.nodeId() + ": interrupted in barrier " + barrier, e);
        } finally {
            waiting = false;
        }
    }

    /** Whether node 0 asked barrier {@code barrier}, passed, to take a periodic checkpoint. */
    synchronized boolean checkpointAt(long barrier) {
        return checkpointBarrier == barrier;
    }

    /** Barriers this node has passed. */
    synchronized long passed() {
        return released;
    }

    /**
     * The failure of a peer that keeps {@code barrier} from completing, or {@code null}: a peer that
     * failed, or left before passing it. A peer that left after passing it is no obstacle: the
     * coordinator's release is on its way (it may travel slower than the goodbye).
     */
    PeerFailedException obstacle(long barrier) {
        for (int peer = 0; peer < context.clusterSize(); peer++) {
            PeerFailedException failure = peers.failure(peer);
            if (failure != null && !(failure.left() && passedWhenLeft.get(peer) >= barrier)) {
                return failure;
            }
        }
        return null;
    }

    /** BARRIER_ENTER, at node 0: {@code peer} entered the barrier the request id numbers. */
    void onEnter(int peer, Message enter) {
        synchronized (this) {
            arrive(enter.requestId());
        }
    }

    /** BARRIER_RELEASE: node 0 released the barrier the request id numbers. */
    synchronized void onRelease(int peer, Message release) {
        long barrier = release.requestId() & ~CHECKPOINT_FLAG;
        if ((release.requestId() & CHECKPOINT_FLAG) != 0) {
            checkpointBarrier = barrier;
        }
        released = Math.max(released, barrier);
        notifyAll();
    }

    /** LEAVE: {@code peer} closed after passing the barriers the request id counts. */
    void onLeave(int peer, Message leave) {
        long passed = leave.requestId();
        passedWhenLeft.set(peer, passed);
        peers.markFailed(PeerFailedException.left(peer, "(" + peers.address(peer) + ") left the cluster after barrier "
                + passed));
    }

    /** A peer failed: wake the waiter so that it throws. */
    synchronized void onPeerFailure() {
        notifyAll();
    }

    private void arrive(long barrier) {
        int count = arrivals.merge(barrier, 1, Integer::sum);
        if (count == context.clusterSize()) {
            arrivals.remove(barrier);
            boolean checkpoint = checkpointDue.getAsBoolean();
            if (checkpoint) {
                checkpointBarrier = barrier;
            }
            for (int peer = 1; peer < context.clusterSize(); peer++) {
                peers.sendControl(peer, MessageType.BARRIER_RELEASE, checkpoint ? barrier | CHECKPOINT_FLAG : barrier);
            }
            released = Math.max(released, barrier);
            notifyAll();
        }
    }
}
