package io.adaps.testing;

import java.util.SplittableRandom;
import java.util.function.LongToIntFunction;

import io.adaps.api.KeyDistribution;

/**
 * Pearson's chi-square goodness-of-fit statistic of seeded draws from a distribution, binned into
 * {@value #BINS} bins, against the bins' exact probabilities. With 9 degrees of freedom the
 * statistic exceeds {@link #CRITICAL_9_DF} with probability 0.001 if the draws follow the
 * distribution; the draws are seeded, so a passing test always passes.
 */
public final class ChiSquare {
    public static final int BINS = 10;
    /** The 0.999 quantile of the chi-square distribution with 9 degrees of freedom. */
    public static final double CRITICAL_9_DF = 27.877;

    private ChiSquare() {
    }

    /**
     * The statistic of {@code observed} counts in {@link #BINS} bins against the bins' exact
     * probabilities {@code binProbability} (each bin expecting at least 5).
     */
    public static double statistic(long[] observed, double[] binProbability) {
        long draws = 0;
        for (long count : observed) {
            draws += count;
        }
        double statistic = 0;
        for (int b = 0; b < BINS; b++) {
            double expected = binProbability[b] * draws;
            if (expected < 5) {
                throw new AssertionError("bin " + b + " expects " + expected + " draws (need >= 5)");
            }
            double diff = observed[b] - expected;
            statistic += diff * diff / expected;
        }
        return statistic;
    }

    /**
     * The statistic of {@code draws} draws; {@code bin} maps a key to its bin in {@code 0..9}, and
     * {@code binProbability} holds each bin's exact probability (each expecting at least 5 draws).
     *
     * @throws AssertionError if a draw falls into no bin
     */
    public static double statistic(KeyDistribution distribution, long seed, int draws, LongToIntFunction bin,
                            double[] binProbability) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] observed = new long[BINS];
        for (int d = 0; d < draws; d++) {
            long key = distribution.draw(random);
            int b = bin.applyAsInt(key);
            if (b < 0 || b >= BINS) {
                throw new AssertionError("key=" + key + " drawn, outside every bin");
            }
            observed[b]++;
        }
        return statistic(observed, binProbability);
    }
}
