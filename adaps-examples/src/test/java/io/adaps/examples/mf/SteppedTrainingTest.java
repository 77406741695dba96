package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.adaps.api.AdaPS;
import io.adaps.api.Technique;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.examples.SteppedEpoch;

/**
 * {@link MfTrainer}'s epochs in steps on one node with one thread, where training is
 * deterministic: an epoch cut after a step, checkpointed there and resumed on a node restored from
 * the checkpoint trains every entry once and ends with exactly the model of an uninterrupted run.
 */
class SteppedTrainingTest {
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, 1.1, 41);
    private static final int RANK = 8;
    /** Small batches, so that the intent plan has several chunks. */
    private static final int BATCH = 16;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Technique.class, names = {"STATIC", "ADAPTIVE"})
    void anEpochResumedAfterACheckpointedStepEndsWithTheModelOfAnUninterruptedRun(Technique technique) {
        MfData.Split data = new SyntheticMatrix(SPEC).sample().split(0.1, 42);
        EpochPlan plan = EpochPlan.of(technique, data, 0, 1, row -> 0, 43);
        double uninterrupted;
        int steps;
        try (AdaPS node = builder().build(); MfTrainer trainer = trainer(node)) {
            SteppedEpoch epoch = plan.epoch(trainer);
            steps = epoch.steps();
            EpochCuts cuts = new EpochCuts(node, Checkpointing.none());
            cuts.train(epoch, EpochProgress.start(1, steps), entries -> { });
            cuts.train(epoch, EpochProgress.start(2, steps), entries -> { });
            uninterrupted = trainer.squaredErrors(data.test());
        }
        assertThat(steps).isGreaterThan(3);

        int cut = steps / 2;
        AtomicLong trained = new AtomicLong();
        try (AdaPS node = builder().build(); MfTrainer trainer = trainer(node)) {
            SteppedEpoch epoch = plan.epoch(trainer);
            new EpochCuts(node, Checkpointing.none()).train(epoch, EpochProgress.start(1, steps), entries -> { });
            epoch.begin(2, 0);
            epoch.train(0, cut, trained::addAndGet);
            node.checkpoint(dir);
        }
        long beforeCut = trained.get();
        assertThat(beforeCut).isPositive().isLessThan(plan.train().size());
        try (AdaPS node = builder().restoreFrom(dir).build(); MfTrainer trainer = trainer(node)) {
            SteppedEpoch epoch = plan.epoch(trainer);
            long afterCut = new EpochCuts(node, Checkpointing.none()).train(epoch,
                    new EpochProgress(2, cut, steps, beforeCut), trained::addAndGet);
            assertThat(beforeCut + afterCut).isEqualTo(trained.get()).isEqualTo(plan.train().size());
            assertThat(trainer.squaredErrors(data.test())).isEqualTo(uninterrupted);
        }
    }

    private static AdaPS.Builder builder() {
        return MfTables.builder(SPEC.rows(), SPEC.cols(), RANK, 44);
    }

    private static MfTrainer trainer(AdaPS node) {
        return new MfTrainer(node, MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f, 1, BATCH);
    }
}
