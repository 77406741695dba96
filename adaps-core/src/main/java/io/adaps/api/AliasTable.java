package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.util.SplittableRandom;

/**
 * A finite distribution over the rows {@code 0..n-1}, drawn from in constant time by the alias
 * method (Walker, "An efficient method for generating discrete random variables with general
 * distributions", ACM TOMS 1977), built in linear time by Vose's algorithm (Vose, "A Linear
 * Algorithm for Generating Random Numbers with a Given Distribution", IEEE TSE 1991).
 *
 * <h2>Tables</h2>
 * Column {@code i} of {@code n} holds a threshold {@code threshold[i]} in {@code [0, 1]} and an
 * alias {@code alias[i]}. A draw picks a column uniformly and returns {@code i} with probability
 * {@code threshold[i]}, else {@code alias[i]}: two random numbers, two array reads. Key {@code k}
 * is thus drawn with probability
 * <pre>
 *   (threshold[k] + sum over columns j != k with alias[j] == k of (1 - threshold[j])) / n
 * </pre>
 * Vose's build keeps the columns whose scaled probability {@code n * p} is below 1 ("small") and
 * at least 1 ("large") on two worklists; it fills a small column with its own probability and the
 * rest from a large one, whose remaining probability then goes back to a list. The rest is
 * computed as {@code (large + small) - 1} rather than {@code large - (1 - small)}, which loses
 * less to rounding (Schwarz, "Darts, Dice, and Coins: Sampling from a Discrete Distribution",
 * 2011). When rounding empties one list before the other, the columns left hold a scaled
 * probability of 1 up to rounding and get threshold 1. A key of weight 0 has threshold 0 and is
 * never an alias (aliases are large columns), so it is never drawn.
 *
 * <p>Weights are divided by the largest before they are summed, so no finite weights overflow;
 * a positive weight below about {@code 1e-308} times the largest becomes probability 0.
 * The tables and the probabilities take 20 bytes per key.
 */
public final class AliasTable implements KeyDistribution {
    private final double[] threshold;
    private final int[] alias;
    private final double[] probability;
    private final long size;

    private AliasTable(double[] probability) {
        int n = probability.length;
        this.probability = probability;
        threshold = new double[n];
        alias = new int[n];
        double[] scaled = new double[n];
        // One worklist array: small columns stacked from the front, large ones from the back.
        int[] work = new int[n];
        int smalls = 0;
        int larges = 0;
        long positive = 0;
        for (int i = 0; i < n; i++) {
            if (probability[i] > 0) {
                positive++;
            }
            scaled[i] = probability[i] * n;
            if (scaled[i] < 1) {
                work[smalls++] = i;
            } else {
                work[n - 1 - larges++] = i;
            }
        }
        while (smalls > 0 && larges > 0) {
            int small = work[--smalls];
            int large = work[n - larges--];
            threshold[small] = scaled[small];
            alias[small] = large;
            scaled[large] = (scaled[large] + scaled[small]) - 1;
            if (scaled[large] < 1) {
                work[smalls++] = large;
            } else {
                work[n - 1 - larges++] = large;
            }
        }
        while (larges > 0) {
            int large = work[n - larges--];
            threshold[large] = 1;
            alias[large] = large;
        }
        while (smalls > 0) {
            int small = work[--smalls];
            threshold[small] = 1;
            alias[small] = small;
        }
        size = positive;
    }

    /**
     * The distribution that draws key {@code i} with probability {@code weights[i] / sum(weights)}.
     * The array is not kept.
     *
     * @throws IllegalArgumentException if {@code weights} is empty, a weight is negative, NaN or
     *                                  infinite, or no weight is positive
     */
    public static AliasTable ofWeights(double[] weights) {
        checkNotNull(weights, "weights");
        if (weights.length == 0) {
            throw new IllegalArgumentException("weights.length=0 (expected > 0)");
        }
        double max = 0;
        for (int i = 0; i < weights.length; i++) {
            double w = weights[i];
            if (!(w >= 0) || w == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("weights[" + i + "]=" + w + " (expected a finite value >= 0)");
            }
            max = Math.max(max, w);
        }
        if (max == 0) {
            throw new IllegalArgumentException("weights=all " + weights.length + " zero (expected a weight > 0)");
        }
        double[] probability = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            probability[i] = weights[i] / max;
            sum += probability[i];
        }
        for (int i = 0; i < probability.length; i++) {
            probability[i] /= sum;
        }
        return new AliasTable(probability);
    }

    /**
     * The unigram distribution raised to {@code power}: key {@code i} with probability
     * proportional to {@code counts[i]^power}, and 0 if {@code counts[i] == 0}. word2vec draws its
     * negative samples with {@code power = 0.75} (Mikolov, Sutskever, Chen, Corrado, Dean,
     * "Distributed Representations of Words and Phrases and their Compositionality", NIPS 2013).
     * The powers are taken relative to the largest, {@code exp(power * (ln c - ln cmax))}, so that
     * they do not overflow.
     *
     * @throws IllegalArgumentException if {@code counts} is empty, a count is negative, no count is
     *                                  positive, or {@code power} is not finite
     */
    public static AliasTable unigram(long[] counts, double power) {
        checkNotNull(counts, "counts");
        if (!Double.isFinite(power)) {
            throw new IllegalArgumentException("power=" + power + " (expected a finite value)");
        }
        if (counts.length == 0) {
            throw new IllegalArgumentException("counts.length=0 (expected > 0)");
        }
        double maxLog = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException("counts[" + i + "]=" + counts[i] + " (expected >= 0)");
            }
            if (counts[i] > 0) {
                maxLog = Math.max(maxLog, power * Math.log(counts[i]));
            }
        }
        if (maxLog == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("counts=all " + counts.length + " zero (expected a count > 0)");
        }
        double[] weights = new double[counts.length];
        for (int i = 0; i < counts.length; i++) {
            weights[i] = counts[i] == 0 ? 0 : Math.exp(power * Math.log(counts[i]) - maxLog);
        }
        return ofWeights(weights);
    }

    @Override
    public long draw(SplittableRandom random) {
        int column = random.nextInt(threshold.length);
        return random.nextDouble() < threshold[column] ? column : alias[column];
    }

    @Override
    public double probability(long key) {
        return key >= 0 && key < probability.length ? probability[(int) key] : 0;
    }

    @Override
    public long size() {
        return size;
    }

    /** The number of keys, {@code n}: the rows {@code 0..n-1}, with zero-probability ones. */
    public int keys() {
        return probability.length;
    }

    // Package-private: the tests compute the probabilities the tables imply from these.
    double threshold(int column) {
        return threshold[column];
    }

    int alias(int column) {
        return alias[column];
    }
}
