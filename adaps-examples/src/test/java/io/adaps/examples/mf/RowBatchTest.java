package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import io.adaps.api.AdaPS;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import org.junit.jupiter.api.Test;

class RowBatchTest {
    @Test
    void pushesEachRowsValueMinusItsValueAsPulledOncePerBatch() {
        try (AdaPS node = MfTables.startNode(4, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = worker.table(MfTables.ROWS);
            view.set(1, new float[] {1f, 2f}, 0);
            view.set(3, new float[] {-1f, 0.5f}, 0);
            RowBatch batch = new RowBatch(view, 4);

            // Batches alternate between the two sides of the update buffer: run three so a side is reused.
            for (int round = 1; round <= 3; round++) {
                int one = batch.add(1);
                int three = batch.add(3);
                assertThat(batch.add(1)).isEqualTo(one);
                worker.waitFor(batch.pullAsync());
                batch.keepPulledValues();
                batch.values[one] += 0.25f;
                batch.values[three + 1] -= 1f;
                batch.values[three + 1] += 0.5f;
                batch.pushSteps();
                batch.clear();
            }
            worker.waitAll();

            float[] row = new float[2];
            view.pull(1, row, 0);
            assertThat(row).containsExactly(1.75f, 2f);
            view.pull(3, row, 0);
            assertThat(row).containsExactly(-1f, -1f);
        }
    }
}
