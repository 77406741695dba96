package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNonNegative;
import static io.adaps.examples.Checks.checkNotNull;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.examples.EpochClocks;

/**
 * Combines what every node of a cluster measures on its part of a training run into the
 * cluster's figures: the means of a training and a test measure (the squared errors of the
 * {@code mf} example, whose square roots are the RMSEs; the losses of the {@code w2v} example),
 * the fraction of parameter accesses that were local and the entries (or words) trained, and
 * what each node's share was, what it trained and how long it was busy (for
 * {@link io.adaps.examples.SpeedShares}, whose shares a float holds exactly),
 * through a small AdaPS table (by default {@value #TABLE}).
 *
 * <p>In round {@code r} every node sets its own row of the table to its sums, waits at a cluster
 * barrier, and pulls every node's row. Rows are set rather than added to, so that a round
 * combined again is not counted twice: a periodic checkpoint may be taken at the round's barrier,
 * and a run resumed from it combines the round once more. Rounds take turns in
 * {@value #ROUNDS_KEPT} sets of rows, so that the last {@value #ROUNDS_KEPT} rounds can be
 * {@link #read} again (the speeds of {@link SpeedRounds} span several): a node sets its row of
 * round {@code r + ROUNDS_KEPT} only after every node has passed the barrier of round {@code r + 1},
 * so after every node has read round {@code r}. The table's size does not
 * depend on the cluster (up to {@link EpochClocks#MAX_NODES} nodes), so it can be declared before
 * the node knows its cluster. Sums travel as floats: relative precision 1e-7, far below the four
 * digits an RMSE or a loss or the one decimal of a percentage is printed with; the count of
 * entries trained, which scripts add up, travels exactly in two floats of 24 bits. Every node
 * computes the round's figures from the same rows, so they agree on every figure to the bit; a run
 * resumed from a checkpoint can {@link #read} a round again, since the checkpoint holds its rows.
 *
 * <p>One thread per node calls {@link #combine}.
 */
public final class ClusterStats {
    /** The rounds whose figures stay in the table: the last ones combined. */
    public static final int ROUNDS_KEPT = 8;
    /** Name of the table of per-round sums of the {@code mf} example. */
    public static final String TABLE = "mf.stats";
    private static final int TRAIN_SUM = 0;
    private static final int TRAIN_COUNT = 1;
    private static final int TEST_SUM = 2;
    private static final int TEST_COUNT = 3;
    private static final int LOCAL_ACCESSES = 4;
    private static final int REMOTE_ACCESSES = 5;
    private static final int TRAINED_HIGH = 6;
    private static final int TRAINED_LOW = 7;
    private static final int BUSY_SECONDS = 8;
    private static final int SHARE = 9;
    private static final int SUMS = 10;
    /** Bits of the trained count per float: every integer up to 2^24 is a float. */
    private static final int TRAINED_BITS = 24;

    private final AdaPS node;
    private final String table;
    private final float[] row = new float[SUMS];

    /** A combiner on {@code node}, which must declare {@link #spec()}'s table. */
    public ClusterStats(AdaPS node) {
        this(node, TABLE);
    }

    /**
     * A combiner on {@code node} through its table {@code table}, declared with {@link #spec(String)}.
     *
     * @throws IllegalArgumentException if the node does not declare the table or its cluster is too large
     */
    public ClusterStats(AdaPS node, String table) {
        this.node = checkNotNull(node, "node");
        this.table = checkNotNull(table, "table");
        node.table(table); // refuses a table the node does not declare
        if (node.clusterSize() > EpochClocks.MAX_NODES) {
            throw new IllegalArgumentException("clusterSize=" + node.clusterSize() + " (expected <= "
                    + EpochClocks.MAX_NODES + ")");
        }
    }

    /** The table {@value #TABLE}. */
    public static TableSpec spec() {
        return spec(TABLE);
    }

    /** The table {@code table}: a row per node for each of {@value #ROUNDS_KEPT} rounds in turn. */
    public static TableSpec spec(String table) {
        return TableSpec.of(table, (long) ROUNDS_KEPT * EpochClocks.MAX_NODES, SUMS)
                .withUpdateRule(UpdateRules.assign())
                .withConsistency(Consistency.asp());
    }

    /**
     * Sets this node's sums of round {@code round}, waits for every node to do the same and returns
     * the cluster's figures. Every node calls it once per round, with the same rounds in the same
     * order; a round may be combined again (after a restore), with the same or new sums.
     *
     * @throws IllegalArgumentException if {@code round} is negative
     * @throws io.adaps.api.ClusterException if a node failed
     */
    public Round combine(int round, NodeSums nodeSums) {
        checkNonNegative(round, "round");
        checkNotNull(nodeSums, "nodeSums");
        row[TRAIN_SUM] = (float) nodeSums.trainSum();
        row[TRAIN_COUNT] = nodeSums.trainCount();
        row[TEST_SUM] = (float) nodeSums.testSum();
        row[TEST_COUNT] = nodeSums.testCount();
        row[LOCAL_ACCESSES] = nodeSums.localAccesses();
        row[REMOTE_ACCESSES] = nodeSums.remoteAccesses();
        row[TRAINED_HIGH] = nodeSums.trained() >>> TRAINED_BITS;
        row[TRAINED_LOW] = nodeSums.trained() & ((1L << TRAINED_BITS) - 1);
        row[BUSY_SECONDS] = (float) nodeSums.busySeconds();
        row[SHARE] = (float) nodeSums.share();
        // Unclocked: it never ticks, and must not hold the training workers back.
        try (Worker worker = node.unclockedWorker()) {
            TableView sums = worker.table(table);
            sums.set(firstRow(round) + node.nodeId(), row, 0);
            node.barrier();
            return pull(sums, round);
        }
    }

