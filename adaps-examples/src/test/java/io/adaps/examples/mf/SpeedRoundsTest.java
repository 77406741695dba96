package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import io.adaps.api.AdaPS;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.Concurrently;
import org.junit.jupiter.api.Test;

class SpeedRoundsTest {
    private static final double[] HALVES = {0.5, 0.5};

    /** Node 0 trained 1,000 units in {@code busy} s and node 1 as many in {@code slower} times that, in halves. */
    private static ClusterStats.NodeSums sums(int node, double busy, double slower) {
        return new ClusterStats.NodeSums(1, 1, 1, 1, 0, 0, 1000, node == 0 ? busy : busy * slower, 0.5);
    }

    private static ClusterStats.Round round(double busy, double slower) {
        return new ClusterStats.Round(1, 1, 1, 2000, new long[] {1000, 1000}, new double[] {busy, busy * slower},
                HALVES);
    }

    @Test
    void theSpeedsAreMeasuredOverTheLatestEpochsButTheFirstThatSpanASecond() {
        try (AdaPS node = AdaPS.builder().table(ClusterStats.spec()).build()) {
            SpeedRounds speeds = new SpeedRounds(new ClusterStats(node));
            // Epoch 1: node 1 took three times as long, but the first epoch is left out.
            assertThat(speeds.next(round(2, 3))).containsExactly(HALVES);
            // Epoch 2: node 1 twice as long, but 0.5 s of node 0 measure too little.
            assertThat(speeds.next(round(0.5, 2))).containsExactly(HALVES);
            // Epoch 3: the same; epochs 2 and 3 span 1 s of node 0: half way from 1/2 to 2/3.
            assertThat(speeds.next(round(0.5, 2))[0]).isCloseTo(7.0 / 12, within(1e-6));
            // Epoch 4, a second long and equal: it alone spans enough, and the halves stay.
            assertThat(speeds.next(round(1, 1))).containsExactly(HALVES);
            assertThatThrownBy(() -> speeds.resume(1)).hasMessage("epoch=1 (expected >= 2)");
        }
    }

    @Test
    void aResumedRunComputesTheSharesFromTheRoundsItReadsAgain() throws Exception {
        double[][] resumedAt4 = new double[2][];
        double[][] resumedAt3 = new double[2][];
        double[][] running = new double[2][];
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2, builder -> builder.table(ClusterStats.spec()))) {
            Concurrently.run(2, Duration.ofMinutes(1), id -> {
                ClusterStats stats = new ClusterStats(cluster.node(id));
                SpeedRounds speeds = new SpeedRounds(stats);
                speeds.next(stats.combine(1, sums(id, 2, 3)));
                speeds.next(stats.combine(2, sums(id, 0.5, 2)));
                running[id] = speeds.next(stats.combine(3, sums(id, 0.5, 2)));
                resumedAt4[id] = new SpeedRounds(stats).resume(4);
                resumedAt3[id] = new SpeedRounds(stats).resume(3);
            });
        }
        for (int id = 0; id < 2; id++) {
            assertThat(running[id][0]).isCloseTo(7.0 / 12, within(1e-6));
            assertThat(resumedAt4[id]).containsExactly(running[id]);
            assertThat(resumedAt3[id]).containsExactly(HALVES);
        }
    }
}
