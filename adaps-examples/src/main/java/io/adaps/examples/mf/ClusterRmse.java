package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;

/**
 * Combines the squared-error sums that every node of a cluster computes on its part of the data
 * into the cluster's train and test RMSE, through a small AdaPS table ({@value #TABLE}).
 *
 * <p>The table has one row per evaluation round, of four floats: train squared errors, train
 * entries, test squared errors, test entries. In round {@code r} every node pushes its sums to row
 * {@code r} (additive updates, applied at the row's home before the push returns), waits at a
 * cluster barrier, and pulls the row: the sums of all nodes. A fresh row per round means no node
 * has to reset anything, and the table's size does not depend on the number of nodes, so it can be
 * declared before the node knows its cluster. Sums travel as floats: relative precision 1e-7, far
 * below the four digits an RMSE is printed with.
 *
 * <p>One thread per node calls {@link #combine}, the same thread every time (it owns the worker).
 */
public final class ClusterRmse {
    /** Name of the table of per-round sums. */
    public static final String TABLE = "mf.stats";
    private static final int TRAIN_ERRORS = 0;
    private static final int TRAIN_ENTRIES = 1;
    private static final int TEST_ERRORS = 2;
    private static final int TEST_ENTRIES = 3;
    private static final int SUMS = 4;

    private final AdaPS node;
    private final TableView sums;
    private final float[] row = new float[SUMS];

    /** A combiner on {@code node}, which must declare {@link #spec}'s table. */
    public ClusterRmse(AdaPS node) {
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
     * the cluster's RMSEs ({@code NaN} where the cluster has no entries). Every node calls it once per
     * round, with the same rounds in the same order.
     *
     * @param trainErrors  sum of the squared errors on this node's training entries
     * @param trainEntries this node's training entries
     * @param testErrors   sum of the squared errors on this node's test entries
     * @param testEntries  this node's test entries
     * @throws IllegalArgumentException if {@code round} is not a row of the table or a count is negative
     * @throws io.adaps.api.ClusterException if a node failed
     */
    public Rmse combine(int round, double trainErrors, long trainEntries, double testErrors, long testEntries) {
        checkNonNegative(trainEntries, "trainEntries");
        checkNonNegative(testEntries, "testEntries");
        row[TRAIN_ERRORS] = (float) trainErrors;
        row[TRAIN_ENTRIES] = trainEntries;
        row[TEST_ERRORS] = (float) testErrors;
        row[TEST_ENTRIES] = testEntries;
        sums.push(round, row, 0);
        node.barrier();
        sums.pull(round, row, 0);
        return new Rmse(Math.sqrt((double) row[TRAIN_ERRORS] / row[TRAIN_ENTRIES]),
                Math.sqrt((double) row[TEST_ERRORS] / row[TEST_ENTRIES]));
    }

    /**
     * Root mean squared errors of the cluster's model.
     *
     * @param train on all training entries
     * @param test  on all test entries
     */
    public record Rmse(double train, double test) {
    }
}
