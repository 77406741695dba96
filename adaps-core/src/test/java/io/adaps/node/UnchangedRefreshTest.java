package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;

/**
 * An owner answers a replica's refresh with the value only when the value changed: replicas of
 * rows nobody updates cost a version per round, not a value.
 */
class UnchangedRefreshTest {
    private static final int ROWS = 2_000;
    private static final int VALUE_LENGTH = 32;

    @Test
    void idleReplicasAreRefreshedWithoutTheirValues() throws Exception {
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2,
                b -> b.table(TableSpec.of("t", ROWS, VALUE_LENGTH)).technique(Technique.FULL_REPLICATION))) {
            cluster.node(0).worker().waitSync(); // every replica learns its owner's version
            Worker worker = cluster.node(1).worker();
            worker.waitSync();
            NodeMetrics[] before = {cluster.node(0).metrics(), cluster.node(1).metrics()};
            for (int i = 0; i < 10; i++) {
                worker.waitSync();
            }
            NodeMetrics[] after = {cluster.node(0).metrics(), cluster.node(1).metrics()};
            // Both nodes run rounds on their own (node 0's are not awaited here), and a node
            // receives the answers to its own REFRESHes as well as its peer's REFRESHes. So count
            // the traffic of both against the rounds of both.
            long rounds = 0;
            long bytes = 0;
            for (int node = 0; node < 2; node++) {
                rounds += after[node].replication().syncRounds() - before[node].replication().syncRounds();
                bytes += after[node].bytesReceived() - before[node].bytesReceived();
            }
            int replicasPerNode = ROWS / 2;
            assertThat(rounds).isGreaterThanOrEqualTo(10);
            // Per replica and round: a REFRESH entry (20 bytes) and an UNCHANGED entry (12) are 32;
            // a REFRESHED entry would add a value (128). The margin covers headers and the rounds
            // under way at either snapshot.
            assertThat((double) bytes / rounds / replicasPerNode).as("bytes per replica per round, both directions")
                    .isLessThan(64);
        }
    }
}
