package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.Locale;

/**
 * The shares of an epoch's data that the nodes of a cluster train, following how fast each node
 * trained in the epoch before: each node's share moves {@link #STEP} of the way from the share it
 * trained towards {@code speed_i / sum(speed)}, a speed being the units (words) a node trained per
 * second it was busy training them.
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
 * slowness that lasts is followed within a few epochs.
 *
 * <p>The shares depend only on what each node trained in one epoch and how long it was busy, so
 * every node computes the same shares from the same figures (one round of {@code ClusterStats}),
 * and a run resumed from a checkpoint computes them again from that round, which the checkpoint
 * holds. No share falls below {@link #MIN_SHARE_OF_EVEN} of an even one: a node stalled for an
 * epoch (a long collection, a busy neighbour) keeps some data and so goes on being measured.
 * Without figures from every node (before the first epoch, a node that trained nothing) the
 * shares are even.
 */
public final class SpeedShares {
    /** The smallest share, as a fraction of an even share ({@code 1 / nodes}). */
    public static final double MIN_SHARE_OF_EVEN = 0.25;
    /** How far a share moves per epoch from the one trained towards the one the speeds ask for. */
    public static final double STEP = 0.5;

    private SpeedShares() {
    }

    /**
     * Even shares of {@code nodes} nodes.
     *
     * @throws IllegalArgumentException if {@code nodes} is not positive
     */
    public static double[] even(int nodes) {
        checkPositive(nodes, "nodes");
        double[] shares = new double[nodes];
        Arrays.fill(shares, 1.0 / nodes);
        return shares;
    }

    /**
     * The shares of the next epoch when node {@code i} trained {@code trained[i]} units in
     * {@code busySeconds[i]} seconds: {@link #STEP} of the way from its share of the units towards
     * its share of the speeds, none below {@link #MIN_SHARE_OF_EVEN} of an even share; even unless
     * every node trained something in a positive, finite time.
     *
     * @throws IllegalArgumentException if there are no nodes or the arrays differ in length
     */
    public static double[] next(long[] trained, double[] busySeconds) {
        checkNotNull(trained, "trained");
        checkNotNull(busySeconds, "busySeconds");
        int nodes = trained.length;
        checkPositive(nodes, "trained.length");
        if (busySeconds.length != nodes) {
            throw new IllegalArgumentException("busySeconds.length=" + busySeconds.length + " (expected " + nodes
                    + ", trained.length)");
        }
        double[] speeds = new double[nodes];
        double total = 0;
        for (int i = 0; i < nodes; i++) {
            if (trained[i] <= 0 || !(busySeconds[i] > 0) || Double.isInfinite(busySeconds[i])) {
                return even(nodes);
            }
            speeds[i] = trained[i] / busySeconds[i];
            total += trained[i];
        }
        double[] asked = proportional(speeds);
        double[] moved = new double[nodes];
        for (int i = 0; i < nodes; i++) {
            double current = trained[i] / total;
            moved[i] = current + STEP * (asked[i] - current);
        }
        return proportional(moved);
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

    /** The shares as percentages, e.g. {@code 61.8% / 38.2%}, for a run's report. */
    public static String describe(double[] shares) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < shares.length; i++) {
            text.append(i == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.1f%%", 100 * shares[i]));
        }
        return text.toString();
    }
}
