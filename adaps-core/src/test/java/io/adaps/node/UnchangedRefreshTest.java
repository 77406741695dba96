package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.cluster.TestCluster;
import io.adaps.transport.InJvmNetwork;
import io.adaps.transport.InJvmTransport;

/**
 * An owner answers a replica's refresh with the value only when the value changed: replicas of
 * rows nobody updates cost a version per round, not a value.
 */
class UnchangedRefreshTest {
    private static final AtomicInteger PORTS = new AtomicInteger(20_000);
    private static final int ROWS = 2_000;
    private static final int VALUE_LENGTH = 32;

    @Test
    void idleReplicasAreRefreshedWithoutTheirValues() throws Exception {
        InJvmNetwork network = new InJvmNetwork();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            addresses.add("injvm:" + PORTS.getAndIncrement());
        }
        try (TestCluster cluster = new TestCluster(2, addresses, i -> new InJvmTransport(network),
                b -> b.table(TableSpec.of("t", ROWS, VALUE_LENGTH)).technique(Technique.FULL_REPLICATION))) {
            Worker worker = cluster.node(1).worker();
            worker.waitSync(); // every replica learns its owner's version
            NodeMetrics before = cluster.node(1).metrics();
            for (int i = 0; i < 5; i++) {
                worker.waitSync();
            }
            NodeMetrics after = cluster.node(1).metrics();
            long rounds = after.replication().syncRounds() - before.replication().syncRounds();
            long bytes = after.bytesReceived() - before.bytesReceived();
            int replicas = ROWS / 2;
            assertThat(rounds).isGreaterThanOrEqualTo(5);
            // A value would be 4 + 8 + 128 bytes per replica; a version alone is 12.
            assertThat((double) bytes / rounds / replicas).as("bytes received per replica per round")
                    .isLessThan(20);
        }
    }
}
