package io.adaps.context;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies recorded by any thread without locks (an HdrHistogram {@link Recorder}), read as the
 * total since the start: each read folds the interval recorded since the last one into a total
 * histogram. Three significant digits.
 *
 * <p>A read hands the interval histogram it took back to the recorder at the next read, which
 * records into it again: a histogram grows its counts array once to the largest latency it has
 * seen (half a megabyte for nanoseconds up to seconds), and a fresh one per read made the transport
 * thread, which records every round trip, allocate and zero that much after each metrics read.
 */
final class LatencyRecorder {
    private final Recorder interval = new Recorder(3);
    private final Histogram total = new Histogram(3);
    /** The interval histogram of the last read, recorded into again after the next; guarded by {@link #total}. */
    private Histogram recycled;

    /** Records one latency of {@code nanos} (negative counts as 0). Any thread. */
    void record(long nanos) {
        interval.recordValue(Math.max(0, nanos));
    }

    /** What a snapshot holds, in microseconds. */
    record Snapshot(long count, double p50Micros, double p99Micros, double maxMicros, double meanMicros) {
    }

    /** The latencies recorded since the start. */
    Snapshot total() {
        synchronized (total) {
            Histogram sample = interval.getIntervalHistogram(recycled);
            total.add(sample);
            recycled = sample;
            return new Snapshot(total.getTotalCount(), total.getValueAtPercentile(50) / 1e3,
                    total.getValueAtPercentile(99) / 1e3, total.getMaxValue() / 1e3, total.getMean() / 1e3);
        }
    }
}
