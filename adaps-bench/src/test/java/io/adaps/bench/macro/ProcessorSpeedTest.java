package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessorSpeedTest {
    @Test
    void theChaseVisitsEverySlotInOneCycle() {
        for (long seed = 1; seed <= 8; seed++) {
            int slots = 1 + (int) (seed * 977 % 5000);
            int[] next = ProcessorSpeed.cycle(slots, seed);
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
        double nanos = ProcessorSpeed.nanosPerLoad(ProcessorSpeed.cycle(1 << 16, 3), 100_000, 2);
        assertThat(nanos).isPositive().isFinite();
    }

    @Test
    void anArithmeticStepTakesSomeTime() {
        assertThat(ProcessorSpeed.nanosPerStep(1_000_000, 2)).isPositive().isFinite();
    }

    @Test
    void eachProcessorIsMeasuredInAPinnedJvmOfItsOwn() throws InterruptedException {
        ProcessorSpeed.Measured[] measured = ProcessorSpeed.perProcessor(1);
        assertThat(measured).hasSize(1);
        assertThat(measured[0].loadNanos()).isPositive().isFinite();
        assertThat(measured[0].stepNanos()).isPositive().isFinite();
    }

    @Test
    void figuresAreDescribedProcessorZeroFirstAndFailedProbesAsAQuestionMark() {
        assertThat(ProcessorSpeed.describe(new ProcessorSpeed.Measured[] {new ProcessorSpeed.Measured(76.4, 0.812),
                new ProcessorSpeed.Measured(268.5, 1.5)})).isEqualTo("loads 76 / 269 ns, arithmetic steps 0.81 / 1.50 ns");
        assertThat(ProcessorSpeed.describe(new ProcessorSpeed.Measured[] {new ProcessorSpeed.Measured(80, 0.8),
                ProcessorSpeed.Measured.UNKNOWN})).isEqualTo("loads 80 / ? ns, arithmetic steps 0.80 / ? ns");
    }
}
