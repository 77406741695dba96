package io.adaps.bench.macro;

import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class NodeCpuTableTest {
    @Test
    void aRowPerNodeWithItsTimedEpochsPerEpochAndTheIdleRest() {
        RunOutcome single = Runs.withCpu(Runs.mf(1, 1, null, 9, 4, 4),
                Runs.cpu(0, 1, 1, 9, 8.5, 0, 0, 0.4, 0.1, 0),
                Runs.cpu(0, 2, 3, 8, 7.6, 0, 0, 0.2, 0.1, 0.1));
        RunOutcome adaptive = Runs.withCpu(Runs.mf(2, 1, ADAPTIVE, 9, 2, 2),
                Runs.cpu(0, 2, 3, 4, 2, 0.6, 0.4, 0.1, 0.1, 0),
                Runs.cpu(1, 1, 1, 9, 2, 1, 1, 1, 1, 1));
        RunOutcome failed = new RunOutcome(new RunConfig(Workload.MF, 2, 1, STATIC, null), 3, 1, false, null, List.of(),
                List.of(), Double.NaN);
        assertThat(NodeCpuTable.markdown(List.of(single, adaptive, failed))).isEqualTo(
                "| configuration | node | wall (s) | training | manager | transport | jit | gc | other | idle |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                        + "| 1 x 1, single node | 0 | 4.00 | 3.80 | 0.00 | 0.00 | 0.10 | 0.05 | 0.05 | 0.00 |\n"
                        + "| 2 x 1, ADAPTIVE | 0 | 2.00 | 1.00 | 0.30 | 0.20 | 0.05 | 0.05 | 0.00 | 0.40 |\n"
                        + "| 2 x 1, ADAPTIVE | 1 | no CPU line for epochs 2-3 | – | – | – | – | – | – | – |\n"
                        + "| 2 x 1, STATIC | – | failed (exit code 1) | – | – | – | – | – | – | – |\n");
    }
}
