package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * Resuming from the examples' checkpoints: a run cut mid-epoch continues with the steps after the
 * cut, a run checkpointed at an epoch's end with the next epoch, and a checkpoint whose progress
 * cannot be continued is refused, naming it.
 */
class CheckpointingTest {
    private static final TableSpec TABLE = TableSpec.of("t", 4, 1);

    @TempDir
    Path dir;
    private final StringWriter printed = new StringWriter();
    private final PrintWriter out = new PrintWriter(printed, true);

    @Test
    void aRunResumedFromAMidEpochCheckpointTrainsExactlyTheStepsAfterItsCut() throws Exception {
        // Every barrier of the first run takes a checkpoint, so every cut does: 3, 6 and 9.
        Checkpointing first = new Checkpointing(dir, CheckpointInterval.every(Duration.ofNanos(1)), false);
        try (AdaPS node = start(first)) {
            EpochProgress at = first.start(node, 20, out);
            assertThat(at).isEqualTo(EpochProgress.start(1, 20));
            RecordingEpoch dies = new RecordingEpoch(20, false, 10);
            assertThatThrownBy(() -> new EpochCuts(node, first).train(dies, at, entries -> { }))
                    .hasMessage("the node died in step 10");
            assertThat(dies.segments).containsExactly(List.of(0, 3), List.of(3, 6), List.of(6, 9));
            Await.until("the cut after step 9 durable", Duration.ofSeconds(30),
                    () -> node.lastCheckpoint().map(CheckpointResult::generation).orElse(0L) == 3);
        }

        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.every(Duration.ofHours(1)), true);
        try (AdaPS node = start(resumed)) {
            EpochProgress at = resumed.start(node, 20, out);
            long before = RecordingEpoch.entries(0, 9);
            assertThat(at).isEqualTo(new EpochProgress(1, 9, 20, before));
            assertThat(printed.toString()).isEqualTo("resumed from " + dir.resolve("MANIFEST-00000003")
                    + " in epoch 1 after step 9 of 20 (entries=" + before + " of the epoch trained before)"
                    + System.lineSeparator());
            RecordingEpoch rest = new RecordingEpoch(20, false, -1);
            long trained = new EpochCuts(node, resumed).train(rest, at, entries -> { });
            assertThat(rest.begins).containsExactly(List.of(1, 9));
            assertThat(rest.segments.get(0)).isEqualTo(List.of(9, 12));
            assertThat(before + trained).isEqualTo(RecordingEpoch.entries(0, 20));
        }
    }

    @Test
    void aRunCheckpointedAtAnEpochsEndResumesWithTheNextEpochOnAnyNumberOfSteps() {
        Checkpointing first = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), false);
        try (AdaPS node = start(first)) {
            first.start(node, 20, out);
            first.afterEpoch(node, 1, 3, out);
            first.finish(node, out);
        }
        // One after epoch 1, and one after the run's last barrier.
        assertThat(printed.toString()).contains("checkpoint after epoch 1: training paused")
                .contains("checkpoint 1 durable: " + dir.resolve("MANIFEST-00000001"))
                .contains("checkpoint 2 durable: " + dir.resolve("MANIFEST-00000002"));

        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), true);
        try (AdaPS node = start(resumed)) {
            assertThat(resumed.start(node, 7, out)).isEqualTo(EpochProgress.start(2, 7));
            assertThat(printed.toString()).endsWith("resumed from " + dir.resolve("MANIFEST-00000002")
                    + " after epoch 1" + System.lineSeparator());
        }
    }

    @Test
    void aCheckpointTakenBeforeAnyProgressStartsAtTheBeginning() {
        try (AdaPS node = AdaPS.builder().table(TABLE).build()) {
            node.checkpoint(dir);
        }
        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), true);
        try (AdaPS node = start(resumed)) {
            assertThat(resumed.start(node, 5, out)).isEqualTo(EpochProgress.start(1, 5));
            assertThat(printed.toString()).isEmpty();
        }
    }

    @Test
    void aSavedStateThatIsNoProgressIsRefusedNamingTheCheckpoint() {
        try (AdaPS node = AdaPS.builder().table(TABLE).build()) {
            // The first worker, as Checkpointing.begin makes it.
            Worker worker = node.unclockedWorker();
            worker.checkpointState("epoch=2".getBytes(StandardCharsets.UTF_8));
            node.checkpoint(dir);
        }
        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), true);
        try (AdaPS node = start(resumed)) {
            assertThatThrownBy(() -> resumed.start(node, 5, out)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("checkpoint " + dir.resolve("MANIFEST-00000001") + ", node 0: progress 'epoch=2' "
                            + "(expected 'epoch=E step=K of=N done=D' with E >= 1 and K <= N)");
        }
    }

    @Test
    void aMidEpochCheckpointNeedsTheSameSteps() {
        checkpointMidEpoch(new EpochProgress(1, 3, 20, 5));
        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), true);
        try (AdaPS node = start(resumed)) {
            assertThatThrownBy(() -> resumed.start(node, 10, out))
                    .hasMessage("checkpoint " + dir.resolve("MANIFEST-00000001") + " was taken in epoch 1 after step 3 "
                            + "of 20 (expected 10 steps per epoch, as this run has: give the options of the run that "
                            + "took it)");
        }
    }

    @Test
    void aMidEpochCheckpointNeedsTheSameNumberOfNodes() throws Exception {
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2, builder -> builder.table(TABLE))) {
            Concurrently.run(2, Duration.ofMinutes(1), id -> {
                Checkpointing checkpoints = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), false);
                checkpoints.begin(cluster.node(id));
                checkpoints.save(new EpochProgress(4, 3, 20, 5));
                cluster.node(id).checkpoint(dir);
            });
        }
        Checkpointing resumed = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), true);
        try (AdaPS node = start(resumed)) {
            assertThatThrownBy(() -> resumed.start(node, 20, out))
                    .hasMessage("checkpoint " + dir.resolve("MANIFEST-00000001") + " was taken in epoch 4 after step 3 "
                            + "of 20 on 2 node(s) (expected as many to continue mid-epoch, not 1)");
        }
    }

    private void checkpointMidEpoch(EpochProgress at) {
        Checkpointing checkpoints = new Checkpointing(dir, CheckpointInterval.everyEpochs(1), false);
        try (AdaPS node = start(checkpoints)) {
            checkpoints.save(at);
            node.checkpoint(dir);
        }
    }

    private static AdaPS start(Checkpointing checkpoints) {
        AdaPS node = checkpoints.configure(AdaPS.builder().table(TABLE)).build();
        checkpoints.begin(node);
        return node;
    }
}
