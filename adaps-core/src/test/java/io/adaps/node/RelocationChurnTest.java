package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;

/**
 * Rows that move back and forth for a long time: the slots they leave are reused, so memory
 * stays at the peak number of rows held at once, and the values keep every update.
 */
class RelocationChurnTest {
    @Test
    void constantRelocationChurnReusesSlots() throws Exception {
        int rounds = 200;
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2, b -> b.table(TableSpec.of("t", 200, 8)))) {
            AdaPS[] nodes = {cluster.node(0), cluster.node(1)};
            Table table = nodes[0].table("t");
            long[] moving = new long[100]; // rows 0..99: homed at node 0
            Arrays.setAll(moving, i -> i);
            float[] ones = new float[moving.length * 8];
            Arrays.fill(ones, 1f);
            TableView[] views = {nodes[0].worker().table("t"), nodes[1].worker().table("t")};
            for (int round = 0; round < rounds; round++) {
                TableView to = views[(round + 1) % 2];
                to.localize(moving);
                to.push(moving, ones);
            }
            for (int n = 0; n < 2; n++) {
                assertThat(nodes[n].metrics().relocationsIn()).isEqualTo(100L * rounds / 2);
                // Peak: node 1 holds its own 100 rows and the 100 that visit it.
                assertThat(Internals.slotHighWaterMark(nodes[n], table)).as("slots used by node %d", n).isLessThanOrEqualTo(200);
            }
            float[] values = new float[moving.length * 8];
            views[1].pull(moving, values);
            for (float value : values) {
                assertThat(value).isEqualTo(rounds);
            }
        }
    }
}
