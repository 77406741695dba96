package io.adaps.util;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.NanoClock;

/**
 * The one way this node's threads wait for a condition: a deadline on an injectable clock and a
 * back-off from spinning to yielding to parking. The caller keeps the loop, so that it can check
 * its own conditions (a peer that failed, a node that closed) between idles, and nothing is
 * allocated per wait:
 * <pre>{@code
 *   wait.start(timeoutNanos);
 *   while (!done()) {
 *       if (!wait.idle()) {
 *           throw timedOut();
 *       }
 *   }
 * }</pre>
 * The phases: {@code spins} busy spins ({@link Thread#onSpinWait()}), then yields for
 * {@code yieldNanos} after the start (bounded by a count too, so that a stopped test clock cannot
 * keep a thread yielding), then parks of {@code minParkNanos} doubling up to {@code maxParkNanos};
 * an unpark ends a park early. Not thread-safe: each waiting thread has its own.
 */
public final class BoundedWait {
    /** The most yields of one wait, whatever the clock says. */
    private static final int MAX_YIELDS = 1000;

    private final NanoClock clock;
    private final int spins;
    private final long yieldNanos;
    private final long minParkNanos;
    private final long maxParkNanos;
    private long start;
    private long deadline;
    private int spun;
    private int yields;
    private long park;

    /**
     * A wait with the given back-off, measuring time with {@code clock}.
     *
     * @throws IllegalArgumentException if a phase is negative or the parks are not 0 < min <= max
     */
    public BoundedWait(NanoClock clock, int spins, long yieldNanos, long minParkNanos, long maxParkNanos) {
        this.clock = Checks.checkNotNull(clock, "clock");
        this.spins = (int) Checks.checkNonNegative(spins, "spins");
        this.yieldNanos = Checks.checkNonNegative(yieldNanos, "yieldNanos");
        this.minParkNanos = Checks.checkPositive(minParkNanos, "minParkNanos");
        if (maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("maxParkNanos=" + maxParkNanos + " (expected >= minParkNanos="
                    + minParkNanos + ")");
        }
        this.maxParkNanos = maxParkNanos;
    }

    /**
     * For answers whose arrival unparks the waiter: a short spin, then yields for about a loopback
     * round trip (waking a parked thread costs more than that), then parks of up to 20 ms, which
     * the answer ends early.
     */
    public static BoundedWait forWakeUps(NanoClock clock) {
        return new BoundedWait(clock, 100, TimeUnit.MICROSECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(20),
                TimeUnit.MILLISECONDS.toNanos(20));
    }

    /**
     * For conditions that nobody signals (a replica's first value, a synchronization round, room
     * in a queue): parks from 10 us, doubling up to 1 ms, so a short wait ends quickly and a long
     * one costs little.
     */
    public static BoundedWait forPolling(NanoClock clock) {
        return new BoundedWait(clock, 10, 0, TimeUnit.MICROSECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(1));
    }

    /** Starts a wait of at most {@code timeoutNanos} from now. */
    public BoundedWait start(long timeoutNanos) {
        start = clock.nanoTime();
        deadline = start + timeoutNanos;
        spun = 0;
        yields = 0;
        park = minParkNanos;
        return this;
    }

    /** Idles once; {@code false}, without idling, once the deadline has passed. */
    public boolean idle() {
        if (spun < spins) {
            spun++;
            Thread.onSpinWait();
            return true;
        }
        long now = clock.nanoTime();
        if (now - deadline >= 0) {
            return false;
        }
        if (yields < MAX_YIELDS && now - start < yieldNanos) {
            yields++;
            Thread.yield();
            return true;
        }
        LockSupport.parkNanos(this, Math.min(park, deadline - now));
        park = Math.min(park * 2, maxParkNanos);
        return true;
    }

    /** Nanoseconds left until the deadline (negative once it passed). */
    public long remainingNanos() {
        return deadline - clock.nanoTime();
    }
}
