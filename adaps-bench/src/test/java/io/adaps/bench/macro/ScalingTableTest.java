package io.adaps.bench.macro;

import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.RELOCATION_ONLY;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * The scaling table's figures from synthetic runs ({@link Runs}): epoch e sends 3 e MiB in all
 * (so 3 MiB per epoch) and trains {@value Runs#ENTRIES} entries, so node 0 of N nodes sends
 * 3 N bytes per entry of its share.
 */
class ScalingTableTest {
    private static final String HEADER = "| configuration | mean epoch time (s) | speed-up over 1 node "
            + "| median epoch time (s) | speed-up by medians | first epoch over the mean | test RMSE after E "
            + "| vs. 1 node | MiB sent per epoch (node 0) | bytes sent per entry (node 0) | whole run (s), speed-up |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

    @Test
    void rowsCompareEveryNodeCountWithTheSingleNodeOnOneCore() {
        RunOutcome baseline = Runs.mf(1, 1, null, 9, 4, 4);
        RunOutcome worse = run(new RunConfig(Workload.MF, 4, 1, RELOCATION_ONLY, null), 3, 0.5 / 3 * 1.04);
        String table = table(baseline, List.of(baseline,
                Runs.mf(2, 1, STATIC, 9, 8, 8),
                Runs.mf(2, 1, ADAPTIVE, 9, 2, 2),
                Runs.mf(4, 1, ADAPTIVE, 9, 1, 1),
                worse));
        assertThat(table).isEqualTo(HEADER
                + "| 1 x 1, single node | 4.00 | 1.00x | 4.00 | 1.00x | 2.25x | 0.1667 | +0.0% | 3.0 | 3.0 | 19.0 (1.00x) |\n"
                + "| 2 x 1, STATIC | 8.00 | 0.50x | 8.00 | 0.50x | 1.13x | 0.1667 | +0.0% | 3.0 | 6.0 | 27.0 (0.70x) |\n"
                + "| 2 x 1, ADAPTIVE | 2.00 | 2.00x | 2.00 | 2.00x | 4.50x | 0.1667 | +0.0% | 3.0 | 6.0 | 15.0 (1.27x) |\n"
                + "| 4 x 1, ADAPTIVE | 1.00 | 4.00x | 1.00 | 4.00x | 9.00x | 0.1667 | +0.0% | 3.0 | 12.0 | 13.0 (1.46x) |\n"
                + "| 4 x 1, RELOCATION_ONLY | 2.00 | 2.00x | 2.00 | 2.00x | 1.50x | 0.1733 | +4.0% | 3.0 | 12.0 | 9.0 (2.11x) |\n");
    }

    @Test
    void aSingleEpochCountsItselfFromTheStart() {
        RunOutcome baseline = Runs.mf(1, 1, null, 6);
        assertThat(table(baseline, List.of(baseline, Runs.mf(2, 1, STATIC, 2)))).isEqualTo(HEADER
                + "| 1 x 1, single node | 6.00 | 1.00x | 6.00 | 1.00x | – | 0.5000 | +0.0% | 3.0 | 3.0 | 8.0 (1.00x) |\n"
                + "| 2 x 1, STATIC | 2.00 | 3.00x | 2.00 | 3.00x | – | 0.5000 | +0.0% | 3.0 | 6.0 | 4.0 (2.00x) |\n");
    }

    @Test
    void theMedianLeavesOutTheWarmUpOfTheFirstTimedEpochsThatTheMeanCounts() {
        RunOutcome baseline = Runs.mf(1, 1, null, 9, 4, 4, 4);
        assertThat(table(baseline, List.of(baseline, Runs.mf(2, 1, ADAPTIVE, 9, 4, 1, 1)))).endsWith(
                "| 2 x 1, ADAPTIVE | 2.00 | 2.00x | 1.00 | 4.00x | 4.50x | 0.1250 | +0.0% | 3.0 | 6.0 | 17.0 (1.35x) |\n");
    }

    @Test
    void failedAndDivergedRunsAndAFailedBaselineLeaveDashes() {
        RunOutcome failedBaseline = new RunOutcome(new RunConfig(Workload.MF, 1, 1, null, null), 3, 1, false, null,
                List.of(), List.of(), Double.NaN);
        RunOutcome diverged = run(new RunConfig(Workload.MF, 2, 1, STATIC, null), 3, Double.NaN);
        RunOutcome timedOut = new RunOutcome(new RunConfig(Workload.MF, 2, 1, ADAPTIVE, null), 3, -1, true, null,
                List.of(), List.of(), Double.NaN);
        assertThat(table(failedBaseline, List.of(failedBaseline, diverged, timedOut))).isEqualTo(HEADER
                + "| 1 x 1, single node | failed (exit code 1) | – | – | – | – | – | – | – | – | – |\n"
                + "| 2 x 1, STATIC | 2.00 | – | 2.00 | – | 1.50x | diverged (NaN) | – | 3.0 | 6.0 | 9.0 |\n"
                + "| 2 x 1, ADAPTIVE | failed (timed out) | – | – | – | – | – | – | – | – | – |\n");
        RunOutcome baseline = Runs.mf(1, 1, null, 9, 4, 4);
        assertThat(table(baseline, List.of(baseline, diverged))).endsWith(
                "| 2 x 1, STATIC | 2.00 | 2.00x | 2.00 | 2.00x | 1.50x | diverged (NaN) | – | 3.0 | 6.0 | 9.0 (2.11x) |\n");
    }

    @Test
    void partsAloneShowTheCeilingOfTheSpeedUpAndNoQualityOfTheWholeModel() {
        RunOutcome baseline = Runs.mf(1, 1, null, 9, 4, 4);
        RunOutcome alone = Runs.run(RunConfig.alone(Workload.MF, 2), 4, 1.6, 1.6);
        assertThat(table(baseline, List.of(baseline, alone, Runs.mf(2, 1, ADAPTIVE, 9, 2, 2)))).endsWith(
                "| 2 x 1, parts alone, no communication | 1.60 | 2.50x | 1.60 | 2.50x | 2.50x | – | – | 3.0 | 6.0 "
                        + "| 9.2 (2.07x) |\n"
                        + "| 2 x 1, ADAPTIVE | 2.00 | 2.00x | 2.00 | 2.00x | 4.50x | 0.1667 | +0.0% | 3.0 | 6.0 "
                        + "| 15.0 (1.27x) |\n");
    }

    @Test
    void repeatedConfigurationsShowTheirMedianRunAndTheRangesOverTheirRuns() {
        RunOutcome baseline = Runs.mf(1, 1, null, 9, 4, 4);
        String table = ScalingTable.markdown(Workload.MF, RepeatedRuns.group(List.of(baseline,
                Runs.mf(2, 1, ADAPTIVE, 9, 3, 3), Runs.mf(2, 1, ADAPTIVE, 9, 2, 2), Runs.mf(2, 1, ADAPTIVE, 9, 1, 1))),
                Optional.of(baseline));
        assertThat(table).contains("| bytes sent per entry (node 0) | whole run (s), speed-up | range over the runs |\n")
                .endsWith("| 1 x 1, single node | 4.00 | 1.00x | 4.00 | 1.00x | 2.25x | 0.1667 | +0.0% | 3.0 | 3.0 "
                        + "| 19.0 (1.00x) | – |\n"
                        + "| 2 x 1, ADAPTIVE | 2.00 | 2.00x | 2.00 | 2.00x | 4.50x | 0.1667 | +0.0% | 3.0 | 6.0 "
                        + "| 15.0 (1.27x) | 1.00–3.00 s, "
                        + "rmse 0.1667–0.1667 |\n");
        assertThat(ScalingTable.markdown(Workload.MF, RepeatedRuns.group(List.of(baseline,
                        Runs.run(RunConfig.alone(Workload.MF, 2), 4, 2, 2), Runs.run(RunConfig.alone(Workload.MF, 2), 4, 1, 1))),
                Optional.of(baseline))).as("parts alone have no quality of the whole model to range over")
                .endsWith("| 8.0 (2.38x) | 1.00–2.00 s |\n");
    }

    private static String table(RunOutcome baseline, List<RunOutcome> runs) {
        return ScalingTable.markdown(Workload.MF, RepeatedRuns.group(runs), Optional.of(baseline));
    }

    /** A run of {@code epochs} epochs of 3 s then 2 s, as {@link Runs} sends and trains, ending at {@code rmse}. */
    private static RunOutcome run(RunConfig config, int epochs, double rmse) {
        RunOutcome run = Runs.run(config, 3, 2, 2);
        List<EpochResult> results = run.results().stream().map(result -> result.epoch() < epochs ? result
                : new EpochResult(result.epoch(), result.seconds(), result.local(), result.bytesSent(), result.entries(),
                        Map.of("rmse", rmse))).toList();
        return new RunOutcome(config, epochs, 0, false, null, results, List.of(), run.runSeconds());
    }
}
