package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ComparisonTableTest {
    private static final String HEADER = "| configuration | mean epoch time, epochs 2..E (s) | vs. STATIC "
            + "| test RMSE after E | local accesses (epoch E) | MiB sent by node 0 |\n"
            + "|---|---:|---:|---:|---:|---:|\n";

    private static RunOutcome run(int nodes, int threads, String technique, double... seconds) {
        List<EpochResult> results = new ArrayList<>();
        for (int epoch = 1; epoch <= seconds.length; epoch++) {
            results.add(new EpochResult(epoch, seconds[epoch - 1], 0.5 / epoch, 0.25 * epoch, epoch * 3L << 20));
        }
        return new RunOutcome(nodes, threads, technique, 0, false, 3, results);
    }

    @Test
    void oneRowPerRunWithTheRatioToStaticOnAsManyNodes() {
        String table = ComparisonTable.markdown(List.of(
                run(1, 2, "single node", 9, 4, 5),
                run(2, 1, "STATIC", 9, 10, 10),
                run(2, 1, "ADAPTIVE", 9, 2, 3),
                run(4, 1, "ADAPTIVE", 9, 4, 4)));
        assertThat(table).isEqualTo(HEADER
                + "| 1 x 2, single node | 4.50 | – | 0.1667 | 75.0% | 9.0 |\n"
                + "| 2 x 1, STATIC | 10.00 | 1.00 | 0.1667 | 75.0% | 9.0 |\n"
                + "| 2 x 1, ADAPTIVE | 2.50 | 0.25 | 0.1667 | 75.0% | 9.0 |\n"
                + "| 4 x 1, ADAPTIVE | 4.00 | – | 0.1667 | 75.0% | 9.0 |\n");
    }

    @Test
    void failedRunsAreRowsThatSayWhy() {
        RunOutcome staticRun = new RunOutcome(2, 1, "STATIC", 1, false, 3, List.of());
        RunOutcome timedOut = new RunOutcome(2, 1, "ADAPTIVE", -1, true, 3,
                List.of(new EpochResult(1, 5, 0.3, 0.9, 100)));
        RunOutcome incomplete = run(2, 1, "FULL_REPLICATION", 9, 4);
        String table = ComparisonTable.markdown(List.of(staticRun, timedOut, incomplete,
                run(2, 1, "REPLICATION_ONLY", 9, 4, 6)));
        assertThat(table).isEqualTo(HEADER
                + "| 2 x 1, STATIC | failed (exit code 1) | – | – | – | – |\n"
                + "| 2 x 1, ADAPTIVE | failed (timed out) | – | – | – | – |\n"
                + "| 2 x 1, FULL_REPLICATION | failed (no RESULT line for epoch 3) | – | – | – | – |\n"
                + "| 2 x 1, REPLICATION_ONLY | 5.00 | – | 0.1667 | 75.0% | 9.0 |\n");
    }
}
