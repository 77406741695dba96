package io.adaps.api;

import java.time.Duration;

/**
 * A checkpoint being written in the background ({@link AdaPS#checkpointAsync}): the cut is
 * taken and the rows copied when the call returns; the files are written and published while
 * training goes on.
 */
public interface CheckpointTicket {
    /** How long the call stood this node's training still: the cut and the copy of its rows. */
    Duration pause();

    /** Whether the checkpoint is complete (published, or failed), without waiting. */
    boolean isDone();

    /**
     * Waits until the checkpoint is complete and durable on every node, bounded by the barrier
     * timeout, and returns it.
     *
     * @throws CheckpointException if a node could not write its files, node 0 could not publish
     *                             them, or that did not happen within the barrier timeout
     */
    CheckpointResult await();
}
