package io.adaps.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Draws the values of one case of a {@link Property}; everything comes from one seeded
 * {@link SplittableRandom}, so the seed and the size determine the case.
 *
 * <p>Integers favour the interesting values: an eighth of the draws is an edge of the range (a
 * bound, or 0 inside it) and three eighths lie near 0 (or the bound nearest it), less than 2^b away
 * for b uniform over the range's bit lengths, so small values and short collections are common even
 * in wide ranges; the rest is uniform over the range.
 *
 * <p>The size caps every {@link #sized} length, so every collection, never below the minimum a
 * generator asks for. A smaller size cuts each collection of the case to a prefix and leaves the
 * other draws as they were (unless they depend on what was cut): collections draw their elements
 * from a random stream split off for them, so cutting them shifts no later draw.
 */
public final class Gen {
    /** The size of a case as generated: no length is capped. */
    static final int UNBOUNDED = Integer.MAX_VALUE;

    private final SplittableRandom random;
    private final int size;
    /** The gen a case started from; it tracks the lengths asked for by the whole case. */
    private final Gen root;
    private int largestLength;

    Gen(long seed, int size) {
        this.random = new SplittableRandom(seed);
        this.size = size;
        this.root = this;
    }

    private Gen(SplittableRandom random, Gen root) {
        this.random = random;
        this.size = root.size;
        this.root = root;
    }

    /** The longest length this case asked for, uncapped: the size from which shrinking starts. */
    int largestLength() {
        return largestLength;
    }

    /** A long in {@code [lo, hi]}. */
    public long longIn(long lo, long hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("empty range [" + lo + ", " + hi + "]");
        }
        long target = Math.max(lo, Math.min(hi, 0));
        switch (random.nextInt(8)) {
            case 0 -> {
                int edge = random.nextInt(target == lo || target == hi ? 2 : 3);
                return edge == 0 ? lo : edge == 1 ? hi : target;
            }
            case 1, 2, 3 -> {
                // Distances are unsigned: from 0 down to Long.MIN_VALUE is 2^63.
                boolean up = target == lo || (target != hi && random.nextBoolean());
                return up ? target + small(hi - target) : target - small(target - lo);
            }
            default -> {
                long span = hi - lo;
                if (span >= 0 && span < Long.MAX_VALUE) {
                    return lo + random.nextLong(span + 1);
                }
                long offset;
                do {
                    offset = random.nextLong();
                } while (Long.compareUnsigned(offset, span) > 0);
                return lo + offset;
            }
        }
    }

    /** At most {@code bound} (unsigned): uniform below 2^b, b uniform from 1 to {@code bound}'s bit length. */
    private long small(long bound) {
        if (bound == 0) {
            return 0;
        }
        int bits = 1 + random.nextInt(64 - Long.numberOfLeadingZeros(bound));
        long value = random.nextLong() >>> (64 - bits);
        return Long.compareUnsigned(value, bound) <= 0 ? value : Long.remainderUnsigned(value, bound + 1);
    }

    /** An int in {@code [lo, hi]}. */
    public int intIn(int lo, int hi) {
        return (int) longIn(lo, hi);
    }

    /** Any int. */
    public int ints() {
        return intIn(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** Any long. */
    public long longs() {
        return longIn(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public boolean booleans() {
        return random.nextBoolean();
    }

    /** A double in {@code [lo, hi]}: an eighth of the draws an edge (a bound, or 0 inside), else uniform. */
    public double doubleIn(double lo, double hi) {
        if (random.nextInt(8) == 0) {
            double[] edges = {lo, hi, Math.max(lo, Math.min(hi, 0))};
            return edges[random.nextInt(edges.length)];
        }
        return Math.min(hi, lo + random.nextDouble() * (hi - lo));
    }

    /** One of the enum's constants, uniformly. */
    public <E extends Enum<E>> E choose(Class<E> type) {
        E[] constants = type.getEnumConstants();
        return constants[random.nextInt(constants.length)];
    }

    /** An index into {@code weights}, drawn with probability proportional to its weight. */
    public int weightedIndex(int... weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int pick = random.nextInt(total);
        int index = 0;
        while (pick >= weights[index]) {
            pick -= weights[index++];
        }
        return index;
    }

    /**
     * {@code n} capped at the case's size: the number of elements or steps of anything that
     * shrinking may cut to a prefix.
     */
    public int sized(int n) {
        root.largestLength = Math.max(root.largestLength, n);
        return Math.min(n, size);
    }

    /** A collection length in {@code [min, max]}, {@link #sized}. */
    private int length(int min, int max) {
        return Math.max(min, sized(intIn(min, max)));
    }

    /** A list of {@code min} to {@code max} elements ({@link #sized}), each drawn by {@code element}. */
    public <T> List<T> list(int min, int max, Function<Gen, T> element) {
        int length = length(min, max);
        Gen elements = split();
        List<T> list = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            list.add(element.apply(elements));
        }
        return list;
    }

    /** {@code min} to {@code max} random bytes ({@link #sized}). */
    public byte[] bytes(int min, int max) {
        byte[] bytes = new byte[length(min, max)];
        split().random.nextBytes(bytes);
        return bytes;
    }

    private Gen split() {
        return new Gen(random.split(), root);
    }
}
