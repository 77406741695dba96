package io.adaps.examples.mf;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Argument checks that {@link io.adaps.util.Checks} lacks, with its {@code name=value (expected ...)}
 * messages, shared by the examples' commands.
 */
public final class ExampleChecks {
    private ExampleChecks() {
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    public static double checkNonNegativeFinite(double value, String name) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    public static float checkNonNegativeFinite(float value, String name) {
        if (!(value >= 0) || Float.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value >= 0)");
        }
        return value;
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

    /** Returns {@code value} if it is in {@code (0, 1)}, else throws naming {@code name}. */
    public static double checkOpenFraction(double value, String name) {
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a value in (0, 1))");
        }
        return value;
    }
}
