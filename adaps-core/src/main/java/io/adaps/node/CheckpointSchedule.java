package io.adaps.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.NanoClock;

/**
 * When periodic checkpoints are due ({@link io.adaps.api.AdaPS.Builder#checkpointEvery}): at the
 * first barrier after the period has passed since the last one (or the start), as node 0's clock
 * says; node 0 asks it while it releases the barrier and tells every node with the release. The
 * barrier is the cut: the application calls {@code barrier()} where its workers are between
 * operations, which is the checkpoint's contract too. Thread-safe (asked on transport threads).
 */
final class CheckpointSchedule {
    private final Path dir;
    private final long periodNanos;
    private final NanoClock clock;
    private final AtomicLong last;

    /** @param dir {@code null} for no periodic checkpoints */
    CheckpointSchedule(Path dir, Duration period, NanoClock clock) {
        this.dir = dir;
        this.periodNanos = period == null ? Long.MAX_VALUE : period.toNanos();
        this.clock = clock;
        this.last = new AtomicLong(clock.nanoTime());
    }

    /** The directory periodic checkpoints go to, or {@code null} if there are none. */
    Path dir() {
        return dir;
    }

    /** Whether a periodic checkpoint is due now; if so, the period starts again. */
    boolean takeIfDue() {
        if (dir == null) {
            return false;
        }
        long now = clock.nanoTime();
        long previous = last.get();
        return now - previous >= periodNanos && last.compareAndSet(previous, now);
    }
}
