package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.Arrays;

/**
 * Per-parameter multipliers of the SGD step size, for the parameters that every node of a cluster
 * trains at once: the hottest rows, which the intent plan shares ({@link BlockPartition#sharingHotRows}),
 * and the columns with more than {@link #HOT_COLUMN_SHARE} of the training entries. Their steps are
 * divided by the number of nodes; every other parameter keeps the full step.
 *
 * <h2>Why</h2>
 * Under the intent plan the nodes train the shared parameters on replicas, each node from the
 * same synchronized value and on its own entries, and a synchronization round adds up what the
 * nodes changed (AdaPS's replicas never lose an update). On a hot parameter a node takes up to
 * hundreds of steps between two rounds, enough to nearly fit it to its own entries; {@code N}
 * such trajectories from the same start, added up, overshoot the fit by about {@code N - 1} times
 * the distance travelled. At {@code N = 2} the overshoot is as large as the step and the error
 * oscillates: 2-node runs jumped now and then (test RMSE 0.1138 to 0.1245 from one epoch to the
 * next in one run); from {@code N = 3} it grows. Scaling the shared hot parameters' steps by
 * {@code 1 / N} makes the nodes' steps add up to about one node's trajectory, as model averaging
 * does (McMahan et al., "Communication-Efficient Learning of Deep Networks from Decentralized
 * Data", AISTATS 2017: the average of the replicas' models is the sum of their steps scaled by
 * {@code 1 / N}). Parameters that one node trains at a time, the long tail of the columns and
 * every row but the shared ones, do not overshoot and keep their full step, so the damping costs
 * no convergence there (a learning rate halved for every parameter instead converged far more
 * slowly). The same reasoning bounds asynchronous SGD's step size by its staleness (Zhang, Gupta,
 * Lian, Liu, "Staleness-aware Async-SGD for Distributed Deep Learning", IJCAI 2016).
 *
 * <p>Immutable after construction.
 */
final class StepScales {
    /**
     * Columns holding more than this share of the training entries are damped: each node takes a
     * step on such a column in about every synchronization round or more often (on the default
     * data a node trains about 7,000 entries between two rounds), and the hottest ones hundreds.
     * On 2 nodes, with 1/2048 (191 columns of the default data) 4 of 5 runs still rose by more than
     * 2% from one epoch to the next, by up to 4.1%; with 1/8192 (680 columns) 1 of 6, by 2.5%
     * (docs/benchmarks.md).
     */
    static final double HOT_COLUMN_SHARE = 1.0 / 8192;
    /** Full steps for every parameter. */
    static final StepScales NONE = new StepScales(null, null, 1, 0, 0);

    private final float[] rows;
    private final float[] cols;
    private final int nodes;
    private final int dampedRows;
    private final int dampedCols;

    private StepScales(float[] rows, float[] cols, int nodes, int dampedRows, int dampedCols) {
        this.rows = rows;
        this.cols = cols;
        this.nodes = nodes;
        this.dampedRows = dampedRows;
        this.dampedCols = dampedCols;
    }

    /**
     * The scales of the intent plan that trains {@code train} as {@code partition} deals it to its
     * {@code N} nodes: {@code 1 / N} for the partition's shared rows and for the columns above
     * {@link #HOT_COLUMN_SHARE}, 1 elsewhere; {@link #NONE} on a single node.
     */
    static StepScales sharedHotParameters(MfData train, BlockPartition partition) {
        checkNotNull(train, "train");
        checkNotNull(partition, "partition");
        int nodes = partition.parts();
        if (nodes == 1) {
            return NONE;
        }
        float[] rows = new float[train.numRows()];
        float[] cols = new float[train.numCols()];
        Arrays.fill(rows, 1f);
        Arrays.fill(cols, 1f);
        float damped = 1f / nodes;
        int dampedRows = 0;
        for (int row = 0; row < rows.length; row++) {
            if (partition.nodeOfRow(row) == BlockPartition.SHARED) {
                rows[row] = damped;
                dampedRows++;
            }
        }
        long[] colEntries = new long[cols.length];
        for (int col : train.cols()) {
            colEntries[col]++;
        }
        double hot = HOT_COLUMN_SHARE * train.size();
        int dampedCols = 0;
        for (int col = 0; col < cols.length; col++) {
            if (colEntries[col] > hot) {
                cols[col] = damped;
                dampedCols++;
            }
        }
        return new StepScales(rows, cols, nodes, dampedRows, dampedCols);
    }

    /** Whether any step is damped; {@link #row} and {@link #col} may be asked only then. */
    boolean damps() {
        return dampedRows + dampedCols > 0;
    }

    /** The step multiplier of row {@code row}. */
    float row(int row) {
        return rows[row];
    }

    /** The step multiplier of column {@code col}. */
    float col(int col) {
        return cols[col];
    }

    /** Rows whose steps are damped. */
    int dampedRows() {
        return dampedRows;
    }

    /** Columns whose steps are damped. */
    int dampedCols() {
        return dampedCols;
    }

    @Override
    public String toString() {
        return dampedRows + " rows and " + dampedCols + " columns step 1/" + nodes;
    }
}
