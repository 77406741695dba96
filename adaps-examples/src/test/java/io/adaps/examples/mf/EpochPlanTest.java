package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.adaps.examples.SpeedShares;

import io.adaps.api.Technique;
import org.junit.jupiter.api.Test;

class EpochPlanTest {
    private static final MfData.Split DATA =
            new SyntheticMatrix(new SyntheticMatrix.Spec(100, 80, 5_000, 4, 0.1, 1.1, 9)).sample().split(0.1, 10);

    @Test
    void staticTechniqueRunsHogwildOnAContiguousPart() {
        EpochPlan plan = EpochPlan.of(Technique.STATIC, DATA, 1, 2, row -> row % 2, 11);
        assertThat(plan).isInstanceOf(EpochPlan.Hogwild.class);
        assertThat(plan.train().values()).containsExactly(DATA.train().part(1, 2).values());
        assertThat(plan.test().values()).containsExactly(DATA.test().part(1, 2).values());
        assertThat(plan.describe()).isEqualTo("Hogwild schedule");
    }

    @Test
    void relocationRunsTheBlockedScheduleOnTheNodesRows() {
        EpochPlan plan = EpochPlan.of(Technique.RELOCATION_ONLY, DATA, 1, 2, row -> row % 2, 11);
        assertThat(plan).isInstanceOf(EpochPlan.Blocked.class);
        BlockPartition partition = BlockPartition.balanced(DATA.train(), 2);
        assertThat(plan.train().size()).isEqualTo(partition.shard(DATA.train(), 1).size());
        assertThat(plan.test().values()).containsExactly(partition.shard(DATA.test(), 1).values());
        assertThat(plan.describe()).isEqualTo("blocked schedule: " + 2 * EpochPlan.BLOCK_PASSES + " sub-epochs of "
                + EpochPlan.CHUNKS + " prefetched chunks");
    }

    @Test
    void adaptiveOnTheBlockedScheduleSignalsIntentInsteadOfLocalizing() {
        EpochPlan plan = EpochPlan.of(Technique.ADAPTIVE, Schedule.BLOCKED, DATA, 1, 2, row -> row % 2, 11);
        assertThat(plan).isInstanceOf(EpochPlan.Blocked.class);
        assertThat(((EpochPlan.Blocked) plan).byIntent()).isTrue();
        assertThat(((EpochPlan.Blocked) EpochPlan.of(Technique.RELOCATION_ONLY, DATA, 1, 2, row -> row % 2, 11))
                .byIntent()).isFalse();
        BlockPartition partition = BlockPartition.balanced(DATA.train(), 2);
        assertThat(plan.train().size()).isEqualTo(partition.shard(DATA.train(), 1).size());
        assertThat(plan.describe()).isEqualTo("blocked schedule: " + 2 * EpochPlan.BLOCK_PASSES + " sub-epochs of "
                + EpochPlan.CHUNKS + " chunks, with intent signals per sub-epoch");
        assertThat(EpochPlan.of(Technique.ADAPTIVE, Schedule.BLOCKED, DATA, 0, 1, row -> 0, 11))
                .as("a single node has nothing to move").isInstanceOf(EpochPlan.IntentHogwild.class);
    }

