package io.adaps.util;

/**
 * Argument checks that fail with {@code name=value (expected ...)} messages.
 *
 * <p>Every public entry point validates with these before it changes anything, so a refused call
 * leaves no trace.
 */
public final class Checks {
    private Checks() {
    }

    /** Returns {@code value} if it is positive, else throws naming {@code name}. */
    public static long checkPositive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + "=" + value + " (expected > 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is positive, else throws naming {@code name}. */
    public static int checkPositive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + "=" + value + " (expected > 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is zero or more, else throws naming {@code name}. */
    public static long checkNonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + "=" + value + " (expected >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is finite and positive, else throws naming {@code name}. */
    public static float checkPositiveFinite(float value, String name) {
        if (!(value > 0) || Float.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value > 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is finite, else throws naming {@code name}. */
    public static float checkFinite(float value, String name) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value)");
        }
        return value;
    }

    /** Returns {@code value} if it is not null, else throws a {@link NullPointerException} naming it. */
    public static <T> T checkNotNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name + "=null (expected a value)");
        }
        return value;
    }

    /**
     * Checks that {@code [offset, offset + count)} lies within an array of {@code length}.
     *
     * @throws IllegalArgumentException naming the offset, count and length
     */
    public static void checkRange(int offset, int count, int length, String offsetName, String countName,
                                  String arrayName) {
        if (offset < 0 || count < 0 || offset > length - count) {
            throw rangeOutside(offset, count, length, offsetName, countName, arrayName);
        }
    }

    // Out of line, so that checkRange stays small enough to inline everywhere.
    private static IllegalArgumentException rangeOutside(int offset, int count, int length, String offsetName,
                                                         String countName, String arrayName) {
        return new IllegalArgumentException(offsetName + "=" + offset + ", " + countName + "=" + count
                + " (expected a range within " + arrayName + ".length=" + length + ")");
    }
}
