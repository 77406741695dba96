package io.adaps.checkpoint;

import java.util.List;

import io.adaps.api.RestoredCheckpoint.SavedWorker;

/**
 * One node's bookkeeping at a checkpoint's cut, as its state file holds it ({@link StateFile}).
 *
 * @param node         the node
 * @param workers      the node's workers: clocks and what the application saved
 * @param partitioning the partitioning that decided the rows' homes, as the handshake describes
 *                     it; {@code null} if the file predates placements
 * @param placed       per table, the rows the node owned although homed elsewhere, ascending
 *                     (rows relocated before the cut); no tables if the file predates placements
 */
public record NodeState(int node, List<SavedWorker> workers, String partitioning, int[][] placed) {
    public NodeState {
        workers = List.copyOf(workers);
    }
}
