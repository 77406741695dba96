package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Orders the entries of each mini-batch by the home node of their column, keeping their order
 * within each node's group, so that a cluster node steps the columns it owns and its replicas of
 * the other nodes' columns in runs rather than in random order.
 *
 * <p>Why: an in-place step ({@link io.adaps.api.TableView#updateInPlace}) takes the owned path or
 * the replica path of the store per row, and under {@code ADAPTIVE} a node of the Hogwild plan
 * holds its home's columns owned and every other column as a replica. In the shuffled order the
 * processor mispredicts the path about every other step: {@code ReplicaAccessBenchmark}'s pairs of
 * rows of random kind take 62 ns per step, pairs alternating owned and replica in a fixed pattern
 * 45 ns, the mean of the pure kinds 43 ns (issue 13). Within a batch the order of entries is a
 * detail of Hogwild (the entries are shuffled once, and the copies path already steps its entries
 * after the in-place ones), and the batches, the chunks they form and so the intents stay the
 * same; on one node nothing changes.
 *
 * <p>The trainer passes the homes of {@link io.adaps.api.Partitioning#RANGE}, the partitioning the
 * examples' nodes use (the builder's default).
 */
final class ColumnRuns {
    private ColumnRuns() {
    }

    /**
     * {@code data} with the entries of every batch grouped by their column's home node, lowest
     * first, each group in its order: the batches are those of {@code batchSize} entries from the
     * start of each of the {@code threads} shares of the entries ({@link ShardPool#shareStart}), as
     * the trainer's threads walk them. {@code data} itself on one node.
     *
     * @param homeOf the home node of a column, in {@code 0 .. nodes - 1}
     * @throws IllegalArgumentException if a count is not positive, or a home is out of range
     */
    static MfData grouped(MfData data, int threads, int batchSize, int nodes, IntUnaryOperator homeOf) {
        checkNotNull(data, "data");
        checkPositive(threads, "threads");
        checkPositive(batchSize, "batchSize");
        checkPositive(nodes, "nodes");
        checkNotNull(homeOf, "homeOf");
        if (nodes == 1) {
            return data;
        }
        int[] homes = new int[data.numCols()];
        for (int col = 0; col < homes.length; col++) {
            homes[col] = homeOf.applyAsInt(col);
            if (homes[col] < 0 || homes[col] >= nodes) {
                throw new IllegalArgumentException("homeOf(" + col + ")=" + homes[col] + " (expected 0.." + (nodes - 1) + ")");
            }
        }
        int size = data.size();
        int[] rows = new int[size];
        int[] cols = new int[size];
        float[] values = new float[size];
        int[] starts = new int[nodes + 1];
        for (int t = 0; t < threads; t++) {
            int shareEnd = ShardPool.shareStart(t + 1, size, threads);
            for (int from = ShardPool.shareStart(t, size, threads); from < shareEnd; from += batchSize) {
                group(data, from, Math.min(shareEnd, from + batchSize), homes, starts, rows, cols, values);
            }
        }
        return new MfData(data.numRows(), data.numCols(), rows, cols, values);
    }

    /** Copies entries {@code [from, to)} of {@code data} to the same places of the arrays, grouped by home. */
    private static void group(MfData data, int from, int to, int[] homeOf, int[] starts, int[] rows, int[] cols,
                              float[] values) {
        int[] inRows = data.rows();
        int[] inCols = data.cols();
        float[] inValues = data.values();
        Arrays.fill(starts, 0);
        for (int i = from; i < to; i++) {
            starts[homeOf[inCols[i]] + 1]++;
        }
        starts[0] = from;
        for (int home = 1; home < starts.length; home++) {
            starts[home] += starts[home - 1];
        }
        for (int i = from; i < to; i++) {
            int at = starts[homeOf[inCols[i]]]++;
            rows[at] = inRows[i];
            cols[at] = inCols[i];
            values[at] = inValues[i];
        }
    }
}
