package io.adaps.examples;

/**
 * Seeds derived from one seed, so that every random stream of an example (data, split, model,
 * schedule) repeats from the command line's {@code --seed} and the streams are independent:
 * SplitMix64's finalizer (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014) applied to the seed and the stream's numbers.
 */
public final class Seeds {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Seeds() {
    }

    /** A well-mixed seed for stream {@code (a, b)} of {@code seed}. */
    public static long derive(long seed, long a, long b) {
        return mix(mix(mix(seed + GOLDEN_GAMMA) + a * GOLDEN_GAMMA) + b);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
