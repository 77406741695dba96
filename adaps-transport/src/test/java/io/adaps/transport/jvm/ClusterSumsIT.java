package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Three node JVMs push to and pull from each other's rows concurrently: no update is lost, no read is torn. */
class ClusterSumsIT {
    private static final int NODES = 3;

    @Test
    void everyBatchCrossesNodes() {
        int share = (SumsNode.ROWS + NODES - 1) / NODES; // range partitioning
        for (int node = 0; node < NODES; node++) {
            for (int round = 0; round < SumsNode.ROUNDS; round++) {
                Set<Integer> homes = new HashSet<>();
                for (int j = 0; j < SumsNode.BATCH; j++) {
                    homes.add(SumsNode.row(node, 0, round, j) / share);
                }
                assertThat(homes).as("homes of batch %d of node %d", round, node).hasSize(NODES);
            }
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void pushesOfAllWorkersOfAllNodesAddUpExactlyAndPullsAreNeverTorn() throws Exception {
        // Fails unless every node exits 0.
        NodeOutput output = NodeJvms.run(NODES, SumsNode.class, List.of(), Duration.ofSeconds(60));

        long total = (long) NODES * SumsNode.WORKERS * SumsNode.ROUNDS * SumsNode.BATCH;
        long pulled = (long) SumsNode.WORKERS * SumsNode.ROUNDS * SumsNode.BATCH;
        for (int node = 0; node < NODES; node++) {
            assertThat(output.text(node))
                    .contains("sums exact: rows=" + SumsNode.ROWS + " total=" + total)
                    .contains("pulled " + pulled + " values, torn or impossible 0")
                    .containsPattern("remote pushes [1-9]\\d*, remote pulls [1-9]\\d*");
        }
    }
}
