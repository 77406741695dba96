package io.adaps.examples.launch;

/**
 * Receives the output of a {@link LocalCluster}'s nodes, split into lines, and the launcher's own
 * notes. Called from several threads (one per node stream); implementations must be thread-safe.
 */
public interface ClusterOutput {
    /**
     * A line that {@code node} wrote, without its terminator.
     *
     * @param error whether it came from the node's stderr (else stdout)
     */
    void line(int node, boolean error, String text);

    /**
     * Text that {@code node} ended with a carriage return, to be drawn over by its next output: a
     * progress bar.
     *
     * @param error whether it came from the node's stderr (else stdout)
     */
    void redraw(int node, boolean error, String text);

    /** A note of the launcher itself, e.g. that a node failed and the others are being stopped. */
    void note(String text);
}
