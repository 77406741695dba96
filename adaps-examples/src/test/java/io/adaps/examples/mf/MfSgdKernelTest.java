package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.testing.Concurrently;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MfSgdKernelTest {
    private static MfData oneEntry(int row, int col, float value) {
        return new MfData(3, 2, new int[] {row}, new int[] {col}, new float[] {value});
    }

    @Test
    void aStepMovesBothFactorsAlongTheRegularizedGradient() {
        assertOneStep(entry -> StepScales.NONE, 0.1f, 0.1f);
    }

    @Test
    void scaledStepsMoveEachFactorByItsScale() {
        // The one row and column hold the one entry; the reference count is the mean, 1/3 per row and 1/2 per
        // column, above 1/4096 of the entries: the row steps at 1/3, the column at 1/2.
        assertOneStep(entry -> {
            StepScales scales = StepScales.byFrequency(entry);
            assertThat(scales.row(1)).isEqualTo(1f / 3);
            assertThat(scales.col(0)).isEqualTo(1f / 2);
            return scales;
        }, 0.1f / 3, 0.1f / 2);
    }

    /**
     * Trains one entry at learning rate 0.1 with the scales {@code scales} gives, which make it
     * {@code rowRate} for the row and {@code colRate} for the column.
     */
    private static void assertOneStep(Function<MfData, StepScales> scales, float rowRate, float colRate) {
        try (AdaPS node = MfTables.startNode(3, 2, 2, 1)) {
            Worker worker = node.worker();
            worker.table(MfTables.ROWS).set(1, new float[] {1f, 2f}, 0);
            worker.table(MfTables.COLS).set(0, new float[] {0.5f, -1f}, 0);
            MfSgdKernel kernel = new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.1f, 0.2f, 4);
            MfData entry = oneEntry(1, 0, 1f);

            // prediction 1 * 0.5 + 2 * -1 = -1.5, error 1 - (-1.5) = 2.5
            assertThat(kernel.squaredErrors(entry, 0, 1)).isEqualTo(6.25);
            assertThat(kernel.train(entry, 0, 1, scales.apply(entry))).isEqualTo(6.25);

            float[] u = new float[2];
            float[] w = new float[2];
            worker.table(MfTables.ROWS).pull(1, u, 0);
            worker.table(MfTables.COLS).pull(0, w, 0);
            // u += rowRate * (2.5 * w - 0.2 * u); w += colRate * (2.5 * u - 0.2 * w), both from the old values
            assertThat(u[0]).isCloseTo(1f + rowRate * (2.5f * 0.5f - 0.2f * 1f), offset(1e-6f));
            assertThat(u[1]).isCloseTo(2f + rowRate * (2.5f * -1f - 0.2f * 2f), offset(1e-6f));
            assertThat(w[0]).isCloseTo(0.5f + colRate * (2.5f * 1f - 0.2f * 0.5f), offset(1e-6f));
            assertThat(w[1]).isCloseTo(-1f + colRate * (2.5f * 2f - 0.2f * -1f), offset(1e-6f));
        }
    }

    /**
     * On one thread, every batch size is sequential SGD: each entry of a batch sees the steps of the
     * entries before it, and the batch pushes exactly their sum.
     */
    @ParameterizedTest(name = "batch {0}")
    @ValueSource(ints = {2, 7, 64, 1000})
    void batchesOnOneThreadTrainExactlyLikeSingleEntrySteps(int batchSize) {
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(6, 5, 300, 2, 0.1, 1.1, 3)).sample();
        float[] expected = new float[(6 + 5) * 3];
        float[] actual = new float[expected.length];
        double expectedLoss = trainAndDump(data, 1, expected);
        double actualLoss = trainAndDump(data, batchSize, actual);

        assertThat(actualLoss).isCloseTo(expectedLoss, offset(1e-4 * expectedLoss));
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i]).as("component %d", i).isCloseTo(expected[i], offset(1e-5f));
        }
    }

    /** Trains two epochs on a fresh node; returns the loss sum and copies both tables into {@code dump}. */
    private static double trainAndDump(MfData data, int batchSize, float[] dump) {
        try (AdaPS node = MfTables.startNode(data.numRows(), data.numCols(), 3, 9)) {
            Worker worker = node.worker();
            MfSgdKernel kernel = new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f, batchSize);
            double loss = kernel.train(data, 0, data.size()) + kernel.train(data, 0, data.size());
            long[] keys = new long[(int) node.keys()];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = k;
            }
            worker.pull(keys, 0, keys.length, dump, 0);
            return loss;
        }
    }

    @Test
    void entriesOwnedHereAreSteppedInPlace() {
        MfData data = new MfData(3, 2, new int[] {0, 0, 1, 2}, new int[] {0, 1, 0, 0}, new float[] {1f, 2f, 3f, 4f});
        try (AdaPS node = MfTables.startNode(3, 2, 2, 1)) {
            MfSgdKernel kernel = new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.1f, 0f, 3);
            kernel.train(data, 0, 4);
            // Each entry reads and writes its row and column where they are: no copies.
            assertThat(node.metrics().localPulls()).isEqualTo(4 * 2);
            assertThat(node.metrics().localPushes()).isEqualTo(4 * 2);
        }
    }

    /**
     * Entries whose row and column are both expected at least twice per batch are stepped on
     * copies (one pull and push per batch), the others in place.
     */
    @Test
    void entriesOfRowsAndColumnsRepeatedInEveryBatchAreSteppedOnCopies() {
        // Entry 2k is (0, 0), entry 2k + 1 is (k + 1, k + 1): row 0 and column 0 hold half the entries
        // each (scale 1.67 / 500, well below 64 / 8192), the others one (scale 1).
        int size = 1000;
        int[] rows = new int[size];
        int[] cols = new int[size];
        float[] values = new float[size];
        for (int i = 1; i < size; i += 2) {
            rows[i] = i / 2 + 1;
            cols[i] = i / 2 + 1;
        }
        MfData data = new MfData(600, 600, rows, cols, values);
        try (AdaPS node = MfTables.startNode(600, 600, 2, 1)) {
            MfSgdKernel kernel = new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.1f, 0f, 64);
            kernel.train(data, 0, size, StepScales.byFrequency(data));
            int batches = (size + 63) / 64;
            assertThat(node.metrics().localPulls()).isEqualTo(size / 2 * 2 + batches * 2);
            assertThat(node.metrics().localPushes()).isEqualTo(size / 2 * 2 + batches * 2);
        }
    }

    /**
     * On node 1 of two, the entries whose row and column it owns are stepped in place, the others
     * on copies pulled once per distinct row and column of the batch; the model is the single
     * node's after the same steps in that order (in place first, then the copies).
     */
    @Test
    void entriesNotAllHereAreSteppedOnCopiesOfTheirDistinctRowsAndColumns() throws Exception {
        // Homes by range: rows 0-1 and column 0 on node 0, rows 2-3 and column 1 on node 1.
        int[] rows = {2, 0, 2, 3, 0};
        int[] cols = {0, 1, 1, 1, 1};
        float[] values = {1f, 2f, 3f, 4f, 5f};
        MfData data = new MfData(4, 2, rows, cols, values);
        InJvmNetwork network = new InJvmNetwork();
        ConcurrentHashMap<Integer, AdaPS> nodes = new ConcurrentHashMap<>();
        float[] actual = new float[(4 + 2) * 2];
        try {
            Concurrently.run(2, Duration.ofSeconds(60), id -> nodes.put(id, MfTables.builder(4, 2, 2, 5)
                    .technique(Technique.STATIC).nodeId(id).peers(List.of("n0:1", "n1:1"))
                    .transport(new InJvmTransport(network)).build()));
            AdaPS node = nodes.get(1);
            Worker worker = node.worker();
            new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 5).train(data, 0, 5);
            // In place: (2, 1) and (3, 1). On copies: rows {2, 0} and columns {0, 1}, of which row 0 and column 0 remote.
            assertThat(node.metrics().localPulls()).isEqualTo(2 * 2 + 2);
            assertThat(node.metrics().remotePulls()).isEqualTo(2);
            assertThat(node.metrics().localPushes()).isEqualTo(2 * 2 + 2);
            assertThat(node.metrics().remotePushes()).isEqualTo(2);
            worker.pull(new long[] {0, 1, 2, 3, 4, 5}, actual);
        } finally {
            nodes.values().forEach(AdaPS::close);
        }
        int[] order = {2, 3, 0, 1, 4};
        MfData reordered = new MfData(4, 2, new int[5], new int[5], new float[5]);
        for (int i = 0; i < order.length; i++) {
            reordered.rows()[i] = rows[order[i]];
            reordered.cols()[i] = cols[order[i]];
            reordered.values()[i] = values[order[i]];
        }
        try (AdaPS single = MfTables.startNode(4, 2, 2, 5)) {
            Worker worker = single.worker();
            new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 1).train(reordered, 0, 5);
            float[] expected = new float[actual.length];
            worker.pull(new long[] {0, 1, 2, 3, 4, 5}, expected);
            for (int i = 0; i < expected.length; i++) {
                assertThat(actual[i]).as("component %d", i).isCloseTo(expected[i], offset(1e-6f));
            }
        }
    }

    @Test
    void squaredErrorsChangeNothingAndCoverOnlyTheRange() {
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(6, 5, 50, 2, 0.1, 1.1, 4)).sample();
        try (AdaPS node = MfTables.startNode(6, 5, 3, 2)) {
            Worker worker = node.worker();
            MfSgdKernel kernel = new MfSgdKernel(worker, MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f, 8);
            double all = kernel.squaredErrors(data, 0, 50);
            double parts = kernel.squaredErrors(data, 0, 17) + kernel.squaredErrors(data, 17, 50);

            assertThat(parts).isCloseTo(all, offset(1e-9 * all));
            assertThat(kernel.squaredErrors(data, 0, 50)).isEqualTo(all);
            assertThat(kernel.squaredErrors(data, 5, 5)).isZero();
            assertThat(node.metrics().localPushes()).isZero();
        }
    }

    /**
     * An evaluation pulls up to {@code batchesInFlight} batches before it waits: over several such
     * windows and a partial last one, on a node that holds every row and on one that pulls half of
     * them from the other node, the sum is the model's entry by entry, and the same (to the bit) as
     * one batch at a time.
     */
    @ParameterizedTest
    @CsvSource({"1, 1", "1, 7", "1, 16", "3, 1", "3, 5", "3, 16", "8, 1", "8, 16"})
    void squaredErrorsOverManyWindowsAreTheModelsEntryByEntry(int batchSize, int batchesInFlight) throws Exception {
        int entries = 3 * MfSgdKernel.MAX_BATCHES_IN_FLIGHT * 8 + 5;
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(40, 30, entries, 2, 0.1, 1.1, 6)).sample();
        double oneAtATime;
        try (AdaPS single = MfTables.startNode(40, 30, 3, 7)) {
            double expected = entryByEntry(single.worker(), data, 0, data.size());
            MfSgdKernel kernel = new MfSgdKernel(single.worker(), MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f,
                    batchSize);
            oneAtATime = kernel.squaredErrors(data, 0, data.size());
            // The kernel's errors are floats, the entry-by-entry ones doubles.
            assertThat(oneAtATime).isCloseTo(expected, offset(1e-6 * expected));
            assertThat(kernel.squaredErrors(data, 0, data.size(), batchesInFlight)).isEqualTo(oneAtATime);
            assertThat(kernel.squaredErrors(data, 1, data.size() - 1, batchesInFlight))
                    .isCloseTo(entryByEntry(single.worker(), data, 1, data.size() - 1), offset(1e-6 * expected));
        }
        InJvmNetwork network = new InJvmNetwork();
        ConcurrentHashMap<Integer, AdaPS> nodes = new ConcurrentHashMap<>();
        try {
            Concurrently.run(2, Duration.ofSeconds(60), id -> nodes.put(id, MfTables.builder(40, 30, 3, 7)
                    .technique(Technique.STATIC).nodeId(id).peers(List.of("n0:1", "n1:1"))
                    .transport(new InJvmTransport(network)).build()));
            AdaPS node = nodes.get(1);
            MfSgdKernel kernel = new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f,
                    batchSize);
            assertThat(kernel.squaredErrors(data, 0, data.size(), batchesInFlight)).isEqualTo(oneAtATime);
            assertThat(node.metrics().remotePulls()).isPositive();
        } finally {
            nodes.values().forEach(AdaPS::close);
        }
    }

    /**
     * A table of more rows than an evaluation's window holds ({@link MfSgdKernel#EVALUATION_ROWS}):
     * its windows end when their rows would not fit, and the sum is still every entry's.
     */
    @Test
    void anEvaluationsWindowEndsBeforeItsRowsOutgrowItsRoom() {
        int rows = MfSgdKernel.EVALUATION_ROWS + 5_000;
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(rows, 8, 2 * rows, 2, 0.1, 0.0, 8)).sample();
        try (AdaPS node = MfTables.startNode(rows, 8, 2, 9)) {
            // 16 batches of 8,192 entries would name more rows than a window holds.
            MfSgdKernel kernel = new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f, 8192);
            double expected = entryByEntry(node.worker(), data, 0, data.size());

            assertThat(kernel.squaredErrors(data, 0, data.size(), MfSgdKernel.MAX_BATCHES_IN_FLIGHT))
                    .isCloseTo(expected, offset(1e-6 * expected));
        }
    }

    /** The sum of the squared errors of entries {@code [from, to)}, each row and column pulled alone. */
    private static double entryByEntry(Worker worker, MfData data, int from, int to) {
        int rank = worker.table(MfTables.ROWS).table().valueLength();
        float[] u = new float[rank];
        float[] w = new float[rank];
        double sum = 0;
        for (int i = from; i < to; i++) {
            worker.table(MfTables.ROWS).pull(data.rows()[i], u, 0);
            worker.table(MfTables.COLS).pull(data.cols()[i], w, 0);
            double prediction = 0;
            for (int k = 0; k < rank; k++) {
                prediction += u[k] * w[k];
            }
            double error = data.values()[i] - prediction;
            sum += error * error;
        }
        return sum;
    }

    @Test
    void refusesBadArguments() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("a", 3, 4)).table(TableSpec.of("b", 3, 5)).build()) {
            assertThatThrownBy(() -> new MfSgdKernel(node.worker(), "a", "b", 0.1f, 0f, 1))
                    .hasMessage("valueLength=5 of table 'b' (expected 4, the value length of table 'a')");
        }
        try (AdaPS node = MfTables.startNode(3, 2, 2, 1)) {
            assertThatThrownBy(() -> new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.1f, 0f, 0))
                    .hasMessage("batchSize=0 (expected > 0)");
            MfSgdKernel kernel = new MfSgdKernel(node.worker(), MfTables.ROWS, MfTables.COLS, 0.1f, 0f, 1);
            MfData entry = oneEntry(0, 0, 1f);
            assertThatThrownBy(() -> kernel.train(entry, 0, 2))
                    .hasMessage("from=0, to=2 (expected 0 <= from <= to <= 1, the entries of MfData[3 x 2, 1 entries])");
            assertThatThrownBy(() -> kernel.squaredErrors(entry, 1, 0))
                    .hasMessage("from=1, to=0 (expected 0 <= from <= to <= 1, the entries of MfData[3 x 2, 1 entries])");
            assertThatThrownBy(() -> kernel.squaredErrors(entry, 0, 1, 0))
                    .hasMessage("batchesInFlight=0 (expected 1 <= batchesInFlight <= 16)");
            assertThatThrownBy(() -> kernel.squaredErrors(entry, 0, 1, 17))
                    .hasMessage("batchesInFlight=17 (expected 1 <= batchesInFlight <= 16)");
        }
    }
}
