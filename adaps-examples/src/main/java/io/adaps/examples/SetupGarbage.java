package io.adaps.examples;

/**
 * Collects what a run's set-up leaves on the heap before its first epoch starts.
 *
 * <p>Set-up (generating or reading the data, splitting it, ordering it for the schedule) leaves
 * the data's arrays, hundreds of megabytes on large runs, in the young generation. A node's JVM
 * that sees one processor (each node of {@code launch --pin-cores}) runs the serial collector, and
 * the first young collection during training had to copy those arrays to the old generation: on
 * MF with 16 million entries, 0.65 s inside the fourth or fifth epoch (1.5-2.3 s against 0.8-0.9 s
 * for the others, in 7 runs of 8), and the other nodes waited for the stalled one at their next
 * pull or barrier, so a pause of one node is a pause of the cluster. Collected here, the same
 * arrays move in under a tenth of a second and no collection runs in those epochs: what training
 * allocates (evaluation, metrics, the progress bar) fills the young generation slowly and leaves
 * little alive.
 */
public final class SetupGarbage {
    private SetupGarbage() {
    }

    /** Runs a full collection now (unless the JVM ignores explicit collections). */
    public static void collect() {
        System.gc();
    }
}
