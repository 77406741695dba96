package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;

class EpochCutsTest {
    @TempDir
    Path dir;

    @Test
    void withoutMidEpochCheckpointsAnEpochIsOneSegment() {
        try (AdaPS node = node(Checkpointing.none())) {
            RecordingEpoch epoch = new RecordingEpoch(20, false, -1);
            AtomicLong reported = new AtomicLong();
            long trained = new EpochCuts(node, Checkpointing.none()).train(epoch, EpochProgress.start(3, 20),
                    reported::addAndGet);
            assertThat(epoch.begins).containsExactly(List.of(3, 0));
            assertThat(epoch.segments).containsExactly(List.of(0, 20));
            assertThat(trained).isEqualTo(reported.get()).isEqualTo(RecordingEpoch.entries(0, 20));
        }
    }

    @Test
    void midEpochCheckpointsCutEveryCeilOfAnEighthOfTheSteps() {
        Checkpointing checkpoints = new Checkpointing(dir, CheckpointInterval.every(Duration.ofHours(1)), false);
        try (AdaPS node = node(checkpoints)) {
            RecordingEpoch epoch = new RecordingEpoch(20, false, -1);
            new EpochCuts(node, checkpoints).train(epoch, EpochProgress.start(1, 20), entries -> { });
            assertThat(epoch.segments).containsExactly(List.of(0, 3), List.of(3, 6), List.of(6, 9), List.of(9, 12),
                    List.of(12, 15), List.of(15, 18), List.of(18, 20));
            // Fewer steps than cuts: a cut after every step.
            RecordingEpoch short_ = new RecordingEpoch(3, false, -1);
            new EpochCuts(node, checkpoints).train(short_, EpochProgress.start(1, 3), entries -> { });
            assertThat(short_.segments).containsExactly(List.of(0, 1), List.of(1, 2), List.of(2, 3));
        }
    }

    @Test
    void aScheduleWithABarrierAfterEveryStepIsCutAfterEveryStep() {
        try (AdaPS node = node(Checkpointing.none())) {
            RecordingEpoch epoch = new RecordingEpoch(4, true, -1);
            new EpochCuts(node, Checkpointing.none()).train(epoch, EpochProgress.start(1, 4), entries -> { });
            assertThat(epoch.segments).containsExactly(List.of(0, 1), List.of(1, 2), List.of(2, 3), List.of(3, 4));
        }
    }

    @Test
    void anEpochResumedAfterACutTrainsTheStepsAfterItInTheSameSegments() {
        Checkpointing checkpoints = new Checkpointing(dir, CheckpointInterval.every(Duration.ofHours(1)), false);
        try (AdaPS node = node(checkpoints)) {
            RecordingEpoch epoch = new RecordingEpoch(20, false, -1);
            long trained = new EpochCuts(node, checkpoints).train(epoch, new EpochProgress(2, 9, 20, 936),
                    entries -> { });
            assertThat(epoch.begins).containsExactly(List.of(2, 9));
            assertThat(epoch.segments).containsExactly(List.of(9, 12), List.of(12, 15), List.of(15, 18),
                    List.of(18, 20));
            assertThat(trained).isEqualTo(RecordingEpoch.entries(9, 20));
            // An epoch trained to its end but not reported yet: nothing left.
            RecordingEpoch done = new RecordingEpoch(20, false, -1);
            assertThat(new EpochCuts(node, checkpoints).train(done, new EpochProgress(2, 20, 20, 9), entries -> { }))
                    .isZero();
            assertThat(done.segments).isEmpty();
        }
    }

    @Test
    void aPositionWithOtherStepsIsRefused() {
        try (AdaPS node = node(Checkpointing.none())) {
            assertThatThrownBy(() -> new EpochCuts(node, Checkpointing.none()).train(new RecordingEpoch(4, false, -1),
                    EpochProgress.start(1, 5), entries -> { }))
                    .hasMessage("at=EpochProgress[epoch=1, step=0, steps=5, done=0] (expected 4 steps, the epoch's)");
        }
    }

    private static AdaPS node(Checkpointing checkpoints) {
        AdaPS node = checkpoints.configure(AdaPS.builder().table(TableSpec.of("t", 4, 1))).build();
        checkpoints.begin(node);
        return node;
    }
}
