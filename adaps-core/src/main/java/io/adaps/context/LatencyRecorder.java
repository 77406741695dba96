package io.adaps.context;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies recorded by any thread without locks (an HdrHistogram {@link Recorder}), read as the
 * total since the start: each read folds the interval recorded since the last one into a total
 * histogram. Three significant digits.
 */
final class LatencyRecorder {
    private final Recorder interval = new Recorder(3);
    private final Histogram total = new Histogram(3);

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
            total.add(interval.getIntervalHistogram());
            return new Snapshot(total.getTotalCount(), total.getValueAtPercentile(50) / 1e3,
                    total.getValueAtPercentile(99) / 1e3, total.getMaxValue() / 1e3, total.getMean() / 1e3);
        }
    }
}
