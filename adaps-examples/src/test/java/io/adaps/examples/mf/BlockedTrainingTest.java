package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.adaps.api.Consistency;
import io.adaps.api.NodeMetrics;
import io.adaps.api.Technique;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.examples.SteppedEpoch;
import io.adaps.testing.Concurrently;

/**
 * {@link MfTrainer}'s blocked epochs on a cluster of two in-process nodes with two threads each,
 * moved by hand ({@link Technique#RELOCATION_ONLY}) or by intent ({@link Technique#ADAPTIVE}):
 * every entry is trained once per epoch, the model improves, and training accesses are local: by
 * hand all of them; by intent nearly all (the library hands a block on as the node before lets it
 * go, so the first accesses of a sub-epoch may still find it on its way), and the blocks move
 * rather than being replicated.
 */
class BlockedTrainingTest {
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(400, 300, 60_000, 4, 0.1, 1.1, 21);
    private static final int NODES = 2;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Technique.class, names = {"RELOCATION_ONLY", "ADAPTIVE"})
    void everyNodeTrainsEachOfItsEntriesOncePerEpochAndTheModelImproves(Technique technique) throws Exception {
        MfData.Split data = new SyntheticMatrix(SPEC).sample().split(0.1, 22);
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(NODES,
                builder -> builder.table(MfTables.rowSpec(SPEC.rows(), 8, 23))
                        .table(MfTables.colSpec(SPEC.cols(), 8, 23))
                        .technique(technique)
                        // Hand-offs need clocks in step (HomeIntents); moves by hand work under any model.
                        .consistency(technique == Technique.ADAPTIVE ? Consistency.bsp() : Consistency.asp()))) {
            double[] initialErrors = new double[NODES];
            double[] finalErrors = new double[NODES];
            Concurrently.run(NODES, Duration.ofMinutes(1), id -> {
                try (MfTrainer trainer = new MfTrainer(cluster.node(id), MfTables.ROWS, MfTables.COLS, 0.1f, 0.01f,
                        2)) {
                    EpochPlan plan = EpochPlan.of(technique, Schedule.BLOCKED, data, id, NODES,
                            trainer.rowHomes(NODES), 24);
                    assertThat(plan).isInstanceOf(EpochPlan.Blocked.class);
                    initialErrors[id] = trainer.squaredErrors(plan.test());
                    NodeMetrics before = cluster.node(id).metrics();
                    EpochCuts cuts = new EpochCuts(cluster.node(id), Checkpointing.none());
                    SteppedEpoch steps = plan.epoch(trainer);
                    assertThat(steps.steps()).isEqualTo(NODES * EpochPlan.BLOCK_PASSES);
                    for (int epoch = 1; epoch <= 3; epoch++) {
                        AtomicLong trained = new AtomicLong();
                        assertThat(cuts.train(steps, EpochProgress.start(epoch, steps.steps()), trained::addAndGet))
                                .isEqualTo(plan.train().size());
                        assertThat(trained.get()).isEqualTo(plan.train().size());
                        // Every node's epoch ends before any starts the next (and evaluates, last).
                        cluster.node(id).barrier();
                    }
                    NodeMetrics after = cluster.node(id).metrics();
                    long remote = after.remotePulls() + after.remotePushes() - before.remotePulls()
                            - before.remotePushes();
                    long local = after.localPulls() + after.localPushes() - before.localPulls() - before.localPushes();
                    assertThat(local).isPositive();
                    assertThat(after.relocationsIn()).isPositive();
                    if (technique == Technique.RELOCATION_ONLY) {
                        // Training moved the node's rows and each block to it before use: nothing remote.
                        assertThat(remote).isZero();
                    } else {
                        assertThat(remote).as("remote accesses of %d", local + remote).isLessThan(local / 10);
                        // Hand-offs, not replicas: a replica only where a release came too late (this
                        // test's sub-epochs last a millisecond or two, and two cores run four nodes' threads).
                        long moved = after.replication().managedRelocations();
                        assertThat(moved).isPositive();
                        assertThat(after.replication().replicasCreated()).as("replicas, with %d moves", moved)
                                .isLessThan(moved / 4);
                    }
                    finalErrors[id] = trainer.squaredErrors(plan.test());
                }
            });
            double initial = Math.sqrt((initialErrors[0] + initialErrors[1]) / data.test().size());
            double trained = Math.sqrt((finalErrors[0] + finalErrors[1]) / data.test().size());
            assertThat(trained).isLessThan(initial / 2);
        }
    }
}
