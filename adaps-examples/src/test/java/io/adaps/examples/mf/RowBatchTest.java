package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aBatchForReadingPullsButTakesNoSteps() {
        try (AdaPS node = MfTables.startNode(4, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = worker.table(MfTables.ROWS);
            view.set(2, new float[] {3f, -4f}, 0);
            RowBatch batch = RowBatch.forReading(view, 2);

            int two = batch.add(2);
            worker.waitFor(batch.pullAsync());

            assertThat(batch.values[two]).isEqualTo(3f);
            assertThat(batch.values[two + 1]).isEqualTo(-4f);
            assertThatThrownBy(batch::keepPulledValues).isInstanceOf(IllegalStateException.class)
                    .hasMessage("batch of table 'rows' (expected a batch that takes steps, not one made for reading)");
            assertThatThrownBy(batch::pushSteps).isInstanceOf(IllegalStateException.class);
            assertThat(node.metrics().localPushes()).isZero();
        }
    }
}
