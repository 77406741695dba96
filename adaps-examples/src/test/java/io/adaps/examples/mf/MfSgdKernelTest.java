package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;
import org.junit.jupiter.api.Test;

class MfSgdKernelTest {
    @Test
    void aStepMovesBothFactorsAlongTheRegularizedGradient() {
        try (AdaPS node = MfTables.startNode(3, 2, 2, 1)) {
            Worker worker = node.worker();
            worker.table(MfTables.ROWS).set(1, new float[] {1f, 2f}, 0);
            worker.table(MfTables.COLS).set(0, new float[] {0.5f, -1f}, 0);
            MfSgdKernel kernel = new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.1f, 0.2f);

            // prediction 1 * 0.5 + 2 * -1 = -1.5, error 1 - (-1.5) = 2.5
            assertThat(kernel.squaredError(1, 0, 1f)).isEqualTo(6.25f);
            assertThat(kernel.step(1, 0, 1f)).isEqualTo(6.25f);

            float[] u = new float[2];
            float[] w = new float[2];
            worker.table(MfTables.ROWS).pull(1, u, 0);
            worker.table(MfTables.COLS).pull(0, w, 0);
            // u += 0.1 * (2.5 * w - 0.2 * u); w += 0.1 * (2.5 * u - 0.2 * w), both from the old values
            assertThat(u[0]).isCloseTo(1f + 0.1f * (2.5f * 0.5f - 0.2f * 1f), offset(1e-6f));
            assertThat(u[1]).isCloseTo(2f + 0.1f * (2.5f * -1f - 0.2f * 2f), offset(1e-6f));
            assertThat(w[0]).isCloseTo(0.5f + 0.1f * (2.5f * 1f - 0.2f * 0.5f), offset(1e-6f));
            assertThat(w[1]).isCloseTo(-1f + 0.1f * (2.5f * 2f - 0.2f * -1f), offset(1e-6f));
        }
    }

    @Test
    void refusesTablesOfDifferentRanks() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("a", 3, 4)).table(TableSpec.of("b", 3, 5)).build()) {
            assertThatThrownBy(() -> new MfSgdKernel(node.worker(), "a", "b", 0.1f, 0f))
                    .hasMessage("valueLength=5 of table 'b' (expected 4, the value length of table 'a')");
        }
    }
}
