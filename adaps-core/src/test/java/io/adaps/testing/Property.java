package io.adaps.testing;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Property-based testing on plain JUnit: {@link #forAll} checks a property on cases drawn by a
 * generator from seeded {@link Gen}s.
 *
 * <p>Case seeds come from a fixed base seed, so every run tries the same cases. A failure is
 * reported with its case's seed, and the case is shrunk: the same seed is drawn again with every
 * length capped at a smaller size (halving while it fails, then bisecting to the boundary), and the
 * smallest failing size is reported with that case's {@code toString()} (a record holding arrays
 * should override it: records print arrays as hashes). The error's cause is the original failure;
 * the shrunk case's failure is attached as suppressed.
 *
 * <p>To replay a failure, run its test alone with the reported seed, e.g.
 * {@code ./mvnw -o -pl adaps-core test -Dtest=ReplicaProperties#replicasBehaveLikeTheReferenceModel
 * -Dadaps.seed=-4962768465676381896}; add {@code -Dadaps.size=3} to replay the shrunk case. While
 * {@code adaps.seed} is set, every property runs just that one case. {@code -Dadaps.tries=10}
 * multiplies every property's number of cases (fractions allowed, at least one case each).
 */
public final class Property {
    /** Any fixed value: it only has to stay the same from run to run. */
    private static final long BASE_SEED = 0xADA95L;
    private static final int LONGEST_DESCRIPTION = 2_000;

    private Property() {
    }

    /**
     * Checks {@code property} on {@code tries} cases drawn by {@code generator}, each from its own
     * seed; throws an {@link AssertionError} reporting the first failing case, shrunk. Call it from
     * the test method itself: the report names its caller as the test to replay.
     */
    public static <T> void forAll(int tries, Function<Gen, T> generator, ThrowingConsumer<T> property) {
        String replay = System.getProperty("adaps.seed");
        if (replay != null) {
            check(Long.parseLong(replay), Integer.getInteger("adaps.size", Gen.UNBOUNDED), "the replayed case",
                    generator, property);
            return;
        }
        double factor = Double.parseDouble(System.getProperty("adaps.tries", "1"));
        long cases = Math.max(1, Math.round(tries * factor));
        SplittableRandom seeds = new SplittableRandom(BASE_SEED);
        for (long i = 1; i <= cases; i++) {
            check(seeds.nextLong(), Gen.UNBOUNDED, "case " + i + " of " + cases, generator, property);
        }
    }

    private static <T> void check(long seed, int size, String which, Function<Gen, T> generator,
                                  ThrowingConsumer<T> property) {
        Gen gen = new Gen(seed, size);
        Throwable failure = attempt(gen, generator, property);
        if (failure == null) {
            return;
        }
        // Shrink: a smaller size caps every length; halve it while the case fails, then bisect
        // between the smallest failing and the largest passing size.
        int generated = Math.min(size, gen.largestLength());
        int failing = generated;
        int passing = -1;
        Throwable shrunkFailure = failure;
        while (failing > passing + 1) {
            int smaller = passing < 0 ? failing / 2 : (passing + failing) >>> 1;
            Throwable t = attempt(new Gen(seed, smaller), generator, property);
            if (t == null) {
                passing = smaller;
            } else {
                failing = smaller;
                shrunkFailure = t;
            }
        }
        String test = callingTest();
        String report = test + " failed on " + which + ", seed " + seed
                + "\nReplay: -Dtest=" + test + " -Dadaps.seed=" + seed;
        String generatedCase = describe(generator.apply(new Gen(seed, size)));
        if (generated == 0) {
            report += "\nThe case (no lengths to shrink): " + generatedCase;
        } else {
            report += "\nShrunk to size " + failing + " (every length capped at " + failing
                    + (passing >= 0 ? "; passes at " + passing : "") + "), replay adding -Dadaps.size=" + failing
                    + ":\n  " + describe(generator.apply(new Gen(seed, failing)))
                    + (failing < generated ? "\nAs generated: " + generatedCase : "");
        }
        AssertionError error = new AssertionError(report, failure);
        if (shrunkFailure != failure) {
            error.addSuppressed(shrunkFailure);
        }
        throw error;
    }

    private static <T> Throwable attempt(Gen gen, Function<Gen, T> generator, ThrowingConsumer<T> property) {
        try {
            property.accept(generator.apply(gen));
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** {@code Class#method} of the test that called {@link #forAll}, as Surefire's -Dtest takes it. */
    private static String callingTest() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(frame -> !frame.getClassName().equals(Property.class.getName()))
                .findFirst()
                .map(frame -> frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1)
                        + "#" + frame.getMethodName())
                .orElse("?"));
    }

    /** The case's {@code toString()}, arrays spelled out, cut to a readable length. */
    private static String describe(Object aCase) {
        String text = Arrays.deepToString(new Object[] {aCase});
        text = text.substring(1, text.length() - 1);
        return text.length() <= LONGEST_DESCRIPTION ? text
                : text.substring(0, LONGEST_DESCRIPTION) + "... (" + text.length() + " characters)";
    }
}
