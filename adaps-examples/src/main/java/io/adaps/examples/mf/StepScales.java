package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;

/**
 * Per-parameter multipliers of the SGD step size, by how often a parameter occurs in the training
 * entries: a row or column with {@code n} entries, more than the reference count {@code r}, steps
 * at {@code r / n} of the learning rate; every other parameter at the full rate. The reference
 * count is {@link #REFERENCE_SHARE} of all training entries, or the mean entries per row (per
 * column, for columns) if that is more: on a small matrix every parameter holds a large share of
 * the entries, and scaling them all would only slow the whole model down (the cluster tests'
 * 400 x 300 matrix learned too slowly). The {@code mf} command uses the same scales under every
 * technique and on any number of nodes, computed from all the training entries (not a node's
 * share), so that one node and a cluster run the same algorithm.
 *
 * <h2>Why</h2>
 * On zipf-skewed data a few parameters take a large share of the steps: the hottest column of the
 * default data holds 15% of the entries, the hottest row of a zipf-1.5 matrix 39%. With one
 * learning rate for all, such a parameter takes thousands of steps in a row against the entries
 * that happen to come, and follows them: each stretch nearly fits it to that stretch's entries.
 * On one node this is SGD noise (the final test RMSE of the default data falls from 0.1131 to
 * 0.1100 with these scales). Schedules that run concurrently or in blocks make it worse:
 * <ul>
 *   <li>Under the intent plan each node trains the shared hot parameters on its replica between
 *       two synchronization rounds, and the round adds the nodes' trajectories (replicas never lose
 *       an update). Trajectories that each nearly fit their node's entries overshoot the common fit
 *       by about {@code N - 1} times the distance travelled: on 2 nodes the error oscillated
 *       (test RMSE jumps of several percent from one epoch to the next), from 3 nodes on it grew
 *       until the model diverged.</li>
 *   <li>Under the blocked schedule a hot row trains against one column block for a sub-epoch and
 *       fits it (+5.9% test RMSE on the default data, +31% at zipf 1.5, against the single
 *       node).</li>
 * </ul>
 * Steps scaled by {@code r / n} bound what a parameter travels in any stretch by about what
 * {@code r} entries at the full rate would move it, while every entry still counts (a step of
 * {@code 1 / n} is the step of a running mean). This is the simplest of the per-coordinate
 * learning rates that shrink with a parameter's updates (AdaGrad: Duchi, Hazan, Singer, "Adaptive
 * Subgradient Methods for Online Learning and Stochastic Optimization", JMLR 2011, divides by the
 * root of the summed squared gradients), computed once from the entry counts, which the data give
 * before training. The reference share is measured (2 nodes pinned, 10 epochs, docs/benchmarks.md):
 * at 1/1024 of the entries the runs end higher (0.1105 on one node, the blocked schedule 2.8%
 * above it); at 1/4096 one node ends at 0.1100, every technique on 2 nodes within 0.5% of it and
 * on 4 within 1%; at 1/8192 about as low (0.1098 on one node) but the first epoch learns less
 * (test RMSE 0.173 after it, against 0.149).
 *
 * <p>Immutable after construction.
 */
final class StepScales {
    /** A parameter with more than this share of the training entries takes steps scaled down by its count. */
    static final double REFERENCE_SHARE = 1.0 / 4096;
    /** Full steps for every parameter. */
    static final StepScales NONE = new StepScales(null, null, 0, 0);

    private final float[] rows;
    private final float[] cols;
    private final int scaledRows;
    private final int scaledCols;

    private StepScales(float[] rows, float[] cols, int scaledRows, int scaledCols) {
        this.rows = rows;
        this.cols = cols;
        this.scaledRows = scaledRows;
        this.scaledCols = scaledCols;
    }

    /**
     * The scales of training on {@code train}: for each row and column with {@code n} entries in
     * {@code train}, {@code min(1, r / n)} for the reference count {@code r}, the larger of
     * {@link #REFERENCE_SHARE} of {@code train}'s entries and the mean entries per row (column);
     * {@link #NONE} if no parameter is above it.
     */
    static StepScales byFrequency(MfData train) {
        checkNotNull(train, "train");
        double share = REFERENCE_SHARE * train.size();
        float[] rows = scales(counts(train.rows(), train.numRows()),
                Math.max(share, (double) train.size() / train.numRows()));
        float[] cols = scales(counts(train.cols(), train.numCols()),
                Math.max(share, (double) train.size() / train.numCols()));
        int scaledRows = countScaled(rows);
        int scaledCols = countScaled(cols);
        return scaledRows + scaledCols == 0 ? NONE : new StepScales(rows, cols, scaledRows, scaledCols);
    }

    private static long[] counts(int[] ids, int range) {
        long[] counts = new long[range];
        for (int id : ids) {
            counts[id]++;
        }
        return counts;
    }

    private static float[] scales(long[] counts, double reference) {
        float[] scales = new float[counts.length];
        for (int i = 0; i < counts.length; i++) {
            scales[i] = counts[i] > reference ? (float) (reference / counts[i]) : 1f;
        }
        return scales;
    }

    private static int countScaled(float[] scales) {
        int scaled = 0;
        for (float scale : scales) {
            scaled += scale < 1f ? 1 : 0;
        }
        return scaled;
    }

    /** Whether any step is scaled; {@link #row} and {@link #col} may be asked only then. */
    boolean damps() {
        return scaledRows + scaledCols > 0;
    }

    /** The step multiplier of row {@code row}. */
    float row(int row) {
        return rows[row];
    }

    /** The step multiplier of column {@code col}. */
    float col(int col) {
        return cols[col];
    }

    @Override
    public String toString() {
        return damps() ? "steps of " + scaledRows + " rows and " + scaledCols + " columns above 1/"
                + Math.round(1 / REFERENCE_SHARE) + " of the entries and the mean scaled by their frequency"
                : "full steps";
    }
}