    /**
     * The figures of round {@code round} as every node combined them, without setting anything: for
     * a run resumed from a checkpoint taken after the round, which holds its rows. They stay until
     * round {@code round + ROUNDS_KEPT} is combined (rounds take turns in {@value #ROUNDS_KEPT} sets
     * of rows); rows that no node set since the table was declared read as zeros (no figures).
     *
     * @throws IllegalArgumentException if {@code round} is negative
     */
    public Round read(int round) {
        checkNonNegative(round, "round");
        try (Worker worker = node.unclockedWorker()) {
            return pull(worker.table(table), round);
        }
    }

    private static long firstRow(int round) {
        return (long) (round % ROUNDS_KEPT) * EpochClocks.MAX_NODES;
    }

    private Round pull(TableView sums, int round) {
        int nodes = node.clusterSize();
        long[] rows = new long[nodes];
        for (int i = 0; i < nodes; i++) {
            rows[i] = firstRow(round) + i;
        }
        float[] all = new float[nodes * SUMS];
        sums.pull(rows, all);
        double[] total = new double[TRAINED_HIGH];
        long trained = 0;
        long[] nodeTrained = new long[nodes];
        double[] nodeBusySeconds = new double[nodes];
        double[] nodeShares = new double[nodes];
        for (int i = 0; i < nodes; i++) {
            for (int sum = 0; sum < TRAINED_HIGH; sum++) {
                total[sum] += all[i * SUMS + sum];
            }
            nodeTrained[i] = ((long) all[i * SUMS + TRAINED_HIGH] << TRAINED_BITS) + (long) all[i * SUMS + TRAINED_LOW];
            trained += nodeTrained[i];
            nodeBusySeconds[i] = all[i * SUMS + BUSY_SECONDS];
            nodeShares[i] = all[i * SUMS + SHARE];
        }
        return new Round(total[TRAIN_SUM] / total[TRAIN_COUNT], total[TEST_SUM] / total[TEST_COUNT],
                total[LOCAL_ACCESSES] / (total[LOCAL_ACCESSES] + total[REMOTE_ACCESSES]), trained, nodeTrained,
                nodeBusySeconds, nodeShares);
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
     * @param trained        the entries (or words) it trained since the last round
     * @param busySeconds    the seconds it was busy training them (0: not measured)
     * @param share          the share of the data it trained them from, in {@code [0, 1]}
     */
    public record NodeSums(double trainSum, long trainCount, double testSum, long testCount,
                           long localAccesses, long remoteAccesses, long trained, double busySeconds, double share) {
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
            checkNonNegative(trained, "trained");
            if (!(busySeconds >= 0) || Double.isInfinite(busySeconds)) {
                throw new IllegalArgumentException("busySeconds=" + busySeconds + " (expected a finite value >= 0)");
            }
            if (!(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException("share=" + share + " (expected 0..1)");
            }
        }
    }

    /**
     * The cluster's figures of a round.
     *
     * @param trainMean     the training measure's mean over all nodes' training items ({@code NaN} for none)
     * @param testMean      the test measure's mean over all nodes' test items ({@code NaN} for none)
     * @param localFraction the fraction of all nodes' accesses that were local ({@code NaN} for none)
     * @param trained       the entries (or words) all nodes trained
     * @param nodeTrained     per node, the entries (or words) it trained
     * @param nodeBusySeconds per node, the seconds it was busy training them (0: not measured)
     * @param nodeShares      per node, the share of the data it trained them from
     */
    public record Round(double trainMean, double testMean, double localFraction, long trained, long[] nodeTrained,
                        double[] nodeBusySeconds, double[] nodeShares) {
        /** Copies the arrays. */
        public Round {
            nodeTrained = nodeTrained.clone();
            nodeBusySeconds = nodeBusySeconds.clone();
            nodeShares = nodeShares.clone();
        }

        /** A copy of the entries (or words) each node trained. */
        @Override
        public long[] nodeTrained() {
            return nodeTrained.clone();
        }

        /** A copy of the seconds each node was busy training. */
        @Override
        public double[] nodeBusySeconds() {
            return nodeBusySeconds.clone();
        }

        /** A copy of each node's share of the data. */
        @Override
        public double[] nodeShares() {
            return nodeShares.clone();
        }

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
