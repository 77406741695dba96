package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.adaps.api.AdaPS;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import org.junit.jupiter.api.Test;

class RowBatchTest {
    /** The row table of {@code worker}'s node, with rows {@code a} and {@code b} set to those values. */
    private static TableView rowsSet(Worker worker, long a, float[] aValue, long b, float[] bValue) {
        TableView view = worker.table(MfTables.ROWS);
        view.set(a, aValue, 0);
        view.set(b, bValue, 0);
        return view;
    }

    /**
     * A push takes the values kept since the last push: before any were kept, and again after a
     * push until they are kept anew (the update sides exist from the start, and a second push of
     * the same values would send stale differences), it is refused and changes nothing.
     */
    @Test
    void refusesToPushStepsUnlessValuesWereKeptSinceTheLastPush() {
        try (AdaPS node = MfTables.startNode(4, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = rowsSet(worker, 1, new float[] {1f, 2f}, 3, new float[] {-1f, 0.5f});
            RowBatch batch = new RowBatch(view, 4);
            batch.add(1);
            worker.waitFor(batch.pullAsync());
            float[] row = new float[2];

            for (float expected : new float[] {1f, 2f}) {
                assertThatThrownBy(batch::pushSteps).isInstanceOf(IllegalStateException.class)
                        .hasMessage("pushSteps before keepPulledValues: no values kept as pulled");
                worker.waitAll();
                view.pull(1, row, 0);
                assertThat(row).containsExactly(expected, 2f);
                batch.keepPulledValues();
                batch.values[0] += 1f;
                batch.pushSteps();
            }
        }
    }

    /** A batch for reads pulls like any other, and keeps no values to push steps from. */
    @Test
    void aBatchForReadsPullsButKeepsNoValues() {
        try (AdaPS node = MfTables.startNode(4, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = rowsSet(worker, 1, new float[] {1f, 2f}, 3, new float[] {-1f, 0.5f});
            RowBatch reads = RowBatch.forReads(view, 4);
            reads.add(3);
            worker.waitFor(reads.pullAsync());

            assertThat(reads.values[0]).isEqualTo(-1f);
            assertThatThrownBy(reads::keepPulledValues).isInstanceOf(IllegalStateException.class)
                    .hasMessage("keepPulledValues on a batch for reads (forReads): it keeps no values");
        }
    }

    @Test
    void pushesEachRowsValueMinusItsValueAsPulledOncePerBatch() {
        try (AdaPS node = MfTables.startNode(4, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = rowsSet(worker, 1, new float[] {1f, 2f}, 3, new float[] {-1f, 0.5f});
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
    void aBatchPulledAheadTakesTheStepsOfTheBatchBeforeOnceAndPushesOnlyItsOwn() {
        try (AdaPS node = MfTables.startNode(8, 2, 2, 1)) {
            Worker worker = node.worker();
            TableView view = rowsSet(worker, 3, new float[] {1f, 1f}, 5, new float[] {2f, 2f});
            RowBatch now = new RowBatch(view, 4);
            RowBatch ahead = new RowBatch(view, 4);
            int three = now.add(3);
            worker.waitFor(now.pullAsync());
            now.keepPulledValues();
            // The next batch is pulled before this one's steps: row 3 as it was, row 5 too.
            int aheadFive = ahead.add(5);
            int aheadThree = ahead.add(3);
            worker.waitFor(ahead.pullAsync());
            now.values[three] += 0.5f;
            now.values[three + 1] -= 0.25f;

            now.pushSteps(ahead);
            now.clear();
            assertThat(ahead.values[aheadThree]).as("row 3 with the steps of the batch before").isEqualTo(1.5f);
            assertThat(ahead.values[aheadThree + 1]).isEqualTo(0.75f);
            assertThat(ahead.values[aheadFive]).as("a row the batch before did not hold").isEqualTo(2f);
            ahead.keepPulledValues();
            ahead.values[aheadThree] += 0.25f;
            ahead.values[aheadFive + 1] += 1f;
            ahead.pushSteps();
            worker.waitAll();

            float[] row = new float[2];
            view.pull(3, row, 0);
            assertThat(row).as("each batch's steps once").containsExactly(1.75f, 0.75f);
            view.pull(5, row, 0);
            assertThat(row).containsExactly(2f, 3f);
            RowBatch columns = new RowBatch(worker.table(MfTables.COLS), 4);
            assertThatThrownBy(() -> ahead.pushSteps(columns)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("next=" + MfTables.COLS + " (expected a batch of " + MfTables.ROWS + ")");
        }
    }
}
