package io.adaps.api;

import static io.adaps.util.Checks.checkFinite;

import java.util.Arrays;

import io.adaps.util.SplitMix;

/**
 * The built-in {@link Initializer}s. The seeded ones derive component {@code i} of row {@code r}
 * from a hash of {@code (seed, r, i)}: reproducible, independent of placement and order, and
 * free of shared random-number state.
 */
public final class Initializers {
    private static final Initializer ZEROS = new Zeros();

    private Initializers() {
    }

    /** Every component 0 (the default). */
    public static Initializer zeros() {
        return ZEROS;
    }

    /**
     * Components drawn uniformly from {@code [low, high)}.
     *
     * @throws IllegalArgumentException if a bound is not finite or {@code low > high}
     */
    public static Initializer uniform(float low, float high, long seed) {
        checkFinite(low, "low");
        checkFinite(high, "high");
        if (low > high) {
            throw new IllegalArgumentException("low=" + low + ", high=" + high + " (expected low <= high)");
        }
        return new Uniform(low, high, seed);
    }

    /**
     * Components drawn from a normal distribution (Box-Muller transform of two hashed uniforms).
     *
     * @throws IllegalArgumentException if {@code mean} is not finite or {@code stddev} is negative or not finite
     */
    public static Initializer normal(float mean, float stddev, long seed) {
        checkFinite(mean, "mean");
        if (!(stddev >= 0) || Float.isInfinite(stddev)) {
            throw new IllegalArgumentException("stddev=" + stddev + " (expected a finite value >= 0)");
        }
        return new Normal(mean, stddev, seed);
    }

    private record Zeros() implements Initializer {
        @Override
        public void initialize(long row, float[] dst, int offset, int length) {
            Arrays.fill(dst, offset, offset + length, 0f);
        }

        @Override
        public String descriptor() {
            return "zeros";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }

    private record Uniform(float low, float high, long seed) implements Initializer {
        @Override
        public void initialize(long row, float[] dst, int offset, int length) {
            double width = (double) high - low;
            for (int i = 0; i < length; i++) {
                dst[offset + i] = (float) (low + width * SplitMix.unitDouble(SplitMix.hash(seed, row, i)));
            }
        }

        @Override
        public String descriptor() {
            return "uniform(low=" + low + ", high=" + high + ", seed=" + seed + ")";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }

    private record Normal(float mean, float stddev, long seed) implements Initializer {
        @Override
        public void initialize(long row, float[] dst, int offset, int length) {
            for (int i = 0; i < length; i++) {
                double u1 = SplitMix.unitDouble(SplitMix.hash(seed, row, 2L * i));
                double u2 = SplitMix.unitDouble(SplitMix.hash(seed, row, 2L * i + 1));
                double z = Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
                dst[offset + i] = (float) (mean + stddev * z);
            }
        }

        @Override
        public String descriptor() {
            return "normal(mean=" + mean + ", stddev=" + stddev + ", seed=" + seed + ")";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }
}
