package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.Locale;

import io.adaps.api.NodeMetrics;
import io.adaps.api.StalenessMetrics;

/**
 * The shares of an epoch's data that the nodes of a cluster train, following how fast each node
 * trained in the epoch before: each node's share moves {@link #STEP} of the way from the share it
 * trained towards {@code speed_i / sum(speed)}, a speed being the units (words, entries) a node
 * trained per second it was busy training them, if shares in those proportions would shorten the
 * epoch by {@link #MIN_GAIN}.
 *
 * <h2>Why</h2>
 * Every node trains its share of an epoch and the epoch ends when the last node is done, so with
 * equal shares the cluster runs at its slowest node's pace. Processors differ: on the 2-vCPU host
 * of docs/benchmarks.md a node pinned to one processor trained 20-70% longer than the node on the
 * other for minutes at a time (the same share, both orders), while the faster node waited in its
 * clock bound. Shares by speed let both finish together: with word2vec halves taking 4.61 and 7.53
 * s on the two processors, shares of 62% and 38% take about 5.7 s.
 *
 * <p>Half way, not all the way: a node's speed over one epoch of a few seconds is noisy (the first
 * epoch's above all, with its compilations), and moving the shares all the way to one epoch's
 * figures once made the next epoch 34% longer (a node slow in epoch 1 only got 41% of epoch 2). A
 * slowness that lasts is followed within a few epochs. And only for a gain: an epoch is predicted
 * to take {@code max_i share_i / speed_i} (of the data's size), and the shares move only if shares
 * in the speeds' proportions would cut that by {@link #MIN_GAIN} or more (two nodes 22% apart):
 * a smaller difference costs less than the move (a new plan, relocated rows, cold code), and is as
 * likely to be noise. (A rule on the half step's own gain kept the shares where a passing
 * difference had put them, 53% / 47%, since moving back half way never gained enough.) How long the
 * speeds are measured over is the caller's: {@code SpeedRounds} of the examples.
 *
 * <p>The shares depend only on each node's share, what it trained and how long it was busy, so
 * every node computes the same shares from the same figures (rounds of {@code ClusterStats}), and
 * a run resumed from a checkpoint computes them again from those rounds, which the checkpoint
 * holds. Shares are multiples of {@code 2^-20} (the last node's the rest), so
 * that a round's floats hold them exactly. No share falls below {@link #MIN_SHARE_OF_EVEN} of an
 * even one: a node stalled for an epoch (a long collection, a busy neighbour) keeps some data and so
 * goes on being measured. Without figures from every node (a node that trained nothing) the shares
 * stay as they are.
 */
public final class SpeedShares {
    /** The smallest share, as a fraction of an even share ({@code 1 / nodes}). */
    public static final double MIN_SHARE_OF_EVEN = 0.25;
    /** How far a share moves per epoch from the one trained towards the one the speeds ask for. */
    public static final double STEP = 0.5;
    /** The least fraction of the predicted epoch time that shares in the speeds' proportions must save. */
    public static final double MIN_GAIN = 0.1;
    /** Shares are multiples of {@code 1 / GRAIN}, exact in a float. */
    private static final double GRAIN = 1 << 20;

    private SpeedShares() {
    }

    /**
     * Even shares of {@code nodes} nodes (as even as multiples of {@code 2^-20} allow).
     *
     * @throws IllegalArgumentException if {@code nodes} is not positive
     */
    public static double[] even(int nodes) {
        checkPositive(nodes, "nodes");
        double[] shares = new double[nodes];
        Arrays.fill(shares, 1.0 / nodes);
        return quantized(shares);
    }

