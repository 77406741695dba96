package io.adaps.util;

/**
 * Stateless SplitMix64 mixing (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014).
 *
 * <p>Initializers derive each component of each key from {@code (seed, key, component)} with it,
 * so that a parameter's initial value depends on nothing else: not on which node initializes it,
 * nor in which order.
 */
public final class SplitMix {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private SplitMix() {
    }

    /** The SplitMix64 finalizer: a bijective, well-mixed function of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A well-mixed 64-bit value for the tuple {@code (seed, a, b)}. */
    public static long hash(long seed, long a, long b) {
        return mix(mix(mix(seed + GOLDEN_GAMMA) + a * GOLDEN_GAMMA) + b);
    }

    /** A uniform double in {@code [0, 1)} from the high 53 bits of {@code bits}. */
    public static double unitDouble(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }
}
