package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Property;

/** The window is two high-quantile rounds' worth of the fastest worker's clocks. */
class ActionWindowTest {
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void isOneClockBeforeAnyData() {
        ActionWindow window = new ActionWindow(2);
        assertThat(window.clocks()).isEqualTo(ActionWindow.MIN_CLOCKS).isEqualTo(1);
        assertThat(window.clocksPerSecond()).isZero();
        assertThat(window.roundQuantileMillis()).isZero();

        window.onClock(0, new long[] {0, 0}); // a baseline only
        window.onRound(5 * MS);
        assertThat(window.clocks()).isEqualTo(1);
        assertThat(window.roundQuantileMillis()).isEqualTo(5.0);
    }

    @Test
    void coversTwoRoundsOfTheWorkersClocks() {
        ActionWindow window = new ActionWindow(1);
        window.onClock(0, new long[] {0});
        window.onClock(SECOND, new long[] {1000});
        assertThat(window.clocksPerSecond()).isCloseTo(1000, within(1e-9));
        assertThat(window.clocks()).isEqualTo(1); // no round yet

        window.onRound(MS);
        assertThat(window.clocks()).isEqualTo(2); // 1000/s * 1 ms * 2
        window.onRound(5 * MS);
        window.onRound(5 * MS);
        assertThat(window.roundQuantileMillis()).isEqualTo(5.0);
        assertThat(window.clocks()).isEqualTo(10);
        window.onRound(5 * MS + 1); // a nanosecond more needs a part of a clock more
        window.onRound(5 * MS + 1);
        assertThat(window.clocks()).isEqualTo(11);
    }

    @Test
    void followsTheFastestWorker() {
        ActionWindow window = new ActionWindow(3);
        window.onClock(0, new long[] {0, 0, 0});
        for (int s = 1; s <= 5; s++) {
            window.onClock(s * SECOND, new long[] {100L * s, 400L * s, 0});
        }
        assertThat(window.clocksPerSecond()).isCloseTo(400, within(1e-6));
        window.onRound(10 * MS);
        assertThat(window.clocks()).isEqualTo(8); // 400/s * 10 ms * 2
    }

    @Test
    void aSteadyRateIsExactWhateverTheIntervals() {
        ActionWindow window = new ActionWindow(1);
        long time = 0;
        long clock = 0;
        window.onClock(time, new long[] {clock});
        long[] intervals = {2 * MS, 250 * MS, 4 * MS, 2 * SECOND, 10 * MS, 40 * MS};
        for (int i = 0; i < 100; i++) {
            long dt = intervals[i % intervals.length];
            time += dt;
            clock += dt / (2 * MS); // 500 clocks per second
            window.onClock(time, new long[] {clock});
            assertThat(window.clocksPerSecond()).isCloseTo(500, within(1e-6));
        }
    }

    @Test
    void forgetsAnOldRateWithinSeconds() {
        ActionWindow window = new ActionWindow(1);
        long clock = 0;
        window.onClock(0, new long[] {0});
        for (int t = 1; t <= 100; t++) { // 10 s at 10 clocks per 100 ms
            clock += 10;
            window.onClock(t * 100 * MS, new long[] {clock});
        }
        assertThat(window.clocksPerSecond()).isCloseTo(100, within(1e-6));
        for (int t = 101; t <= 200; t++) { // 10 s at 1000 per second
            clock += 100;
            window.onClock(t * 100 * MS, new long[] {clock});
        }
        // After ten time constants the old rate weighs e^-10 of the time.
        assertThat(window.clocksPerSecond()).isCloseTo(1000, within(1.0));
    }

    @Test
    void theQuantileIsANearestRankOverTheLastSamplesOnly() {
        ActionWindow window = new ActionWindow(1);
        for (int i = 1; i <= 10; i++) {
            window.onRound(i * MS);
        }
        assertThat(window.roundQuantileMillis()).isEqualTo(9.0); // rank ceil(0.9 * 10) = 9
        for (int i = 11; i <= ActionWindow.ROUND_SAMPLES; i++) {
            window.onRound(i * MS);
        }
        assertThat(window.roundQuantileMillis()).isEqualTo(58.0); // rank ceil(0.9 * 64) = 58

        ActionWindow recent = new ActionWindow(1);
        for (int i = 0; i < ActionWindow.ROUND_SAMPLES; i++) {
            recent.onRound(1000 * MS);
        }
        for (int i = 0; i < 57; i++) {
            recent.onRound(MS);
        }
        // 57 fast rounds and 7 slow ones remain: rank 58 is slow.
        assertThat(recent.roundQuantileMillis()).isEqualTo(1000.0);
        recent.onRound(MS);
        // The 65th sample back is gone: 58 fast rounds, rank 58 is fast.
        assertThat(recent.roundQuantileMillis()).isEqualTo(1.0);
    }

    @Test
    void theQuantileIsTheNearestRankOfTheLastSamplesSortedAnew() {
        // Samples from a few values (many ties) or from all of them, in runs longer than the window.
        Property.forAll(300, gen -> gen.list(1, 4 * ActionWindow.ROUND_SAMPLES,
                g -> g.booleans() ? g.longIn(0, 3) : g.longIn(0, Long.MAX_VALUE)), samples -> {
            ActionWindow window = new ActionWindow(1);
            for (int i = 0; i < samples.size(); i++) {
                window.onRound(samples.get(i));
                long[] last = samples.subList(Math.max(0, i + 1 - ActionWindow.ROUND_SAMPLES), i + 1).stream()
                        .mapToLong(Long::longValue).sorted().toArray();
                long expected = last[(int) Math.ceil(ActionWindow.ROUND_QUANTILE * last.length) - 1];
                assertThat(window.roundQuantileMillis()).as("after sample %d", i).isEqualTo(expected / 1e6);
            }
        });
    }

    @Test
    void isClampedToTheLargestWindow() {
        ActionWindow window = new ActionWindow(1);
        window.onClock(0, new long[] {0});
        window.onClock(1, new long[] {Long.MAX_VALUE / 2});
        window.onRound(Long.MAX_VALUE);
        assertThat(window.clocks()).isEqualTo(ActionWindow.MAX_CLOCKS);
    }

    @Test
    void refusesInvalidObservations() {
        assertThatThrownBy(() -> new ActionWindow(0)).hasMessage("workers=0 (expected > 0)");
        ActionWindow window = new ActionWindow(2);
        assertThatThrownBy(() -> window.onClock(0, new long[] {0}))
                .hasMessage("workerClocks.length=1 (expected workers=2)");
        window.onClock(100, new long[] {5, 5});
        assertThatThrownBy(() -> window.onClock(99, new long[] {5, 5}))
                .hasMessage("nanoTime=99 (expected >= the previous 100)");
        assertThatThrownBy(() -> window.onClock(200, new long[] {4, 5}))
                .hasMessage("workerClocks[0]=4 (expected >= the previous clock 5)");
        assertThatThrownBy(() -> window.onRound(-1)).hasMessage("roundNanos=-1 (expected >= 0)");
        window.onClock(100, new long[] {5, 6}); // no time passed: counted, no rate yet
        assertThat(window.clocksPerSecond()).isZero();
        window.onClock(100 + SECOND, new long[] {5, 10});
        // 4 clocks in the last second, plus the one of no time, decayed by a time constant.
        assertThat(window.clocksPerSecond()).isCloseTo(4 + Math.exp(-1), within(1e-9));
    }
}