    /**
     * The shares of the next epoch when node {@code i} trained {@code trained[i]} units of its
     * share {@code shares[i]} in {@code busySeconds[i]} seconds: {@link #STEP} of the way from its
     * share towards its share of the speeds, none below {@link #MIN_SHARE_OF_EVEN} of an even share,
     * if shares of the speeds would shorten the predicted epoch by {@link #MIN_GAIN}; else (or unless
     * every node trained something in a positive, finite time) {@code shares} again.
     *
     * @param shares the shares the nodes trained under ({@link ShareDeal#check})
     * @throws IllegalArgumentException if the arrays are not one figure per node, or {@code shares}
     *                                  are not shares
     */
    public static double[] next(double[] shares, long[] trained, double[] busySeconds) {
        int nodes = ShareDeal.check(shares, 0).length;
        checkNotNull(trained, "trained");
        checkNotNull(busySeconds, "busySeconds");
        if (trained.length != nodes || busySeconds.length != nodes) {
            throw new IllegalArgumentException("trained.length=" + trained.length + ", busySeconds.length="
                    + busySeconds.length + " (expected " + nodes + ", shares.length)");
        }
        double[] speeds = new double[nodes];
        for (int i = 0; i < nodes; i++) {
            if (trained[i] <= 0 || !(busySeconds[i] > 0) || Double.isInfinite(busySeconds[i])) {
                return shares.clone();
            }
            speeds[i] = trained[i] / busySeconds[i];
        }
        double[] asked = proportional(speeds);
        if (epochTime(asked, speeds) > (1 - MIN_GAIN) * epochTime(shares, speeds)) {
            return shares.clone();
        }
        double[] moved = new double[nodes];
        for (int i = 0; i < nodes; i++) {
            moved[i] = shares[i] + STEP * (asked[i] - shares[i]);
        }
        return quantized(proportional(moved));
    }

    /**
     * The shares proportional to {@code weights} (positive and finite, one per node), none below
     * {@link #MIN_SHARE_OF_EVEN} of an even share.
     */
    private static double[] proportional(double[] weights) {
        int nodes = weights.length;
        double floor = MIN_SHARE_OF_EVEN / nodes;
        double[] shares = new double[nodes];
        boolean[] floored = new boolean[nodes];
        // Nodes whose proportional share falls below the floor get the floor; the others share the
        // rest in proportion. A pass that floors no node ends; at most n - 1 passes floor one, since
        // the floors add up to a quarter at most.
        for (int pass = 0; pass < nodes; pass++) {
            double rest = 1;
            double weightSum = 0;
            for (int i = 0; i < nodes; i++) {
                if (floored[i]) {
                    rest -= floor;
                } else {
                    weightSum += weights[i];
                }
            }
            boolean changed = false;
            for (int i = 0; i < nodes; i++) {
                if (!floored[i]) {
                    shares[i] = rest * weights[i] / weightSum;
                    if (shares[i] < floor) {
                        floored[i] = true;
                        changed = true;
                    }
                }
            }
            if (!changed) {
                break;
            }
        }
        for (int i = 0; i < nodes; i++) {
            if (floored[i]) {
                shares[i] = floor;
            }
        }
        return shares;
    }

    /** The time an epoch takes in {@code shares} at {@code speeds}, in units of the data's size. */
    private static double epochTime(double[] shares, double[] speeds) {
        double longest = 0;
        for (int i = 0; i < shares.length; i++) {
            longest = Math.max(longest, shares[i] / speeds[i]);
        }
        return longest;
    }

    /** {@code shares} rounded to multiples of {@code 1 / GRAIN}, the last the rest of 1 (exactly). */
    private static double[] quantized(double[] shares) {
        double rest = 1;
        for (int i = 0; i < shares.length - 1; i++) {
            shares[i] = Math.round(shares[i] * GRAIN) / GRAIN;
            rest -= shares[i];
        }
        shares[shares.length - 1] = rest;
        return shares;
    }

    /**
     * How long a node was busy training, in seconds: {@code trainingNanos} of wall time less what
     * each of its {@code threads} workers waited on average in their clock bound for slower nodes
     * between the metrics {@code before} and {@code after} the training (never below 0). Time at
     * mid-epoch checkpoints' barriers counts as busy, so with mid-epoch checkpoints a faster node's
     * speed is underestimated.
     *
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public static double busySeconds(long trainingNanos, NodeMetrics before, NodeMetrics after, int threads) {
        checkNotNull(before, "before");
        checkNotNull(after, "after");
        checkPositive(threads, "threads");
        double waited = (double) (clockWaitNanos(after) - clockWaitNanos(before)) / threads;
        return Math.max(0, trainingNanos - waited) / 1e9;
    }

    /**
     * What the node's workers waited in their clock bound for slower workers, in all: the most of
     * any table, since every table whose bound is the node's strictest counts the same waits.
     */
    private static long clockWaitNanos(NodeMetrics metrics) {
        long most = 0;
        for (StalenessMetrics table : metrics.staleness()) {
            most = Math.max(most, table.clockWaitNanos());
        }
        return most;
    }

    /** The shares as percentages, e.g. {@code 61.8% / 38.2%}, for a run's report. */
    public static String describe(double[] shares) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < shares.length; i++) {
            text.append(i == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.1f%%", 100 * shares[i]));
        }
        return text.toString();
    }
}
