package io.adaps.bench.macro;

import static io.adaps.api.SamplingScheme.LOCAL;
import static io.adaps.api.SamplingScheme.NAIVE;
import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class HeadlineTest {
    @Test
    void w2vOnTwoNodesComparesAdaptiveLocalWithStaticNaiveAgainstTheTarget() {
        List<RunOutcome> runs = List.of(
                Runs.w2v(2, 1, STATIC, NAIVE, 9, 6, 6),
                Runs.w2v(2, 1, ADAPTIVE, NAIVE, 9, 4, 4),
                Runs.w2v(2, 1, ADAPTIVE, LOCAL, 9, 1.5, 2.5));
        assertThat(Headline.markdown(ReportSubject.of(Workload.W2V), 2, runs)).isEqualTo("- **w2v, 2 nodes: ADAPTIVE+LOCAL runs an epoch "
                + "3.00x as fast as STATIC+NAIVE** (2.00 s against 6.00 s); held-out loss after epoch 3: "
                + "0.1667 against 0.1667. Target: at least 3x, reached (the quality must also be comparable).\n");
    }

    @Test
    void belowTheTargetSaysNotReached() {
        List<RunOutcome> runs = List.of(Runs.w2v(2, 1, STATIC, NAIVE, 9, 6), Runs.w2v(2, 1, ADAPTIVE, LOCAL, 9, 2.5));
        assertThat(Headline.markdown(ReportSubject.of(Workload.W2V), 2, runs)).contains("runs an epoch 2.40x as fast as STATIC+NAIVE")
                .contains("Target: at least 3x, **not reached**");
    }

    @Test
    void mfComparesAdaptiveWithStaticOnEachNodeCountWithoutATarget() {
        RunOutcome diverged = new RunOutcome(new RunConfig(Workload.MF, 4, 1, ADAPTIVE, null), 2, 0, false, null,
                List.of(new EpochResult(1, 3, 1, 1, 1000, Map.of("rmse", 0.5)),
                        new EpochResult(2, 2, 1, 2, 1000, Map.of("rmse", Double.NaN))), List.of(), Double.NaN);
        List<RunOutcome> runs = List.of(Runs.mf(2, 1, STATIC, 9, 4), Runs.mf(2, 1, ADAPTIVE, 9, 5),
                Runs.mf(4, 1, STATIC, 9, 5), diverged);
        assertThat(Headline.markdown(ReportSubject.of(Workload.MF), 2, runs)).isEqualTo("- **mf, 2 nodes: ADAPTIVE runs an epoch 0.80x as "
                + "fast as STATIC** (5.00 s against 4.00 s); test RMSE after epoch 2: 0.2500 against 0.2500.\n");
        assertThat(Headline.markdown(ReportSubject.of(Workload.MF), 4, runs)).isEqualTo("- **mf, 4 nodes: ADAPTIVE runs an epoch 2.50x as "
                + "fast as STATIC** (2.00 s against 5.00 s); test RMSE after epoch 2: diverged (NaN) against 0.2500.\n");
    }

    @Test
    void aMissingOrFailedRunLeavesTheRatioUnmeasured() {
        RunOutcome failedStatic = new RunOutcome(new RunConfig(Workload.W2V, 2, 1, STATIC, NAIVE), 2, 1, false, null,
                List.of(), List.of(), Double.NaN);
        assertThat(Headline.markdown(ReportSubject.of(Workload.W2V), 2, List.of(failedStatic, Runs.w2v(2, 1, ADAPTIVE, LOCAL, 9, 2))))
                .isEqualTo("- w2v, 2 nodes, ADAPTIVE+LOCAL against STATIC+NAIVE: not measured "
                        + "(no successful STATIC+NAIVE run)\n");
        assertThat(Headline.markdown(ReportSubject.of(Workload.MF), 2, List.of(Runs.mf(2, 1, STATIC, 9, 4))))
                .isEqualTo("- mf, 2 nodes, ADAPTIVE against STATIC: not measured (no successful ADAPTIVE run)\n");
    }
}
