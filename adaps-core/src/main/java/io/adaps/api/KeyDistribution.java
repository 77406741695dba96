package io.adaps.api;

import java.util.SplittableRandom;

/**
 * A probability distribution over the rows of one table, from which a sample draws its keys.
 *
 * <p>Implementations are immutable and so may be shared by threads; the random source is the
 * caller's, one per thread ({@link SplittableRandom} is not thread-safe, and {@link
 * SplittableRandom#split()} gives each thread its own independent stream). {@link
 * SplittableRandom} rather than a hand-rolled generator: it is SplitMix64 (Steele, Lea, Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014), already a few nanoseconds per
 * draw, and its bounded draws are unbiased.
 */
public interface KeyDistribution {
    /** Draws a key (a row, {@code >= 0}) with probability {@link #probability(long)}. */
    long draw(SplittableRandom random);

    /** The exact probability that {@link #draw} returns {@code key}; 0 for a key it never returns. */
    double probability(long key);

    /** The number of keys with a positive probability. */
    long size();
}
