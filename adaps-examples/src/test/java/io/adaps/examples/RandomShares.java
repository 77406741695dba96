package io.adaps.examples;

import java.util.SplittableRandom;

/** Shares of a cluster for property tests: what {@link SpeedShares} makes of random speeds. */
public final class RandomShares {
    private RandomShares() {
    }

    /**
     * Shares of {@code nodes} nodes: from even ones, moved by speeds up to 100 times apart (or left
     * even where they are close), so multiples of {@code 2^-20} summing to 1, none under the floor.
     */
    public static double[] of(SplittableRandom random, int nodes) {
        return SpeedShares.next(SpeedShares.even(nodes), random.longs(nodes, 1, 1000).toArray(),
                random.doubles(nodes, 0.1, 10).toArray());
    }
}
