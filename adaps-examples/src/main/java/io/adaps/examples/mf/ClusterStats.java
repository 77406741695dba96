package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;

/**
 * Combines what every node of a cluster measures on its part of a training run into the
 * cluster's figures: the train and test RMSE and the fraction of parameter accesses that were
 * local, through a small AdaPS table ({@value #TABLE}).
 *
 * <p>The table has one row per evaluation round, of six floats: train squared errors, train
 * entries, test squared errors, test entries, local and remote accesses. In round {@code r} every
 * node pushes its sums to row {@code r} (additive updates, applied at the row's home before the
 * push returns), waits at a cluster barrier, and pulls the row: the sums of all nodes. A fresh row
 * per round means no node has to reset anything, and the table's size does not depend on the number
 * of nodes, so it can be declared before the node knows its cluster. Sums travel as floats:
 * relative precision 1e-7, far below the four digits an RMSE or the one decimal of a percentage is
 * printed with.
 *
 * <p>One thread per node calls {@link #combine}, the same thread every time (it owns the worker).
 */
public final class ClusterStats {
    /** Name of the table of per-round sums. */
    public static final String TABLE = "mf.stats";
    private static final int TRAIN_ERRORS = 0;
    private static final int TRAIN_ENTRIES = 1;
    private static final int TEST_ERRORS = 2;
    private static final int TEST_ENTRIES = 3;
    private static final int LOCAL_ACCESSES = 4;
    private static final int REMOTE_ACCESSES = 5;
    private static final int SUMS = 6;

    private final AdaPS node;
    private final TableView sums;
    private final float[] row = new float[SUMS];

    /** A combiner on {@code node}, which must declare {@link #spec}'s table. */
    public ClusterStats(AdaPS node) {
        this.node = checkNotNull(node, "node");
        this.sums = node.worker().table(TABLE);
    }

    /** The table for {@code rounds} evaluation rounds. */
    public static TableSpec spec(int rounds) {
        checkPositive(rounds, "rounds");
        return TableSpec.of(TABLE, rounds, SUMS).withUpdateRule(UpdateRules.add());
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
        row[TRAIN_ERRORS] = (float) nodeSums.trainErrors();
        row[TRAIN_ENTRIES] = nodeSums.trainEntries();
        row[TEST_ERRORS] = (float) nodeSums.testErrors();
        row[TEST_ENTRIES] = nodeSums.testEntries();
        row[LOCAL_ACCESSES] = nodeSums.localAccesses();
        row[REMOTE_ACCESSES] = nodeSums.remoteAccesses();
        sums.push(round, row, 0);
        node.barrier();
        sums.pull(round, row, 0);
        return new Round(Math.sqrt((double) row[TRAIN_ERRORS] / row[TRAIN_ENTRIES]),
                Math.sqrt((double) row[TEST_ERRORS] / row[TEST_ENTRIES]),
                (double) row[LOCAL_ACCESSES] / (row[LOCAL_ACCESSES] + row[REMOTE_ACCESSES]));
    }

    /**
     * One node's sums of a round.
     *
     * @param trainErrors    sum of the squared errors on this node's training entries
     * @param trainEntries   this node's training entries
     * @param testErrors     sum of the squared errors on this node's test entries
     * @param testEntries    this node's test entries
     * @param localAccesses  parameter values its training accessed in its memory since the last round
     * @param remoteAccesses parameter values its training accessed at other nodes since the last round
     */
    public record NodeSums(double trainErrors, long trainEntries, double testErrors, long testEntries,
                           long localAccesses, long remoteAccesses) {
        /**
         * Checks the counts.
         *
         * @throws IllegalArgumentException if a count is negative
         */
        public NodeSums {
            checkNonNegative(trainEntries, "trainEntries");
            checkNonNegative(testEntries, "testEntries");
            checkNonNegative(localAccesses, "localAccesses");
            checkNonNegative(remoteAccesses, "remoteAccesses");
        }
    }

    /**
     * The cluster's figures of a round.
     *
     * @param trainRmse     root mean squared error on all training entries ({@code NaN} for none)
     * @param testRmse      root mean squared error on all test entries ({@code NaN} for none)
     * @param localFraction the fraction of all nodes' accesses that were local ({@code NaN} for none)
     */
    public record Round(double trainRmse, double testRmse, double localFraction) {
    }
}
