package io.adaps.examples.mf;

/**
 * Argument checks that {@link io.adaps.util.Checks} lacks, with its {@code name=value (expected ...)}
 * messages.
 */
final class ExampleChecks {
    private ExampleChecks() {
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    static double checkNonNegativeFinite(double value, String name) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is finite and zero or more, else throws naming {@code name}. */
    static float checkNonNegativeFinite(float value, String name) {
        if (!(value >= 0) || Float.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a finite value >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is in {@code (0, 1)}, else throws naming {@code name}. */
    static double checkOpenFraction(double value, String name) {
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a value in (0, 1))");
        }
        return value;
    }
}
