package io.adaps.util;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * The one way this node's threads wait for a condition: a deadline on an injectable clock and an
 * Agrona {@link IdleStrategy} that backs off from spinning to yielding to parking. The caller
 * keeps the loop, so that it can check its own conditions (a peer that failed, a node that
 * closed) between idles, and nothing is allocated per wait:
 * <pre>{@code
 *   wait.start(timeoutNanos);
 *   while (!done()) {
 *       if (!wait.idle()) {
 *           throw timedOut();
 *       }
 *   }
 * }</pre>
 * Not thread-safe: each waiting thread has its own.
 */
public final class BoundedWait {
    private final NanoClock clock;
    private final IdleStrategy idle;
    private long deadline;

    /** A wait that idles with {@code idle} and measures time with {@code clock}. */
    public BoundedWait(NanoClock clock, IdleStrategy idle) {
        this.clock = Checks.checkNotNull(clock, "clock");
        this.idle = Checks.checkNotNull(idle, "idle");
    }

    /**
     * For answers whose arrival unparks the waiter: a short spin and a few yields (an answer on
     * loopback comes within tens of microseconds, and waking a parked thread costs more), then
     * parks of up to 20 ms, which the answer ends early.
     */
    public static BoundedWait forWakeUps(NanoClock clock) {
        return new BoundedWait(clock, new BackoffIdleStrategy(100, 50, TimeUnit.MILLISECONDS.toNanos(20),
                TimeUnit.MILLISECONDS.toNanos(20)));
    }

    /**
     * For conditions that nobody signals (a replica's first value, a synchronization round, room
     * in a queue): parks from 10 us, doubling up to 1 ms, so a short wait ends quickly and a long
     * one costs little.
     */
    public static BoundedWait forPolling(NanoClock clock) {
        return new BoundedWait(clock, new BackoffIdleStrategy(10, 5, TimeUnit.MICROSECONDS.toNanos(10),
                TimeUnit.MILLISECONDS.toNanos(1)));
    }

    /** Starts a wait of at most {@code timeoutNanos} from now. */
    public BoundedWait start(long timeoutNanos) {
        deadline = clock.nanoTime() + timeoutNanos;
        idle.reset();
        return this;
    }

    /** Idles once; {@code false}, without idling, once the deadline has passed. */
    public boolean idle() {
        if (clock.nanoTime() - deadline >= 0) {
            return false;
        }
        idle.idle();
        return true;
    }

    /** Nanoseconds left until the deadline (negative once it passed). */
    public long remainingNanos() {
        return deadline - clock.nanoTime();
    }
}
