package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.util.concurrent.atomic.AtomicLong;

import io.adaps.api.AdaPS;
import org.junit.jupiter.api.Test;

class MfTrainerTest {
    private static final double NOISE = 0.1;
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(400, 300, 120_000, 4, NOISE, 1.1, 11);

    @Test
    void convergesToTheNoiseLevelOnALowRankMatrixWithTwoThreads() {
        MfData.Split data = new SyntheticMatrix(SPEC).sample().split(0.1, 12);
        try (AdaPS node = MfTables.startNode(SPEC.rows(), SPEC.cols(), 16, 13);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 2)) {
            double initial = trainer.rmse(data.test());
            // Many batches' pulls in flight sum the same errors in the same order.
            assertThat(trainer.squaredErrors(data.test(), MfRun.INITIAL_BATCHES_IN_FLIGHT))
                    .isCloseTo(initial * initial * data.test().size(), offset(1e-9 * initial * initial * data.test().size()));
            double firstEpochLoss = trainer.epoch(data.train());
            for (int epoch = 2; epoch <= 8; epoch++) {
                trainer.epoch(data.train());
            }
            double lastEpochLoss = trainer.epoch(data.train());

            // The signal has standard deviation 1/sqrt(trueRank) = 0.5; the noise (0.1) is the floor.
            assertThat(initial).isGreaterThan(4 * NOISE);
            assertThat(trainer.rmse(data.test())).isLessThan(1.2 * NOISE);
            assertThat(trainer.rmse(data.train())).isLessThan(1.2 * NOISE);
            assertThat(lastEpochLoss).isLessThan(firstEpochLoss / 2);
            // An entry stepped in place pushes its row and column; a batch on copies pushes each of its
            // distinct rows and columns once: at most two pushes per entry, exactly two when no two
            // threads ever met on a row (issue 13's CI run of the 29th session saw that).
            assertThat(node.metrics().localPushes()).isPositive().isLessThanOrEqualTo(2L * 9 * data.train().size());
        }
    }

    @Test
    void reportsProgressForEveryEntry() {
        MfData train = new SyntheticMatrix(SPEC).sample();
        try (AdaPS node = MfTables.startNode(SPEC.rows(), SPEC.cols(), 8, 1);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f, 2)) {
            AtomicLong reported = new AtomicLong();
            AtomicLong reports = new AtomicLong();
            trainer.epoch(train, done -> {
                reported.addAndGet(done);
                reports.incrementAndGet();
            });
            assertThat(reported.get()).isEqualTo(train.size());
            // Two shares of 60,000 entries, each reported once per chunk of 131,072: one report per share.
            assertThat(reports.get()).isEqualTo(2);
        }
    }

    @Test
    void takesTheSquaredErrorsOfEveryStepSinceTheLastTake() {
        MfData.Split data = new SyntheticMatrix(SPEC).sample().split(0.1, 12);
        try (AdaPS node = MfTables.startNode(SPEC.rows(), SPEC.cols(), 8, 1);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 2)) {
            assertThat(trainer.takeTrained()).isEqualTo(new MfTrainer.Trained(0, 0));
            double first = trainer.epoch(data.train());
            double second = trainer.epoch(data.train());

            MfTrainer.Trained both = trainer.takeTrained();
            assertThat(both.entries()).isEqualTo(2L * data.train().size());
            assertThat(both.squaredErrors()).isCloseTo(first + second, offset(1e-9 * (first + second)));
            assertThat(trainer.takeTrained()).isEqualTo(new MfTrainer.Trained(0, 0));
            // The steps of the next epoch alone, each entry's error before its step: above the model's
            // error after the epoch, on the entries it was trained on.
            double third = trainer.epoch(data.train());
            MfTrainer.Trained last = trainer.takeTrained();
            assertThat(last.entries()).isEqualTo(data.train().size());
            assertThat(last.squaredErrors()).isCloseTo(third, offset(1e-9 * third));
            assertThat(Math.sqrt(last.squaredErrors() / last.entries())).isGreaterThan(trainer.rmse(data.train()));
        }
    }

    @Test
    void refusesDataLargerThanTheTables() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        try (AdaPS node = MfTables.startNode(SPEC.rows() - 1, SPEC.cols(), 8, 1);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.05f, 0.01f, 1)) {
            assertThatThrownBy(() -> trainer.epoch(data))
                    .hasMessage("data=MfData[400 x 300, 120000 entries] (expected at most 399 x 300, the rows of "
                            + "tables 'rows' and 'cols')");
            assertThatThrownBy(() -> trainer.rmse(data)).isInstanceOf(IllegalArgumentException.class);
            MfData fits = new MfData(SPEC.rows() - 1, SPEC.cols(), new int[] {0}, new int[] {0}, new float[] {1f});
            assertThatThrownBy(() -> trainer.squaredErrors(fits, 0))
                    .hasMessage("batchesInFlight=0 (expected 1 <= batchesInFlight <= 16)");
        }
    }

    @Test
    void refusesBadConfiguration() {
        try (AdaPS node = MfTables.startNode(10, 10, 4, 1)) {
            assertThatThrownBy(() -> new MfTrainer(node, "nope", MfTables.COLS, 0.1f, 0.01f, 1))
                    .hasMessageStartingWith("table='nope'");
            assertThatThrownBy(() -> new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0f, 0.01f, 1))
                    .hasMessage("learningRate=0.0 (expected a finite value > 0)");
            assertThatThrownBy(() -> new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.1f, -1f, 1))
                    .hasMessage("regularization=-1.0 (expected a finite value >= 0)");
            assertThatThrownBy(() -> new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 0))
                    .hasMessage("threads=0 (expected > 0)");
        }
    }
}
