package io.adaps.context;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies recorded by any thread without locks (an HdrHistogram {@link Recorder}), read as the
 * total since the start: each read folds the interval recorded since the last one into a total
 * histogram. {@value #DIGITS} significant digits.
 *
 * <p>A read hands the interval histogram it took back to the recorder at the next read, which
 * records into it again: a histogram grows its counts array once to the largest latency it has
 * seen, and a fresh one per read made the transport thread, which records every round trip,
 * allocate and zero that much after each metrics read.
 *
 * <p>Why {@value #DIGITS} digits: every read walks the counts arrays (the recycled interval's
 * reset, the fold, the quantiles), and a node reads one recorder per peer and per kind of request
 * whenever its metrics are read, which the examples do around every epoch and a monitoring agent
 * may do every few seconds. With 3 digits a histogram up to 250 ms holds 156 KB of counts, and 7
 * recorders' read took 2.9 ms once compiled (72 ms the first time, interpreted); with 2, 23 KB and
 * 0.43 ms (44 ms). The quantiles are then within 1% of the recorded latencies, which is finer than
 * a round trip's run-to-run spread.
 */
final class LatencyRecorder {
    /** Significant decimal digits of the recorded latencies. */
    static final int DIGITS = 2;

    private final Recorder interval = new Recorder(DIGITS);
    private final Histogram total = new Histogram(DIGITS);
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