    @Test
    void aScheduleThatTheTechniqueCannotServeIsRefused() {
        assertThatThrownBy(() -> EpochPlan.of(Technique.STATIC, Schedule.BLOCKED, DATA, 0, 2, row -> row % 2, 11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--schedule=BLOCKED with --technique=STATIC (expected ADAPTIVE or RELOCATION_ONLY: the "
                        + "blocked schedule moves each column block to its node)");
        assertThatThrownBy(() -> EpochPlan.of(Technique.REPLICATION_ONLY, Schedule.BLOCKED, DATA, 0, 2,
                row -> row % 2, 11))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EpochPlan.of(Technique.RELOCATION_ONLY, Schedule.HOGWILD, DATA, 0, 2,
                row -> row % 2, 11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--schedule=HOGWILD with --technique=RELOCATION_ONLY (expected BLOCKED: relocation alone "
                        + "cannot serve columns that every node uses at once)");
    }

    @Test
    void adaptiveAndReplicatingTechniquesSignalIntentOnTheNodesRowsAndShareTheHottest() {
        BlockPartition partition = BlockPartition.sharingHotRows(DATA.train(), SpeedShares.even(2), row -> row % 2);
        for (Technique technique : new Technique[] {Technique.ADAPTIVE, Technique.REPLICATION_ONLY,
                Technique.FULL_REPLICATION}) {
            for (int node = 0; node < 2; node++) {
                EpochPlan plan = EpochPlan.of(technique, DATA, node, 2, row -> row % 2, 11);
                assertThat(plan).as("%s", technique).isInstanceOf(EpochPlan.IntentHogwild.class);
                EpochPlan.IntentHogwild intent = (EpochPlan.IntentHogwild) plan;
                assertThat(new int[] {intent.node(), intent.nodes()}).as("whose walk over the column blocks")
                        .containsExactly(node, 2);
                assertThat(plan.train().values()).containsExactly(partition.shard(DATA.train(), node).values());
                assertThat(plan.test().values()).containsExactly(partition.shard(DATA.test(), node).values());
                // A row belongs to one node only, unless it is among the hottest.
                for (int row : plan.train().rows()) {
                    assertThat(partition.nodeOfRow(row)).isIn(node, BlockPartition.SHARED);
                }
                assertThat(plan.describe()).isEqualTo("Hogwild on the node's rows and its share of the hottest rows, "
                        + "with intent signals for its rows per epoch and its columns per "
                        + IntentSchedule.CHUNKS_PER_INTENT + " chunks of "
                        + IntentSchedule.BATCHES_PER_CHUNK + " batches (at least " + IntentSchedule.MIN_CHUNKS
                        + " chunks per thread), each " + ColumnBlocks.WALK_BATCHES + " batches' entries by "
                        + ColumnBlocks.BLOCKS + " blocks of columns");
            }
        }
    }

    @Test
    void theNodesOfAnIntentPlanTrainEveryEntryOnce() {
        int nodes = 3;
        int train = 0;
        int test = 0;
        for (int node = 0; node < nodes; node++) {
            EpochPlan plan = EpochPlan.of(Technique.ADAPTIVE, DATA, node, nodes, row -> row % nodes, 11);
            train += plan.train().size();
            test += plan.test().size();
        }
        assertThat(train).isEqualTo(DATA.train().size());
        assertThat(test).isEqualTo(DATA.test().size());
    }

    @Test
    void aSingleNodeSignalsIntentOnAllEntriesUnlessStatic() {
        for (Technique technique : Technique.values()) {
            EpochPlan plan = EpochPlan.of(technique, DATA, 0, 1, row -> 0, 11);
            assertThat(plan).as("%s", technique).isInstanceOf(technique == Technique.STATIC
                    ? EpochPlan.Hogwild.class : EpochPlan.IntentHogwild.class);
            assertThat(plan.train().values()).containsExactly(DATA.train().values());
            assertThat(plan.test().values()).containsExactly(DATA.test().values());
        }
    }

    @Test
    void everyPlanOnAnyNodeScalesTheStepsByTheFrequencyInAllTrainingEntries() {
        StepScales expected = StepScales.byFrequency(DATA.train());
        assertThat(expected.damps()).isTrue();
        for (Technique technique : Technique.values()) {
            for (int nodes = 1; nodes <= 3; nodes++) {
                for (int node = 0; node < nodes; node++) {
                    StepScales scales = EpochPlan.of(technique, DATA, node, nodes, row -> 0, 11)
                            .scales();
                    assertThat(scales).as("%s, node %d of %d", technique, node, nodes).hasToString(expected.toString());
                    for (int row = 0; row < DATA.train().numRows(); row++) {
                        assertThat(scales.row(row)).isEqualTo(expected.row(row));
                    }
                    for (int col = 0; col < DATA.train().numCols(); col++) {
                        assertThat(scales.col(col)).isEqualTo(expected.col(col));
                    }
                }
            }
        }
    }

    @Test
    void plansByShareDealEveryEntryToOneNodeInTheShares() {
        double[] shares = {0.7, 0.3};
        for (Technique technique : new Technique[] {Technique.STATIC, Technique.ADAPTIVE}) {
            int dealt = 0;
            for (int node = 0; node < 2; node++) {
                EpochPlan plan = EpochPlan.byShares(technique, Schedule.defaultFor(technique), DATA, node, 2,
                        row -> row % 2, 11).apply(shares);
                assertThat(plan.dealsByShares()).isTrue();
                // Whole rows move: the shares are met to within a row or two of this small matrix.
                assertThat((double) plan.train().size()).as("%s, node %d", technique, node)
                        .isCloseTo(shares[node] * DATA.train().size(), within(0.05 * DATA.train().size()));
                dealt += plan.train().size();
            }
            assertThat(dealt).isEqualTo(DATA.train().size());
        }
        EpochPlan blocked = EpochPlan.byShares(Technique.ADAPTIVE, Schedule.BLOCKED, DATA, 0, 2, row -> row % 2, 11)
                .apply(shares);
        assertThat(blocked.dealsByShares()).isFalse();
        assertThat(blocked.train().values()).containsExactly(
                EpochPlan.of(Technique.ADAPTIVE, Schedule.BLOCKED, DATA, 0, 2, row -> row % 2, 11).train().values());
        assertThatThrownBy(() -> EpochPlan.byShares(Technique.ADAPTIVE, Schedule.HOGWILD, DATA, 0, 2, row -> row % 2,
                11).apply(new double[] {1})).hasMessage("shares.length=1 (expected 2, the nodes)");
    }

    @Test
    void refusesANodeOutOfRange() {
        for (Technique technique : Technique.values()) {
            assertThatThrownBy(() -> EpochPlan.of(technique, DATA, 2, 2, row -> row % 2, 11)).as("%s", technique)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("=2 (expected 0..1)");
        }
    }
}
