package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.adaps.api.Technique;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.examples.SteppedEpoch;
import io.adaps.testing.Concurrently;

/**
 * {@link MfTrainer}'s intent-signalling epochs under {@link Technique#ADAPTIVE} on a cluster of two
 * in-process nodes with one thread each: every entry is trained once per epoch, intent is signalled
 * once per epoch for exactly the share's rows and once per group of chunks for exactly its
 * columns, and the model improves.
 */
class IntentTrainingTest {
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(400, 300, 60_000, 4, 0.1, 1.1, 31);
    private static final int NODES = 2;
    private static final int EPOCHS = 2;
    /**
     * Small batches; a node's 27,000 entries make {@link IntentSchedule#MIN_CHUNKS} chunks, so several
     * groups of chunks.
     */
    private static final int BATCH = 16;

    @Test
    void twoNodesTrainEveryEntryOncePerEpochSignalIntentPerEpochAndGroupOfChunksAndTheModelImproves()
            throws Exception {
        MfData.Split data = new SyntheticMatrix(SPEC).sample().split(0.1, 32);
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(NODES,
                builder -> builder.table(MfTables.rowSpec(SPEC.rows(), 8, 33))
                        .table(MfTables.colSpec(SPEC.cols(), 8, 33))
                        .technique(Technique.ADAPTIVE))) {
            double[][] testErrors = new double[EPOCHS + 1][NODES];
            Concurrently.run(NODES, Duration.ofMinutes(1), id -> {
                try (MfTrainer trainer = new MfTrainer(cluster.node(id), MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f,
                        1, BATCH)) {
                    EpochPlan plan = EpochPlan.of(Technique.ADAPTIVE, data, id, NODES, trainer.rowHomes(NODES), 34);
                    assertThat(plan).isInstanceOf(EpochPlan.IntentHogwild.class);
                    testErrors[0][id] = trainer.squaredErrors(plan.test());
                    IntentSchedule schedule = new IntentSchedule(plan.train(), 1, BATCH);
                    long keysPerEpoch = keysPerEpoch(schedule);
                    assertThat(schedule.chunks(0)).isGreaterThan(2 * IntentSchedule.CHUNKS_PER_INTENT);
                    long intentsBefore = cluster.node(id).metrics().intentsSignaled();
                    EpochCuts cuts = new EpochCuts(cluster.node(id), Checkpointing.none());
                    SteppedEpoch steps = plan.epoch(trainer);
                    for (int epoch = 1; epoch <= EPOCHS; epoch++) {
                        AtomicLong trained = new AtomicLong();
                        cuts.train(steps, EpochProgress.start(epoch, steps.steps()), trained::addAndGet);
                        assertThat(trained.get()).isEqualTo(plan.train().size());
                        assertThat(cluster.node(id).metrics().intentsSignaled() - intentsBefore)
                                .isEqualTo(epoch * keysPerEpoch);
                        // Every node's updates are in before any node evaluates.
                        cluster.node(id).barrier();
                        testErrors[epoch][id] = trainer.squaredErrors(plan.test());
                        cluster.node(id).barrier();
                    }
                }
            });
            double previous = Double.POSITIVE_INFINITY;
            for (int epoch = 0; epoch <= EPOCHS; epoch++) {
                double rmse = Math.sqrt((testErrors[epoch][0] + testErrors[epoch][1]) / data.test().size());
                assertThat(rmse).as("test RMSE after epoch %d", epoch).isFinite().isLessThan(previous);
                previous = rmse;
            }
        }
    }

    /**
     * The keys a thread names in an epoch: the distinct rows of its share, and the distinct columns
     * of each of its groups of chunks.
     */
    private static long keysPerEpoch(IntentSchedule schedule) {
        long sum = Arrays.stream(schedule.entries().rows()).distinct().count();
        for (int chunk = 0; chunk < schedule.chunks(0); chunk = schedule.intentEnd(0, chunk)) {
            sum += Arrays.stream(schedule.entries().cols(), schedule.chunkFrom(0, chunk),
                    schedule.chunkTo(0, schedule.intentEnd(0, chunk) - 1)).distinct().count();
        }
        return sum;
    }
}
