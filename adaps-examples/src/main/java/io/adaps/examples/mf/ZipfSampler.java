package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkPositive;

import java.util.random.RandomGenerator;

import io.adaps.examples.Checks;

/**
 * Draws ranks {@code 0 .. n - 1} from a (finite) Zipf distribution: rank {@code k} has probability
 * proportional to {@code 1 / (k + 1)^exponent}, so rank 0 is the most frequent; exponent 0 is
 * uniform.
 *
 * <p>Sampling inverts the cumulative distribution: a precomputed table of {@code n} cumulative
 * probabilities and a binary search per draw, {@code O(log n)} with no allocation. The table costs
 * 8 bytes per rank, which is small next to the factor rows the ranks index. Immutable and
 * thread-safe; the caller supplies (and owns) the random generator.
 */
public final class ZipfSampler {
    private final double exponent;
    private final double normalizer;
    private final double[] cumulative;

    /**
     * A sampler over {@code n} ranks.
     *
     * @throws IllegalArgumentException if {@code n <= 0} or {@code exponent} is negative or not finite
     */
    public ZipfSampler(int n, double exponent) {
        checkPositive(n, "n");
        Checks.checkNonNegativeFinite(exponent, "exponent");
        this.exponent = exponent;
        this.cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += weight(k);
            cumulative[k] = sum;
        }
        this.normalizer = sum;
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
        // Rounding must not leave a sliver above the last rank that a draw could fall into.
        cumulative[n - 1] = 1.0;
    }

    private double weight(int rank) {
        return Math.pow(rank + 1.0, -exponent);
    }

    /**
     * The probability of drawing {@code rank}.
     *
     * @throws IllegalArgumentException if {@code rank} is not in {@code [0, size)}
     */
    public double probability(int rank) {
        if (rank < 0 || rank >= cumulative.length) {
            throw new IllegalArgumentException("rank=" + rank + " (expected 0.." + (cumulative.length - 1) + ")");
        }
        return weight(rank) / normalizer;
    }

    /** Draws a rank using one uniform double from {@code random}. */
    public int sample(RandomGenerator random) {
        double u = random.nextDouble();
        // The first rank whose cumulative probability exceeds u.
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    @Override
    public String toString() {
        return "ZipfSampler[n=" + cumulative.length + ", exponent=" + exponent + "]";
    }
}
