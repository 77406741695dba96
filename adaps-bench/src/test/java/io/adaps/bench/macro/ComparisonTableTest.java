package io.adaps.bench.macro;

import static io.adaps.api.SamplingScheme.LOCAL;
import static io.adaps.api.SamplingScheme.NAIVE;
import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.FULL_REPLICATION;
import static io.adaps.api.Technique.REPLICATION_ONLY;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ComparisonTableTest {
    private static final String MF_HEADER = "| configuration | mean epoch time (s) | speed-up vs. STATIC "
            + "| test RMSE after E | local accesses (epoch E) | MiB sent by node 0 |\n"
            + "|---|---:|---:|---:|---:|---:|\n";
    private static final String W2V_HEADER = "| configuration | mean epoch time (s) | speed-up vs. STATIC+NAIVE "
            + "| held-out loss after E | similarity after E | local accesses (epoch E) | MiB sent by node 0 |\n"
            + "|---|---:|---:|---:|---:|---:|---:|\n";

    @Test
    void mfRowsWithTheSpeedUpOverStaticOnTheTablesNodeCount() {
        String table = table(Workload.MF, 2, List.of(
                Runs.mf(1, 2, null, 9, 4, 5),
                Runs.mf(2, 1, STATIC, 9, 10, 10),
                Runs.mf(2, 1, ADAPTIVE, 9, 2, 3)));
        assertThat(table).isEqualTo(MF_HEADER
                + "| 1 x 2, single node | 4.50 | 2.22x | 0.1667 | 75.0% | 9.0 |\n"
                + "| 2 x 1, STATIC | 10.00 | 1.00x | 0.1667 | 75.0% | 9.0 |\n"
                + "| 2 x 1, ADAPTIVE | 2.50 | 4.00x | 0.1667 | 75.0% | 9.0 |\n");
    }

    @Test
    void w2vRowsCompareWithStaticAndNaiveSamplingAndShowTheSimilarity() {
        String table = table(Workload.W2V, 4, List.of(
                Runs.w2v(4, 1, STATIC, LOCAL, 3, 4),
                Runs.w2v(4, 1, STATIC, NAIVE, 3, 6),
                Runs.w2v(4, 1, ADAPTIVE, LOCAL, 3, 1.5)));
        assertThat(table).isEqualTo(W2V_HEADER
                + "| 4 x 1, STATIC+LOCAL | 4.00 | 1.50x | 0.2500 | 0.2000 | 50.0% | 6.0 |\n"
                + "| 4 x 1, STATIC+NAIVE | 6.00 | 1.00x | 0.2500 | 0.2000 | 50.0% | 6.0 |\n"
                + "| 4 x 1, ADAPTIVE+LOCAL | 1.50 | 4.00x | 0.2500 | 0.2000 | 50.0% | 6.0 |\n");
    }

    @Test
    void failedRunsAreRowsThatSayWhyAndDivergedRunsKeepTheirTimes() {
        RunOutcome staticRun = new RunOutcome(new RunConfig(Workload.MF, 2, 1, STATIC, null), 3, 1, false, null,
                List.of(), List.of(), Double.NaN);
        RunOutcome timedOut = new RunOutcome(new RunConfig(Workload.MF, 2, 1, ADAPTIVE, null), 3, -1, true, null,
                Runs.mf(2, 1, ADAPTIVE, 5).results(), List.of(), Double.NaN);
        RunOutcome incomplete = Runs.mf(2, 1, FULL_REPLICATION, 9, 4);
        RunOutcome garbled = new RunOutcome(new RunConfig(Workload.MF, 2, 1, REPLICATION_ONLY, null), 3, 0, false,
                "line='RESULT epoch=x' (expected numbers)", List.of(), List.of(), Double.NaN);
        RunOutcome diverged = new RunOutcome(new RunConfig(Workload.MF, 4, 1, ADAPTIVE, null), 2, 0, false, null,
                List.of(new EpochResult(1, 3, 1, 1 << 20, 1000, Map.of("rmse", 0.5)),
                        new EpochResult(2, 2, 1, 2 << 20, 1000, Map.of("rmse", Double.NaN))), List.of(), Double.NaN);
        String table = table(Workload.MF, 2,
                List.of(staticRun, timedOut, new RunOutcome(incomplete.config(), 3, 0, false, null,
                        incomplete.results(), List.of(), Double.NaN), garbled, diverged));
        assertThat(table).isEqualTo(MF_HEADER
                + "| 2 x 1, STATIC | failed (exit code 1) | – | – | – | – |\n"
                + "| 2 x 1, ADAPTIVE | failed (timed out) | – | – | – | – |\n"
                + "| 2 x 1, FULL_REPLICATION | failed (no RESULT line for epoch 3) | – | – | – | – |\n"
                + "| 2 x 1, REPLICATION_ONLY | failed (malformed RESULT or CPU line) | – | – | – | – |\n"
                + "| 4 x 1, ADAPTIVE | 2.00 | – | diverged (NaN) | 100.0% | 2.0 |\n");
    }

    @Test
    void aRunWithoutTheWorkloadsQualityFigureFailed() {
        RunOutcome run = new RunOutcome(new RunConfig(Workload.W2V, 2, 1, STATIC, NAIVE), 1, 0, false, null,
                List.of(new EpochResult(1, 3, 1, 1, 1000, Map.of("rmse", 0.5))), List.of(), Double.NaN);
        assertThat(run.failure()).isEqualTo("failed (no heldout= in the RESULT line of epoch 1)");
        assertThat(table(Workload.W2V, 2, List.of(run)))
                .endsWith("| 2 x 1, STATIC+NAIVE | failed (no heldout= in the RESULT line of epoch 1) "
                        + "| – | – | – | – | – |\n");
    }

    @Test
    void repeatedConfigurationsShowTheirMedianRunAndTheRangesOverTheirRuns() {
        RunOutcome failed = new RunOutcome(new RunConfig(Workload.MF, 2, 1, ADAPTIVE, null), 2, 1, false, null,
                List.of(), List.of(), Double.NaN);
        String table = table(Workload.MF, 2, List.of(
                Runs.mf(2, 1, STATIC, 9, 10),
                Runs.mf(2, 1, ADAPTIVE, 9, 3),
                Runs.mf(2, 1, STATIC, 9, 12),
                failed,
                Runs.mf(2, 1, STATIC, 9, 8),
                Runs.mf(2, 1, ADAPTIVE, 9, 2)));
        assertThat(table).isEqualTo("| configuration | mean epoch time (s) | speed-up vs. STATIC | test RMSE after E "
                + "| local accesses (epoch E) | MiB sent by node 0 | range over the runs |\n"
                + "|---|---:|---:|---:|---:|---:|---|\n"
                + "| 2 x 1, STATIC | 10.00 | 1.00x | 0.2500 | 50.0% | 6.0 | 8.00–12.00 s, rmse 0.2500–0.2500 |\n"
                + "| 2 x 1, ADAPTIVE | 2.00 | 5.00x | 0.2500 | 50.0% | 6.0 | 2.00–3.00 s, rmse 0.2500–0.2500, "
                + "1 of 3 failed |\n");
    }

    private static String table(Workload workload, int nodes, List<RunOutcome> runs) {
        return ComparisonTable.markdown(workload, nodes, RepeatedRuns.group(runs));
    }
}
