package io.adaps.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    @Test
    void readsBetweenRecordingsAddUpToEverythingRecordedOnce() {
        LatencyRecorder recorder = new LatencyRecorder();
        SplittableRandom random = new SplittableRandom(7);
        long count = 0;
        long max = 0;
        // Reads recycle the interval histograms; values far apart make them grow in between.
        for (int read = 0; read < 20; read++) {
            int values = random.nextInt(1, 200);
            for (int i = 0; i < values; i++) {
                long nanos = random.nextLong(1, read % 2 == 0 ? 1_000 : 5_000_000_000L);
                recorder.record(nanos);
                max = Math.max(max, nanos);
            }
            count += values;
            LatencyRecorder.Snapshot total = recorder.total();
            assertThat(total.count()).as("read %d", read).isEqualTo(count);
            assertThat(total.maxMicros()).as("read %d", read).isCloseTo(max / 1e3, within(max / 1e3 * 1e-2));
        }
        assertThat(recorder.total().count()).as("a read with nothing new").isEqualTo(count);
    }

    @Test
    void quantilesAreWithinOnePercentOfTheRecordedLatencies() {
        LatencyRecorder recorder = new LatencyRecorder();
        // 1 us to 10 ms in steps of 1 us: the median is 5,000 us, the 99th percentile 9,900 us.
        for (long micros = 1; micros <= 10_000; micros++) {
            recorder.record(micros * 1_000);
        }
        LatencyRecorder.Snapshot total = recorder.total();
        assertThat(total.p50Micros()).isCloseTo(5_000, within(50.0));
        assertThat(total.p99Micros()).isCloseTo(9_900, within(99.0));
        assertThat(total.maxMicros()).isCloseTo(10_000, within(100.0));
        assertThat(total.meanMicros()).isCloseTo(5_000.5, within(50.0));
    }

    @Test
    void aNegativeLatencyCountsAsZero() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.record(-5);
        assertThat(recorder.total()).isEqualTo(new LatencyRecorder.Snapshot(1, 0, 0, 0, 0));
    }
}
