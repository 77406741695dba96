package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.adaps.api.AdaPS;
import org.junit.jupiter.api.Test;

class ClusterStatsTest {
    @Test
    void eachRoundCombinesItsOwnSums() {
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec(3)).build()) {
            ClusterStats stats = new ClusterStats(node);
            ClusterStats.Round first = stats.combine(0, new ClusterStats.NodeSums(8.0, 2, 27.0, 3, 0, 0));
            assertThat(first.trainMean()).isCloseTo(4.0, offset(1e-6));
            assertThat(first.trainRmse()).isCloseTo(2.0, offset(1e-6));
            assertThat(first.testRmse()).isCloseTo(3.0, offset(1e-6));
            assertThat(first.localFraction()).isNaN();

            // A later round starts from zero: nothing of round 0 is left in it.
            ClusterStats.Round second = stats.combine(1, new ClusterStats.NodeSums(0.25, 4, 1.0, 1, 3, 1));
            assertThat(second.trainRmse()).isCloseTo(0.25, offset(1e-6));
            assertThat(second.testRmse()).isCloseTo(1.0, offset(1e-6));
            assertThat(second.localFraction()).isCloseTo(0.75, offset(1e-6));

            assertThat(stats.combine(2, new ClusterStats.NodeSums(0, 0, 0, 0, 0, 0)).testRmse()).isNaN();
        }
    }

    @Test
    void refusesBadArguments() {
        assertThatThrownBy(() -> ClusterStats.spec(0)).hasMessage("rounds=0 (expected > 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, -1, 1, 1, 0, 0))
                .hasMessage("trainCount=-1 (expected >= 0)");
        assertThatThrownBy(() -> new ClusterStats.NodeSums(1, 1, 1, 1, 0, -2))
                .hasMessage("remoteAccesses=-2 (expected >= 0)");
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec(1)).build()) {
            ClusterStats stats = new ClusterStats(node);
            assertThatThrownBy(() -> stats.combine(1, new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0)))
                    .hasMessageStartingWith("row=1 (expected 0..0");
        }
    }
}
