package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNonNegative;
import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/**
 * Combines what every node of a cluster measures on its part of a training run into the
 * cluster's figures: the means of a training and a test measure (the squared errors of the
 * {@code mf} example, whose square roots are the RMSEs; the losses of the {@code w2v} example) and
 * the fraction of parameter accesses that were local, through a small AdaPS table (by default
 * {@value #TABLE}).
 *
 * <p>The table has one row per evaluation round, of six floats: train sum, train count, test sum,
 * test count, local and remote accesses. In round {@code r} every node pushes its sums to row
 * {@code r} (additive updates, applied at the row's home before the push returns), waits at a
 * cluster barrier, and pulls the row: the sums of all nodes. A fresh row per round means no node
 * has to reset anything, and the table's size does not depend on the number of nodes, so it can be
 * declared before the node knows its cluster. Sums travel as floats: relative precision 1e-7, far
 * below the four digits an RMSE or a loss or the one decimal of a percentage is printed with.
 *
 * <p>One thread per node calls {@link #combine}.
 */
public final class ClusterStats {
    /** Name of the table of per-round sums of the {@code mf} example. */
    public static final String TABLE = "mf.stats";
    private static final int TRAIN_SUM = 0;
    private static final int TRAIN_COUNT = 1;
    private static final int TEST_SUM = 2;
    private static final int TEST_COUNT = 3;
    private static final int LOCAL_ACCESSES = 4;
    private static final int REMOTE_ACCESSES = 5;
    private static final int SUMS = 6;

    private final AdaPS node;
    private final String table;
    private final float[] row = new float[SUMS];

    /** A combiner on {@code node}, which must declare {@link #spec(int)}'s table. */
    public ClusterStats(AdaPS node) {
        this(node, TABLE);
    }

    /** A combiner on {@code node} through its table {@code table}, declared with {@link #spec(String, int)}. */
    public ClusterStats(AdaPS node, String table) {
        this.node = checkNotNull(node, "node");
        this.table = checkNotNull(table, "table");
        node.table(table); // refuses a table the node does not declare
    }

    /** The table {@value #TABLE} for {@code rounds} evaluation rounds. */
    public static TableSpec spec(int rounds) {
        return spec(TABLE, rounds);
    }

    /** The table {@code table} for {@code rounds} evaluation rounds. */
    public static TableSpec spec(String table, int rounds) {
        checkPositive(rounds, "rounds");
        return TableSpec.of(table, rounds, SUMS).withUpdateRule(UpdateRules.add()).withConsistency(Consistency.asp());
    }

    /**
     * Adds this node's sums to round {@code round}, waits for every node to do the same and returns
     * the cluster's figures. Every node calls it once per round, with the same rounds in the same
     * order.
     *
     * @throws IllegalArgumentException if {@code round} is not a row of the table
     * @throws io.adaps.api.ClusterException if a node failed
     */
    public Round combine(int round, NodeSums nodeSums) {
        checkNotNull(nodeSums, "nodeSums");
        row[TRAIN_SUM] = (float) nodeSums.trainSum();
        row[TRAIN_COUNT] = nodeSums.trainCount();
        row[TEST_SUM] = (float) nodeSums.testSum();
        row[TEST_COUNT] = nodeSums.testCount();
        row[LOCAL_ACCESSES] = nodeSums.localAccesses();
        row[REMOTE_ACCESSES] = nodeSums.remoteAccesses();
        // Unclocked: it never ticks, and must not hold the training workers back.
        try (Worker worker = node.unclockedWorker()) {
            TableView sums = worker.table(table);
            sums.push(round, row, 0);
            node.barrier();
            sums.pull(round, row, 0);
        }
        return new Round((double) row[TRAIN_SUM] / row[TRAIN_COUNT], (double) row[TEST_SUM] / row[TEST_COUNT],
                (double) row[LOCAL_ACCESSES] / (row[LOCAL_ACCESSES] + row[REMOTE_ACCESSES]));
    }

    /**
     * One node's sums of a round.
     *
     * @param trainSum       sum of the training measure over this node's training items (squared
     *                       errors of its entries, losses of its pairs)
     * @param trainCount     this node's training items
     * @param testSum        sum of the test measure over this node's test items
     * @param testCount      this node's test items
     * @param localAccesses  parameter values its training accessed in its memory since the last round
     * @param remoteAccesses parameter values its training accessed at other nodes since the last round
     */
    public record NodeSums(double trainSum, long trainCount, double testSum, long testCount,
                           long localAccesses, long remoteAccesses) {
        /**
         * Checks the counts.
         *
         * @throws IllegalArgumentException if a count is negative
         */
        public NodeSums {
            checkNonNegative(trainCount, "trainCount");
            checkNonNegative(testCount, "testCount");
            checkNonNegative(localAccesses, "localAccesses");
            checkNonNegative(remoteAccesses, "remoteAccesses");
        }
    }

    /**
     * The cluster's figures of a round.
     *
     * @param trainMean     the training measure's mean over all nodes' training items ({@code NaN} for none)
     * @param testMean      the test measure's mean over all nodes' test items ({@code NaN} for none)
     * @param localFraction the fraction of all nodes' accesses that were local ({@code NaN} for none)
     */
    public record Round(double trainMean, double testMean, double localFraction) {
        /** The root of {@link #trainMean()}: the RMSE when the measure is the squared error. */
        public double trainRmse() {
            return Math.sqrt(trainMean);
        }

        /** The root of {@link #testMean()}: the RMSE when the measure is the squared error. */
        public double testRmse() {
            return Math.sqrt(testMean);
        }
    }
}
