package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.Arrays;

/**
 * Deals numbered items (a corpus's sentences, a matrix's entries) to the nodes of a cluster by
 * shares, one share per node, summing to 1: item {@code i} goes to the node whose interval of the
 * shares' cumulative sums holds {@code frac((i + 1) * phi)}, {@code phi} the golden ratio's
 * fractional part.
 *
 * <p>That sequence spreads over {@code [0, 1)} more evenly than any other (Weyl; Knuth, TAOCP vol.
 * 3, 6.4), so every stretch of the items is dealt in about the shares' proportions, each node's
 * items a sample of the whole rather than a contiguous range; and moving a share's bound by
 * {@code d} moves only the items whose positions fall between the old and the new bound, about
 * {@code d} of them, when the shares follow the nodes' speeds from epoch to epoch
 * ({@link SpeedShares}).
 */
public final class ShareDeal {
    /** The fractional part of the golden ratio. */
    private static final double PHI = 0.6180339887498949;
    /** How far from 1 the shares' sum may be (rounding in {@link SpeedShares}). */
    private static final double SUM_TOLERANCE = 1e-9;

    private ShareDeal() {
    }

    /** Where item {@code i} falls in {@code [0, 1)}: the fractional part of {@code (i + 1) * phi}. */
    public static double position(long i) {
        double point = (i + 1) * PHI;
        return point - Math.floor(point);
    }

    /**
     * The node that item {@code i} goes to under {@code shares} (checked by {@link #check}): the one
     * whose interval holds {@link #position}; the last node takes everything above its lower bound,
     * so rounding loses no item.
     */
    public static int nodeOf(long i, double[] shares) {
        double point = position(i);
        double upper = 0;
        for (int node = 0; node < shares.length - 1; node++) {
            upper += shares[node];
            if (point < upper) {
                return node;
            }
        }
        return shares.length - 1;
    }

    /**
     * Checks that {@code shares} are shares of a cluster with a node {@code node}: none negative,
     * their sum 1, {@code node} one of theirs.
     *
     * @return {@code shares}
     * @throws IllegalArgumentException naming the first value out of range
     */
    public static double[] check(double[] shares, int node) {
        checkNotNull(shares, "shares");
        if (shares.length == 0) {
            throw new IllegalArgumentException("shares.length=0 (expected one share per node)");
        }
        if (node < 0 || node >= shares.length) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (shares.length - 1) + ")");
        }
        double sum = 0;
        for (int i = 0; i < shares.length; i++) {
            if (!(shares[i] >= 0)) {
                throw new IllegalArgumentException("shares[" + i + "]=" + shares[i] + " (expected >= 0)");
            }
            sum += shares[i];
        }
        if (Math.abs(sum - 1) > SUM_TOLERANCE) {
            throw new IllegalArgumentException("shares=" + Arrays.toString(shares) + " (expected a sum of 1)");
        }
        return shares;
    }
}
