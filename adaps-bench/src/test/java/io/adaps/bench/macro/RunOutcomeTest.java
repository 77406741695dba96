package io.adaps.bench.macro;

import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RunOutcomeTest {
    @Test
    void theMeanEpochTimeLeavesOutTheFirstEpochWhenThereAreMore() {
        assertThat(Runs.mf(2, 1, STATIC, 9, 2, 4).meanEpochSeconds()).hasValue(3.0);
        assertThat(Runs.mf(2, 1, STATIC, 9).meanEpochSeconds()).hasValue(9.0);
    }

    @Test
    void theMedianEpochTimeLeavesOutTheFirstEpochAndTakesTheMiddleTwosMeanForAnEvenCount() {
        assertThat(Runs.mf(2, 1, STATIC, 9, 5, 1, 2).medianEpochSeconds()).hasValue(2.0);
        assertThat(Runs.mf(2, 1, STATIC, 9, 5, 1, 2, 4).medianEpochSeconds()).hasValue(3.0);
        assertThat(Runs.mf(2, 1, STATIC, 9).medianEpochSeconds()).hasValue(9.0);
    }

    @Test
    void aSuccessfulRunReportsItsLastEpochsQuality() {
        RunOutcome run = Runs.mf(2, 1, STATIC, 9, 2, 4);
        assertThat(run.failure()).isNull();
        assertThat(run.diverged()).isFalse();
        assertThat(run.last().epoch()).isEqualTo(3);
        assertThat(run.quality()).isEqualTo(0.5 / 3);
    }

    @Test
    void aNanQualityIsADivergedRunNotAFailedOne() {
        RunOutcome run = new RunOutcome(new RunConfig(Workload.MF, 4, 1, STATIC, null), 1, 0, false, null,
                List.of(new EpochResult(1, 3, 1, 1, 1000, Map.of("rmse", Double.NaN))), List.of(), Double.NaN);
        assertThat(run.failure()).isNull();
        assertThat(run.diverged()).isTrue();
    }

    @Test
    void theTimedCpuOfANodeCoversTheEpochsOfTheMeanEpochTime() {
        NodeCpu warmUp = Runs.cpu(0, 1, 1, 9, 5, 1, 1, 1, 0, 0);
        NodeCpu steady = Runs.cpu(0, 2, 3, 6, 4, 1, 0.5, 0, 0, 0);
        NodeCpu other = Runs.cpu(1, 2, 3, 6, 3, 1, 1, 0, 0, 0);
        RunOutcome run = Runs.withCpu(Runs.mf(2, 1, STATIC, 9, 2, 4), warmUp, steady, other);
        assertThat(run.firstTimedEpoch()).isEqualTo(2);
        assertThat(run.timedCpu(0)).hasValue(steady);
        assertThat(run.timedCpu(1)).hasValue(other);
        assertThat(run.timedCpu(2)).isEmpty();
        RunOutcome oneEpoch = Runs.withCpu(Runs.mf(2, 1, STATIC, 9), warmUp);
        assertThat(oneEpoch.timedCpu(0)).as("a single epoch counts itself").hasValue(warmUp);
    }
}
