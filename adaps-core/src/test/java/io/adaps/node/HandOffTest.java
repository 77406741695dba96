package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.store.SlotKind;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * Issue 13: a block of keys that the nodes use one after the other, as the blocked schedule of
 * distributed SGD passes column blocks from node to node, is handed from node to node under
 * {@link Technique#ADAPTIVE}: each node owns it while it uses it, and no replica is ever made,
 * although every node announces its intent a window ahead, while the node before it still uses
 * the block. Every update lands exactly once, also when the other nodes push to the block all
 * along without intent (remote pushes that chase the block from node to node). The nodes take
 * turns at barriers under {@code bsp}, whose clocks keep them in step: only then are intents in
 * adjacent clocks one after the other in time (see {@link io.adaps.intent.HomeIntents}).
 */
class HandOffTest {
    private static final int NODES = 3;
    private static final int ROWS = 60;
    private static final int CLOCKS_PER_PHASE = 4;
    private static final int PHASES = 3 * NODES;
    /**
     * Single-row pulls of rows homed at the node itself per clock, by every node: the table then
     * counts as read row by row, not in batches, whose keys {@code ADAPTIVE} would leave in place.
     */
    private static final int READS_PER_CLOCK = 10;
    private static final Duration HANDED_WITHIN = Duration.ofSeconds(20);

    @ParameterizedTest(name = "other nodes push too: {0}")
    @ValueSource(booleans = {false, true})
    void issue13_aBlockUsedByOneNodeAfterAnotherIsHandedOnNotReplicated(boolean othersPush) throws Exception {
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(NODES,
                b -> b.table(TableSpec.of("t", ROWS, 1)).technique(Technique.ADAPTIVE).consistency(Consistency.bsp()))) {
            AdaPS[] nodes = new AdaPS[NODES];
            Arrays.setAll(nodes, cluster::node);
            Table table = nodes[0].table("t");
            long[] block = new long[10]; // rows 0..9, homed at node 0 (its rows are 0..19)
            Arrays.setAll(block, i -> i);
            float[] one = new float[block.length];
            Arrays.fill(one, 1);
            Concurrently.run(NODES, Duration.ofMinutes(2), n -> {
                Worker worker = nodes[n].worker();
                TableView view = worker.table("t");
                float[] value = new float[1];
                for (int phase = 0; phase < PHASES; phase++) {
                    // Phase p is node p mod NODES's: it says so at the start of the phase before.
                    if (phase == 0 && n == 0) {
                        view.intent(block, 0, CLOCKS_PER_PHASE);
                    }
                    if ((phase + 1) % NODES == n && phase + 1 < PHASES) {
                        long from = (long) (phase + 1) * CLOCKS_PER_PHASE;
                        view.intent(block, from, from + CLOCKS_PER_PHASE);
                    }
                    if (phase % NODES == n) {
                        try {
                            Await.until("node " + n + " owns the block in phase " + phase, HANDED_WITHIN,
                                    () -> ownsAll(nodes[n], table, block));
                        } catch (AssertionError e) {
                            throw new AssertionError(e.getMessage() + "; " + describe(nodes, table, block), e);
                        }
                    }
                    for (int c = 0; c < CLOCKS_PER_PHASE; c++) {
                        for (int r = 0; r < READS_PER_CLOCK; r++) {
                            view.pull(ROWS / NODES * n + block.length + r, value, 0);
                        }
                        if (othersPush || phase % NODES == n) {
                            view.push(block, one);
                        }
                        worker.advanceClock();
                    }
                    nodes[n].barrier();
                }
                worker.waitSync();
            });
            float[] values = new float[block.length];
            nodes[0].worker().table("t").pull(block, values);
            float[] expected = new float[block.length];
            Arrays.fill(expected, (othersPush ? NODES : 1) * PHASES * CLOCKS_PER_PHASE);
            assertThat(values).as("every push once").containsExactly(expected);
            for (AdaPS node : nodes) {
                assertThat(node.metrics().replication().replicasCreated()).as("replicas").isZero();
            }
            long moved = Arrays.stream(nodes).mapToLong(node -> node.metrics().replication().managedRelocations()).sum();
            assertThat(moved).as("relocations the managers asked for").isGreaterThanOrEqualTo((long) (PHASES - 1) * block.length);
        }
    }

    /** Where the block's rows are, node by node, and what each node's manager did. */
    private static String describe(AdaPS[] nodes, Table table, long[] rows) {
        StringBuilder text = new StringBuilder();
        for (AdaPS node : nodes) {
            text.append("node ").append(node.nodeId()).append(": ");
            for (long row : rows) {
                text.append(Internals.kindOf(node, table, row)).append(' ');
            }
            text.append(node.metrics().replication()).append("; ");
        }
        return text.toString();
    }

    private static boolean ownsAll(AdaPS node, Table table, long[] rows) {
        for (long row : rows) {
            if (Internals.kindOf(node, table, row) != SlotKind.OWNED) {
                return false;
            }
        }
        return true;
    }
}
