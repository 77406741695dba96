package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryLatencyTest {
    @Test
    void theChaseVisitsEverySlotInOneCycle() {
        for (long seed = 1; seed <= 8; seed++) {
            int slots = 1 + (int) (seed * 977 % 5000);
            int[] next = MemoryLatency.cycle(slots, seed);
            boolean[] seen = new boolean[slots];
            int at = 0;
            for (int step = 0; step < slots; step++) {
                assertThat(seen[at]).as("seed %d: slot %d visited twice", seed, at).isFalse();
                seen[at] = true;
                at = next[at];
            }
            assertThat(at).as("seed %d: back at the start after %d loads", seed, slots).isZero();
        }
    }

    @Test
    void aLoadTakesSomeTime() {
        double nanos = MemoryLatency.nanosPerLoad(MemoryLatency.cycle(1 << 16, 3), 100_000, 2);
        assertThat(nanos).isPositive().isFinite();
    }

    @Test
    void eachProcessorIsMeasuredInAPinnedJvmOfItsOwn() throws InterruptedException {
        double[] nanos = MemoryLatency.perProcessor(1);
        assertThat(nanos).hasSize(1);
        assertThat(nanos[0]).isPositive().isFinite();
    }

    @Test
    void latenciesAreDescribedProcessorZeroFirstAndFailedProbesAsAQuestionMark() {
        assertThat(MemoryLatency.describe(new double[] {76.4, 268.5})).isEqualTo("76 / 269 ns");
        assertThat(MemoryLatency.describe(new double[] {80, Double.NaN})).isEqualTo("80 / ? ns");
    }
}
