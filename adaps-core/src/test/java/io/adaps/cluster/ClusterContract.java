package io.adaps.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.ClusterException;
import io.adaps.api.Initializers;
import io.adaps.api.NodeMetrics;
import io.adaps.api.Partitioning;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.api.transport.Transport;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * The guarantees of the distributed parameter server, written once and run over every transport
 * (extend it and register the transport's {@link ClusterFixture}).
 */
public abstract class ClusterContract {
    /** The transport under test: the concrete test class's {@link ClusterFixture}. */
    private ClusterFixture fixture;

    @BeforeEach
    void useFixture(ClusterFixture fixture) {
        this.fixture = fixture;
    }

    /** Operations per worker in the invariant tests. */
    protected int operations() {
        return 3_000;
    }

    private TestCluster cluster(int nodes, Partitioning partitioning, TableSpec... tables) throws InterruptedException {
        return fixture.cluster(nodes, builder -> {
            for (TableSpec table : tables) {
                builder.table(table);
            }
            return builder.partitioning(partitioning);
        });
    }

    /** Runs {@code body(node, worker)} on {@code workersPerNode} threads of every node. */
    private static void onAllWorkers(TestCluster cluster, int workersPerNode, WorkerBody body) throws Exception {
        Concurrently.run(cluster.size() * workersPerNode, Duration.ofMinutes(3), t -> {
            int node = t / workersPerNode;
            body.run(node, t % workersPerNode, cluster.node(node).worker());
        });
    }

    interface WorkerBody {
        void run(int node, int workerIndex, Worker worker) throws Exception;
    }

    @Test
    void pushesFromEveryWorkerOnEveryNodeSumExactly() throws Exception {
        int rows = 37;
        int valueLength = 5;
        try (TestCluster cluster = cluster(4, Partitioning.RANGE, TableSpec.of("a", rows, valueLength),
                TableSpec.of("b", 11, 3))) {
            onAllWorkers(cluster, 2, (node, w, worker) -> {
                SplittableRandom random = new SplittableRandom(node * 31L + w);
                long[] keys = new long[4];
                float[] updates = new float[4 * valueLength];
                Arrays.fill(updates, 1f);
                TableView a = worker.table("a");
                for (int op = 0; op < operations(); op++) {
                    for (int k = 0; k < keys.length; k++) {
                        keys[k] = random.nextInt(rows);
                    }
                    switch (op % 4) {
                        case 0 -> a.push(keys, updates);
                        case 1 -> a.push(keys[0], updates, 0);
                        case 2 -> worker.waitFor(a.pushAsync(keys, 0, 4, updates, 0));
                        default -> a.pushAsync(keys, 0, 2, updates, 0);
                    }
                    // table b: global keys spanning both tables' ranges
                    worker.push(new long[] {rows + random.nextInt(11)}, new float[3]);
                }
                worker.waitAll();
            });
            float[] all = new float[rows * valueLength];
            long[] allRows = new long[rows];
            for (int r = 0; r < rows; r++) {
                allRows[r] = r;
            }
            // Every node sees the same values; the total is exactly what was pushed.
            long expectedPerComponent = 8L * (operations() / 4) * (4 + 1 + 4 + 2);
            for (int n = 0; n < 4; n++) {
                cluster.node(n).worker().table("a").pull(allRows, all);
                double total = 0;
                for (int r = 0; r < rows; r++) {
                    for (int i = 0; i < valueLength; i++) {
                        assertThat(all[r * valueLength + i]).isEqualTo(all[r * valueLength]);
                    }
                    total += all[r * valueLength];
                }
                assertThat((long) total).as("sum seen from node %d", n).isEqualTo(expectedPerComponent);
            }
            NodeMetrics metrics = cluster.node(1).metrics();
            assertThat(metrics.remotePushes()).isPositive();
            assertThat(metrics.localPushes()).isPositive();
            assertThat(metrics.messagesSent()).isPositive();
            assertThat(metrics.bytesReceived()).isPositive();
            assertThat(metrics.peers()).hasSize(3).allSatisfy(p -> assertThat(p.roundTrips()).isPositive());
        }
    }

    @Test
    void pullsAcrossNodesAreNeverTornAndNeverGoBack() throws Exception {
        int valueLength = 128;
        try (TestCluster cluster = cluster(3, Partitioning.HASH, TableSpec.of("wide", 6, valueLength))) {
            AtomicBoolean writing = new AtomicBoolean(true);
            onAllWorkers(cluster, 2, (node, w, worker) -> {
                float[] value = new float[valueLength];
                if (w == 0) {
                    Arrays.fill(value, 1f);
                    for (int op = 0; op < operations(); op++) {
                        worker.push(op % 6, value, 0);
                    }
                    worker.waitAll();
                    if (node == 0) {
                        writing.set(false);
                    }
                } else {
                    float[] last = new float[6];
                    int reads = 0;
                    while (writing.get() || reads < 100) {
                        int key = reads++ % 6;
                        worker.pull(key, value, 0);
                        for (int i = 1; i < valueLength; i++) {
                            if (value[i] != value[0]) {
                                throw new AssertionError("torn pull of key " + key + ": " + value[0] + " vs " + value[i]);
                            }
                        }
                        if (value[0] < last[key]) {
                            throw new AssertionError("key " + key + " went back from " + last[key] + " to " + value[0]);
                        }
                        last[key] = value[0];
                    }
                }
            });
        }
    }

    @Test
    void updateRulesRunAtTheHomeNodeAndSetReplaces() throws Exception {
        try (TestCluster cluster = cluster(2, Partitioning.RANGE,
                TableSpec.of("w", 4, 2).withInitializer(Initializers.uniform(0f, 1f, 9))
                        .withUpdateRule(UpdateRules.adagrad(0.5f, 1e-3f)))) {
            Worker w0 = cluster.node(0).worker();
            Worker w1 = cluster.node(1).worker();
            Table table = cluster.node(0).table("w");
            float[] initial = new float[2];
            table.spec().initializer().initialize(3, initial, 0, 2);
            // row 3 lives at node 1; node 0 pushes twice, node 1 reads.
            w0.push(3, new float[] {2f, -1f}, 0);
            w0.push(3, new float[] {2f, -1f}, 0);
            float[] value = new float[2];
            w1.pull(3, value, 0);
            float a0 = 4f;
            float a1 = 1f;
            float expected0 = initial[0] - 0.5f * 2f / ((float) Math.sqrt(a0) + 1e-3f);
            expected0 = expected0 - 0.5f * 2f / ((float) Math.sqrt(a0 + 4f) + 1e-3f);
            float expected1 = initial[1] + 0.5f / ((float) Math.sqrt(a1) + 1e-3f);
            expected1 = expected1 + 0.5f / ((float) Math.sqrt(a1 + 1f) + 1e-3f);
            assertThat(value).containsExactly(expected0, expected1);
            w1.set(new long[] {0, 3}, new float[] {7f, 7f, 8f, 8f});
            w0.pull(new long[] {3, 0}, 0, 2, value = new float[4], 0);
            assertThat(value).containsExactly(8f, 8f, 7f, 7f);
        }
    }

    /**
     * Issue 13: synchronous and asynchronous calls share one compiled path, so a synchronous call
     * takes a ticket only when it sends rows, and asynchronous calls keep numbering their tickets
     * one by one, whatever synchronous calls come between.
     */
    @Test
    void synchronousCallsTakeATicketOnlyWhenTheySendRowsIssue13() throws Exception {
        try (TestCluster cluster = cluster(2, Partitioning.RANGE, TableSpec.of("t", 4, 2))) {
            cluster.node(1).worker().set(new long[] {3}, new float[] {5f, 6f});
            Worker worker = cluster.node(0).worker();
            float[] value = new float[2];
            assertThat(worker.pullAsync(new long[] {0}, 0, 1, value, 0)).isEqualTo(1);
            worker.pull(new long[] {1}, value);
            assertThat(worker.pushAsync(new long[] {3}, 0, 1, new float[] {1f, 1f}, 0)).isEqualTo(2);
            worker.pull(new long[] {3}, value);
            assertThat(value).containsExactly(6f, 7f);
            long next = worker.pullAsync(new long[] {2, 3}, 0, 2, new float[4], 0);
            assertThat(next).isEqualTo(4);
            worker.waitFor(next);
            assertThatThrownBy(() -> worker.waitFor(5)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("ticket=5 (expected 1..4");
        }
    }

    @Test
    void barriersHoldEveryNodeUntilAllArrive() throws Exception {
        try (TestCluster cluster = cluster(3, Partitioning.RANGE, TableSpec.of("t", 3, 1))) {
            AtomicBoolean lateNodeArrived = new AtomicBoolean();
            Concurrently.run(3, Duration.ofSeconds(30), id -> {
                for (int round = 0; round < 5; round++) {
                    if (id == 2 && round == 0) {
                        Thread.sleep(300); // node 2 comes late on purpose: the others must wait for it
                        lateNodeArrived.set(true);
                    }
                    cluster.node(id).barrier();
                    if (!lateNodeArrived.get()) {
                        throw new AssertionError("node " + id + " passed barrier before node 2 arrived");
                    }
                }
            });
        }
    }

    @Test
    void aCrashedNodeFailsOperationsThatNeedItWithinTheBound() throws Exception {
        try (TestCluster cluster = cluster(3, Partitioning.RANGE, TableSpec.of("t", 30, 4))) {
            Worker worker = cluster.node(0).worker();
            float[] value = new float[4];
            worker.pull(25, value, 0); // row 25 is at node 2
            cluster.transport(2).close(); // a crash: no goodbye
            long start = System.nanoTime();
            assertThatThrownBy(() -> {
                while (true) {
                    worker.pull(25, value, 0);
                }
            }).isInstanceOf(PeerFailedException.class).hasMessageStartingWith("node 2 failed: ")
                    .satisfies(e -> assertThat(((PeerFailedException) e).peer()).isEqualTo(2));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            // New operations on the dead node fail at once; those on live nodes keep working.
            assertThatThrownBy(() -> worker.push(new long[] {1, 12, 27}, new float[12]))
                    .isInstanceOf(PeerFailedException.class);
            worker.push(new long[] {1, 12}, new float[] {1, 1, 1, 1, 2, 2, 2, 2});
            worker.pull(12, value, 0);
            assertThat(value).containsExactly(2f, 2f, 2f, 2f);
            assertThatThrownBy(() -> cluster.node(1).barrier()).isInstanceOf(PeerFailedException.class);
        }
    }

    @Test
    void aNodeWithAnotherSchemaIsRefused() throws Exception {
        List<String> addresses = fixture.addresses(2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Transport t0 = fixture.transport(0);
        Transport t1 = fixture.transport(1);
        Thread other = new Thread(() -> {
            try (AdaPS node = AdaPS.builder().nodeId(1).peers(addresses).transport(t1)
                    .connectTimeout(Duration.ofSeconds(5)).table(TableSpec.of("t", 10, 8)).build()) {
                failure.set(new AssertionError("node 1 started"));
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
        other.start();
        assertThatThrownBy(() -> AdaPS.builder().nodeId(0).peers(addresses).transport(t0)
                .connectTimeout(Duration.ofSeconds(5)).table(TableSpec.of("t", 10, 4)).build())
                .isInstanceOf(ClusterException.class);
        other.join(20_000);
        assertThat(failure.get()).isInstanceOf(ClusterException.class);
        t0.close();
        t1.close();
    }

    @Test
    void largeBatchesAreSplitIntoMessagesThatFit() throws Exception {
        int valueLength = 512;
        int rows = 2_000; // 2000 x 2 KiB = 4 MiB of values per full pull
        try (TestCluster cluster = fixture.cluster(2,
                b -> b.table(TableSpec.of("big", rows, valueLength)).maxMessageBytes(256 * 1024))) {
            Worker worker = cluster.node(0).worker();
            long[] all = new long[rows];
            float[] values = new float[rows * valueLength];
            for (int r = 0; r < rows; r++) {
                all[r] = r;
                Arrays.fill(values, r * valueLength, (r + 1) * valueLength, r);
            }
            worker.set(all, values);
            float[] back = new float[values.length];
            cluster.node(1).worker().pull(all, back);
            assertThat(Arrays.mismatch(back, values)).as("first differing float").isEqualTo(-1);
            assertThat(cluster.node(0).metrics().messagesSent()).isGreaterThan(8);
        }
    }

    /**
     * Regression (issue 3): a node that closes right after the last barrier says goodbye, and the
     * goodbye can reach a third node before the coordinator's release; that must not fail the third
     * node's barrier.
     */
    @Test
    void closingRightAfterTheLastBarrierFailsNoBarrier() throws Exception {
        for (int round = 0; round < 10; round++) {
            try (TestCluster cluster = cluster(3, Partitioning.RANGE, TableSpec.of("t", 3, 1))) {
                Concurrently.run(3, Duration.ofSeconds(30), n -> {
                    cluster.node(n).barrier();
                    cluster.node(n).close();
                });
            }
        }
    }

    @Test
    void aPeerThatLeftIsToldFromOneThatFailed() throws Exception {
        try (TestCluster cluster = cluster(3, Partitioning.RANGE, TableSpec.of("t", 30, 1))) {
            Worker worker = cluster.node(0).worker();
            cluster.node(1).close();
            cluster.transport(2).close();
            Await.until("node 0 told that node 1 left", Duration.ofSeconds(10), () -> {
                try {
                    worker.pull(15, new float[1], 0);
                    return false;
                } catch (PeerFailedException e) {
                    return e.left() && e.peer() == 1 && e.getMessage().contains("left the cluster after barrier 0");
                }
            });
            Await.until("node 0 told that node 2 failed", Duration.ofSeconds(10), () -> {
                try {
                    worker.pull(25, new float[1], 0);
                    return false;
                } catch (PeerFailedException e) {
                    return !e.left() && e.peer() == 2;
                }
            });
        }
    }
}
