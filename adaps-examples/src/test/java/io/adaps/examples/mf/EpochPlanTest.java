package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import io.adaps.api.Technique;
import org.junit.jupiter.api.Test;

class EpochPlanTest {
    private static final MfData.Split DATA =
            new SyntheticMatrix(new SyntheticMatrix.Spec(100, 80, 5_000, 4, 0.1, 1.1, 9)).sample().split(0.1, 10);

    @Test
    void staticTechniqueRunsHogwildOnAContiguousPart() {
        EpochPlan plan = EpochPlan.of(Technique.STATIC, DATA, 1, 2, 11);
        assertThat(plan).isInstanceOf(EpochPlan.Hogwild.class);
        assertThat(plan.train().values()).containsExactly(DATA.train().part(1, 2).values());
        assertThat(plan.test().values()).containsExactly(DATA.test().part(1, 2).values());
        assertThat(plan.describe()).isEqualTo("Hogwild schedule");
    }

    @Test
    void relocationRunsTheBlockedScheduleOnTheNodesRows() {
        EpochPlan plan = EpochPlan.of(Technique.RELOCATION_ONLY, DATA, 1, 2, 11);
        assertThat(plan).isInstanceOf(EpochPlan.Blocked.class);
        BlockPartition partition = BlockPartition.balanced(DATA.train(), 2);
        assertThat(plan.train().size()).isEqualTo(partition.shard(DATA.train(), 1).size());
        assertThat(plan.test().values()).containsExactly(partition.shard(DATA.test(), 1).values());
        assertThat(plan.describe()).isEqualTo("blocked schedule: " + 2 * EpochPlan.BLOCK_PASSES + " sub-epochs of "
                + EpochPlan.CHUNKS + " prefetched chunks");
    }

    @Test
    void aSingleNodeRunsHogwildWhateverTheTechnique() {
        for (Technique technique : Technique.values()) {
            EpochPlan plan = EpochPlan.of(technique, DATA, 0, 1, 11);
            assertThat(plan).as("%s", technique).isInstanceOf(EpochPlan.Hogwild.class);
            assertThat(plan.train().size()).isEqualTo(DATA.train().size());
        }
    }
}
