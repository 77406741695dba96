package io.adaps.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.adaps.util.Checks;

/**
 * The one way tests wait for something that nobody signals (a failure detected, a row moved, a
 * thread ended): poll with a short back-off, and fail with an {@link AssertionError} that names
 * what was awaited and for how long, instead of hanging or sleeping a fixed time that is too short
 * on a loaded machine and too long everywhere else.
 *
 * <p>The condition is checked at once, then after sleeps of 1 ms doubling up to
 * {@value #MAX_PAUSE_MILLIS} ms. Anything the condition throws ends the wait at once.
 */
public final class Await {
    private static final long MAX_PAUSE_MILLIS = 20;

    private Await() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @throws AssertionError if it does not within {@code timeout}, naming {@code what}
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        poll(what, timeout, condition::getAsBoolean, Boolean::booleanValue, false);
    }

    /**
     * Returns the first value of {@code value} that {@code accepted} accepts.
     *
     * @throws AssertionError if none does within {@code timeout}, naming {@code what} and the last value
     */
    public static <T> T until(String what, Duration timeout, Supplier<? extends T> value, Predicate<? super T> accepted)
            throws InterruptedException {
        return poll(what, timeout, value, accepted, true);
    }

    private static <T> T poll(String what, Duration timeout, Supplier<? extends T> value, Predicate<? super T> accepted,
                              boolean reportLast) throws InterruptedException {
        Checks.checkNotNull(what, "what");
        Checks.checkNotNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout=" + timeout + " (expected > 0)");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 1;
        while (true) {
            T last = value.get();
            if (accepted.test(last)) {
                return last;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(what + ": not within " + describe(timeout)
                        + (reportLast ? "; the last value was " + last : ""));
            }
            Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
            pause = Math.min(2 * pause, MAX_PAUSE_MILLIS);
        }
    }

    private static String describe(Duration timeout) {
        return timeout.toMillis() % 1_000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }
}
