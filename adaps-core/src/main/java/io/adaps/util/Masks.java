package io.adaps.util;

/**
 * Comparisons as all-ones or all-zeros masks, and selections by them, computed without a branch.
 *
 * <p>Why: C2 compiles a branch that its profile has never seen taken as a trap, and the first time
 * it is taken the whole compiled method, with everything inlined into it, goes back to the
 * interpreter and is compiled again. On a cluster node, outcomes such as a replica falling behind
 * its bound or a slot's lock being busy first happen after the training loop has been compiled,
 * each at its own moment, and each such recompilation took the node's one core for 15-50 ms in
 * its first epochs. Selecting a result with these masks leaves no branch to trap, so the rare
 * outcome flows through the same test as a common one (Hacker's Delight, 2nd ed., 2-12 and 2-23).
 */
public final class Masks {
    private Masks() {
    }

    /** {@code -1L} (all ones) if {@code x < y} (signed, for any two values), else {@code 0L}. */
    public static long ifLess(long x, long y) {
        long difference = x - y;
        // The sign of x - y, flipped where the subtraction overflowed (x and y of opposite signs and
        // the difference's sign not x's).
        return (difference ^ ((x ^ y) & (difference ^ x))) >> 63;
    }

    /** {@code -1L} (all ones) if {@code x == y}, else {@code 0L}. */
    public static long ifEqual(long x, long y) {
        long difference = x ^ y;
        // difference | -difference has its sign bit set exactly when difference is not 0.
        return ~((difference | -difference) >> 63);
    }

    /** {@code -1} (all ones) if {@code x == y}, else {@code 0}. */
    public static int ifEqual(int x, int y) {
        int difference = x ^ y;
        return ~((difference | -difference) >> 31);
    }

    /** The lesser of {@code x} and {@code y}. */
    public static long min(long x, long y) {
        return y ^ ((x ^ y) & ifLess(x, y));
    }
}
