package io.adaps.examples;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The examples' argument checks, with AdaPS's {@code name=value (expected ...)} messages: each
 * returns the value it accepts, so that a field is checked where it is assigned.
 */
public final class Checks {
    private Checks() {
    }

    /** Returns {@code value} if it is not null, else throws a {@link NullPointerException} naming it. */
    public static <T> T checkNotNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name + "=null (expected a value)");
        }
        return value;
    }

    /** Returns {@code value} if it is positive, else throws naming {@code name}. */
    public static int checkPositive(int value, String name) {
        return value > 0 ? value : (int) refuse(name, value, "> 0");
    }

    /** Returns {@code value} if it is positive, else throws naming {@code name}. */
    public static long checkPositive(long value, String name) {
        return value > 0 ? value : (long) refuse(name, value, "> 0");
    }

    /** Returns {@code value} if it is zero or more, else throws naming {@code name}. */
    public static long checkNonNegative(long value, String name) {
        return value >= 0 ? value : (long) refuse(name, value, ">= 0");
    }

    /** Returns {@code value} if it is finite and positive, else throws naming {@code name}. */
    public static float checkPositiveFinite(float value, String name) {
        return value > 0 && Float.isFinite(value) ? value : (float) refuse(name, value, "a finite value > 0");
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    public static double checkNonNegativeFinite(double value, String name) {
        return value >= 0 && Double.isFinite(value) ? value : refuse(name, value, "a finite value >= 0");
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    public static float checkNonNegativeFinite(float value, String name) {
        return value >= 0 && Float.isFinite(value) ? value : (float) refuse(name, value, "a finite value >= 0");
    }

    /** Returns {@code value} if it is in {@code (0, 1)}, else throws naming {@code name}. */
    public static double checkOpenFraction(double value, String name) {
        return value > 0 && value < 1 ? value : refuse(name, value, "a value in (0, 1)");
    }

    /**
     * The constant of {@code type} named exactly {@code value}, else throws naming {@code name} and
     * listing the constants, so that a constant added to the enum is accepted and listed at once.
     */
    public static <E extends Enum<E>> E checkOneOf(Class<E> type, String value, String name) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(value)) {
                return constant;
            }
        }
        throw new IllegalArgumentException(name + "=" + value + " (expected one of "
                + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")) + ")");
    }

    private static double refuse(String name, Object value, String expected) {
        throw new IllegalArgumentException(name + "=" + value + " (expected " + expected + ")");
    }
}
