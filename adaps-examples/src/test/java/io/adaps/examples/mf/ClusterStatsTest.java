package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;

import io.adaps.api.AdaPS;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.Concurrently;
import org.junit.jupiter.api.Test;

class ClusterStatsTest {
    @Test
    void eachRoundCombinesItsOwnSums() {
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec()).build()) {
            ClusterStats stats = new ClusterStats(node);
            ClusterStats.Round first = stats.combine(0, new ClusterStats.NodeSums(8.0, 2, 27.0, 3, 0, 0, 0, 0, 1));
            assertThat(first.trainMean()).isCloseTo(4.0, offset(1e-6));
            assertThat(first.trainRmse()).isCloseTo(2.0, offset(1e-6));
            assertThat(first.testRmse()).isCloseTo(3.0, offset(1e-6));
            assertThat(first.localFraction()).isNaN();
            assertThat(first.trained()).isZero();

            // A later round starts from zero: nothing of round 0 is left in it.
            ClusterStats.Round second = stats.combine(1, new ClusterStats.NodeSums(0.25, 4, 1.0, 1, 3, 1, 7, 0, 1));
            assertThat(second.trainRmse()).isCloseTo(0.25, offset(1e-6));
            assertThat(second.testRmse()).isCloseTo(1.0, offset(1e-6));
            assertThat(second.localFraction()).isCloseTo(0.75, offset(1e-6));
            assertThat(second.trained()).isEqualTo(7);

            assertThat(stats.combine(2, new ClusterStats.NodeSums(0, 0, 0, 0, 0, 0, 0, 0, 1)).testRmse()).isNaN();
        }
    }

    @Test
    void aRoundCombinedAgainIsNotCountedTwice() {
        // As after a restore from a checkpoint taken at the round's barrier.
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec()).build()) {
            ClusterStats stats = new ClusterStats(node);
            stats.combine(3, new ClusterStats.NodeSums(8.0, 2, 27.0, 3, 1, 1, 5, 0, 1));
            ClusterStats.Round again = stats.combine(3, new ClusterStats.NodeSums(2.0, 2, 3.0, 3, 1, 0, 0, 0, 1));
            assertThat(again.trainMean()).isCloseTo(1.0, offset(1e-6));
            assertThat(again.testMean()).isCloseTo(1.0, offset(1e-6));
            assertThat(again.localFraction()).isEqualTo(1.0);
            assertThat(again.trained()).isZero();
        }
    }

    @Test
    void theNodesSumsAddUpAndTheEntriesTrainedExactly() throws Exception {
        // More than 2^24 per node: a float alone would round them.
        long[] trained = {(1L << 40) + 12_345_679, 16_777_217};
        ClusterStats.Round[][] rounds = new ClusterStats.Round[2][3];
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2, builder -> builder.table(ClusterStats.spec()))) {
            Concurrently.run(2, Duration.ofMinutes(1), id -> {
                ClusterStats stats = new ClusterStats(cluster.node(id));
                for (int round = 0; round < 3; round++) {
                    rounds[id][round] = stats.combine(round, new ClusterStats.NodeSums(id + round, 1, 1, 1, id, 1 - id,
                            trained[id] * (round + 1), 0, 0.5));
                }
            });
        }
        for (int round = 0; round < 3; round++) {
            for (int id = 0; id < 2; id++) {
                ClusterStats.Round seen = rounds[id][round];
                assertThat(seen.trainMean()).isCloseTo((1 + 2 * round) / 2.0, offset(1e-6));
                assertThat(seen.localFraction()).isCloseTo(0.5, offset(1e-6));
                assertThat(seen.trained()).isEqualTo((trained[0] + trained[1]) * (round + 1));
            }
        }
    }

    @Test
    void everyNodeSeesWhatEveryNodeTrainedFromWhichShareAndHowLongAndAResumedRunCanReadARoundAgain() throws Exception {
        ClusterStats.Round[] seen = new ClusterStats.Round[2];
        ClusterStats.Round[] readAgain = new ClusterStats.Round[2];
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2, builder -> builder.table(ClusterStats.spec()))) {
            Concurrently.run(2, Duration.ofMinutes(1), id -> {
                ClusterStats stats = new ClusterStats(cluster.node(id));
                // Node 0 trained 3,000 words in 1.5 s, node 1 1,000 in 2 s.
                seen[id] = stats.combine(1, new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 3000 - 2000 * id,
                        1.5 + 0.5 * id, 0.625 - 0.25 * id));
                stats.combine(2, new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 1, 1, 0.5));
                readAgain[id] = stats.read(1);
            });
        }
        for (int id = 0; id < 2; id++) {
            assertThat(seen[id].nodeTrained()).containsExactly(3000, 1000);
            assertThat(seen[id].nodeBusySeconds()).containsExactly(1.5, 2.0);
            assertThat(readAgain[id].nodeTrained()).containsExactly(3000, 1000);
            assertThat(readAgain[id].nodeBusySeconds()).containsExactly(1.5, 2.0);
            assertThat(readAgain[id].nodeShares()).containsExactly(0.625, 0.375);
            assertThat(readAgain[id].trained()).isEqualTo(4000);
        }
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec()).build()) {
            ClusterStats stats = new ClusterStats(node);
            assertThat(stats.combine(0, new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 5, 0, 1)).nodeBusySeconds())
                    .containsExactly(0.0);
            // A round no node combined: nothing trained.
            assertThat(stats.read(1).nodeTrained()).containsExactly(0);
        }
    }

    @Test
    void refusesBadArguments() {
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, -1, 1, 1, 0, 0, 0, 0, 1))
                .hasMessage("trainCount=-1 (expected >= 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, 1, 1, 1, 0, -2, 0, 0, 1))
                .hasMessage("remoteAccesses=-2 (expected >= 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, -3, 0, 1))
                .hasMessage("trained=-3 (expected >= 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 0, Double.NaN, 1))
                .hasMessage("busySeconds=NaN (expected a finite value >= 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 0, 0, 1.5))
                .hasMessage("share=1.5 (expected 0..1)");
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec()).build()) {
            ClusterStats stats = new ClusterStats(node);
            assertThatThrownBy(() -> stats.combine(-1, new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 0, 0, 1)))
                    .hasMessage("round=-1 (expected >= 0)");
            assertThatThrownBy(() -> stats.read(-2)).hasMessage("round=-2 (expected >= 0)");
            assertThatThrownBy(() -> new ClusterStats(node, "nope")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
