package io.adaps.api;

import java.util.SplittableRandom;

/**
 * The uniform distribution over the rows {@code [from, to)}: each with probability
 * {@code 1 / (to - from)}.
 *
 * @param from the first row, {@code >= 0}
 * @param to   one past the last row, {@code > from}
 */
public record UniformKeys(long from, long to) implements KeyDistribution {
    /**
     * @throws IllegalArgumentException if {@code from < 0} or {@code to <= from}
     */
    public UniformKeys {
        if (from < 0) {
            throw new IllegalArgumentException("from=" + from + " (expected >= 0)");
        }
        if (to <= from) {
            throw new IllegalArgumentException("from=" + from + ", to=" + to + " (expected from < to)");
        }
    }

    @Override
    public long draw(SplittableRandom random) {
        return random.nextLong(from, to);
    }

    @Override
    public double probability(long key) {
        return key >= from && key < to ? 1.0 / (to - from) : 0;
    }

    @Override
    public long size() {
        return to - from;
    }
}
