package io.adaps.examples;

import static io.adaps.util.Checks.checkNotNull;

import java.io.PrintWriter;

import io.adaps.api.AdaPS;
import io.adaps.api.PeerFailedException;

/**
 * The last step of a node before {@link AdaPS#close()}: waits until every node has finished its
 * work, so that no node stops serving its rows while another still reads or writes them.
 */
public final class FinalBarrier {
    private FinalBarrier() {
    }

    /**
     * Waits at a cluster barrier; one thread per node calls it, after its workers' last
     * {@link io.adaps.api.Worker#waitAll()}.
     *
     * <p>A node that passes the barrier closes and says goodbye, and that goodbye can reach a third
     * node before node 0's release of the same barrier does (they travel on different connections),
     * so the third node's barrier fails with a {@link PeerFailedException} although every node has
     * finished. This node's work is done either way, so such a failure is reported on {@code err}
     * and not thrown; a peer that really failed reports that itself (its exit code).
     */
    public static void await(AdaPS node, PrintWriter err) {
        checkNotNull(node, "node");
        checkNotNull(err, "err");
        try {
            node.barrier();
        } catch (PeerFailedException e) {
            err.println("node " + node.nodeId() + ": finished; " + e.getMessage() + " while waiting for the others to finish");
            err.flush();
        }
    }
}
