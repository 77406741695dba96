package io.adaps.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.NodeMetrics;
import io.adaps.api.PeerFailedException;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * The guarantees of relocation ({@code localize}), written once and run over every transport:
 * rows move to the node that asks, their values and update-rule state move along, every other
 * node still reaches them, and no update is lost or applied twice while they move.
 */
public abstract class RelocationContract {
    /** The transport under test: the concrete test class's {@link ClusterFixture}. */
    private ClusterFixture fixture;

    @BeforeEach
    void useFixture(ClusterFixture fixture) {
        this.fixture = fixture;
    }

    /** Operations per worker in the invariant test. */
    protected int operations() {
        return 1_500;
    }

    private static long[] range(int from, int to) {
        long[] rows = new long[to - from];
        Arrays.setAll(rows, i -> from + i);
        return rows;
    }

    @Test
    void localizedRowsAreServedLocallyAndOtherNodesFollowThem() throws Exception {
        TableSpec sums = TableSpec.of("sums", 30, 4);
        TableSpec steps = TableSpec.of("steps", 30, 2).withUpdateRule(UpdateRules.adagrad(0.5f, 1e-6f));
        try (TestCluster cluster = fixture.cluster(3, b -> b.table(sums).table(steps))) {
            Worker[] workers = {cluster.node(0).worker(), cluster.node(1).worker(), cluster.node(2).worker()};
            float[] gradient = {1f, -2f};
            workers[0].table("steps").push(3, gradient, 0); // accumulator state at the home, node 0
            long[] moving = range(0, 10); // home: node 0
            workers[2].table("sums").localize(moving);
            workers[2].table("steps").localize(moving);
            assertThat(cluster.node(2).metrics().relocationsIn()).isEqualTo(20);
            assertThat(cluster.node(0).metrics().relocationsOut()).isEqualTo(20);

            float[] values = new float[10 * 4];
            Arrays.fill(values, 1f);
            workers[2].table("sums").push(moving, values);
            workers[2].table("sums").pull(moving, values);
            NodeMetrics atOwner = cluster.node(2).metrics();
            assertThat(atOwner.remotePushes() + atOwner.remotePulls()).isZero();
            assertThat(atOwner.perWorker()).singleElement().satisfies(w -> assertThat(w.localFraction()).isEqualTo(1.0));

            // Node 1 reaches the rows through their home, which forwards; then through its cache.
            workers[1].table("sums").push(3, new float[] {2f, 2f, 2f, 2f}, 0);
            workers[1].table("sums").push(3, new float[] {4f, 4f, 4f, 4f}, 0);
            assertThat(cluster.node(0).metrics().forwarded()).isEqualTo(1);
            assertThat(cluster.node(1).metrics().locationHits()).isEqualTo(1);
            float[] value = new float[4];
            for (Worker worker : workers) {
                worker.table("sums").pull(3, value, 0);
                assertThat(value).containsExactly(7f, 7f, 7f, 7f);
            }

            // The Adagrad accumulator moved with the value: a second step equals one at a single node.
            workers[1].table("steps").push(3, gradient, 0);
            try (AdaPS single = AdaPS.builder().table(steps).build()) {
                Worker reference = single.worker();
                reference.table("steps").push(3, gradient, 0);
                reference.table("steps").push(3, gradient, 0);
                float[] expected = new float[2];
                float[] actual = new float[2];
                reference.table("steps").pull(3, expected, 0);
                workers[0].table("steps").pull(3, actual, 0);
                assertThat(actual).containsExactly(expected);
            }
        }
    }

    /**
     * Every worker of every node pushes increments, pulls and localizes random rows at once. Each
     * worker checks, for its own synchronous operations, that the pulls of a row never go back and
     * include its own earlier pushes; at the end the sums are exact on every node.
     */
    @Test
    void concurrentPushesPullsAndRelocationsLoseAndDuplicateNothing() throws Exception {
        int rows = 24;
        int valueLength = 3;
        int nodes = 4;
        int workersPerNode = 2;
        AtomicLong pushed = new AtomicLong();
        try (TestCluster cluster = fixture.cluster(nodes, b -> b.table(TableSpec.of("t", rows, valueLength)))) {
            Concurrently.run(nodes * workersPerNode, Duration.ofMinutes(3), t -> {
                Worker worker = cluster.node(t / workersPerNode).worker();
                TableView table = worker.table("t");
                SplittableRandom random = new SplittableRandom(t * 7919L);
                float[] lastSeen = new float[rows];
                float[] ownSince = new float[rows];
                float[] one = new float[4 * valueLength];
                Arrays.fill(one, 1f);
                float[] value = new float[valueLength];
                long[] ids = new long[4];
                long[] pairs = new long[2];
                long[] others = new long[2];
                int[] notDone = new int[2];
                for (int op = 0; op < operations(); op++) {
                    int n = 1 + random.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        ids[i] = random.nextInt(rows);
                    }
                    switch (random.nextInt(9)) {
                        case 0, 1, 2 -> {
                            table.push(ids, 0, n, one, 0);
                            pushed.addAndGet(n);
                            for (int i = 0; i < n; i++) {
                                ownSince[(int) ids[i]]++;
                            }
                        }
                        case 3 -> {
                            table.pushAsync(ids, 0, n, one, 0);
                            pushed.addAndGet(n);
                        }
                        case 4, 5 -> {
                            int row = (int) ids[0];
                            table.pull(row, value, 0);
                            assertThat(value[1]).isEqualTo(value[0]).isEqualTo(value[2]);
                            assertThat(value[0]).as("row %d by worker %d", row, t)
                                    .isGreaterThanOrEqualTo(lastSeen[row] + ownSince[row]);
                            lastSeen[row] = value[0];
                            ownSince[row] = 0;
                        }
                        case 6 -> table.localize(ids, 0, n);
                        case 7 -> table.localizeAsync(ids, 0, n);
                        default -> {
                            // Adds 1 to both rows (2 to one row named twice) where they are, or
                            // pushes the same where either is not owned here.
                            int first = (int) ids[0];
                            int second = random.nextInt(rows);
                            // One pair in a call of its own, or (first, second) and (second, first) in one call.
                            int times = 1 + random.nextInt(2);
                            if (times == 1) {
                                if (!table.updateInPlace(first, table, second, ADD_ONE)) {
                                    table.push(first, one, 0);
                                    table.push(second, one, 0);
                                }
                            } else {
                                pairs[0] = first;
                                pairs[1] = second;
                                others[0] = second;
                                others[1] = first;
                                int missed = table.updateInPlace(pairs, 0, table, others, 0, 2, ADD_ONE_PAIR, notDone);
                                for (int m = 0; m < missed; m++) {
                                    table.push(pairs[notDone[m]], one, 0);
                                    table.push(others[notDone[m]], one, 0);
                                }
                            }
                            pushed.addAndGet(2L * times);
                            ownSince[first] += times;
                            ownSince[second] += times;
                        }
                    }
                }
                worker.waitAll();
            });
            // Every worker of every node is done (they run in this JVM): the cluster is quiet.
            long relocatedIn = 0;
            long relocatedOut = 0;
            float[] all = new float[rows * valueLength];
            for (int n = 0; n < nodes; n++) {
                cluster.node(n).worker().table("t").pull(range(0, rows), all);
                double total = 0;
                for (int i = 0; i < all.length; i += valueLength) {
                    total += all[i];
                    assertThat(all[i + 1]).isEqualTo(all[i]).isEqualTo(all[i + 2]);
                }
                assertThat((long) total).as("sum seen from node %d", n).isEqualTo(pushed.get());
                relocatedIn += cluster.node(n).metrics().relocationsIn();
                relocatedOut += cluster.node(n).metrics().relocationsOut();
            }
            assertThat(relocatedIn).isPositive().isEqualTo(relocatedOut);
        }
    }

    @Test
    void rowsOfAFailedOwnerFailTheirOperationsAndOthersKeepWorking() throws Exception {
        try (TestCluster cluster = fixture.cluster(3, b -> b.table(TableSpec.of("t", 30, 2)))) {
            Worker atHome = cluster.node(0).worker();
            Worker other = cluster.node(1).worker();
            cluster.node(2).worker().localize(range(0, 5)); // home: node 0
            float[] value = new float[2];
            other.pull(1, value, 0); // forwarded by the home; node 1 now knows where row 1 is
            cluster.transport(2).close(); // node 2 crashes
            long start = System.nanoTime();
            // Once the failure is detected, rows that node 2 owned fail at once, wherever asked ...
            assertThatThrownBy(() -> {
                while (true) {
                    atHome.pull(25, value, 0); // homed at node 2
                }
            }).isInstanceOf(PeerFailedException.class);
            assertThatThrownBy(() -> atHome.pull(1, value, 0)).isInstanceOf(PeerFailedException.class)
                    .satisfies(e -> assertThat(((PeerFailedException) e).peer()).isEqualTo(2));
            Await.until("node 1 told that node 2 failed", Duration.ofSeconds(10), () -> {
                try {
                    other.pull(25, new float[2], 0); // homed at node 2
                    return false;
                } catch (PeerFailedException e) {
                    return true;
                }
            });
            assertThatThrownBy(() -> other.push(new long[] {1}, new float[2])).isInstanceOf(PeerFailedException.class)
                    .satisfies(e -> assertThat(((PeerFailedException) e).peer()).isEqualTo(2));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            // ... and rows on live nodes keep working, moved or not.
            other.localize(range(5, 8));
            other.push(new long[] {5, 6, 12}, new float[] {1, 1, 2, 2, 3, 3});
            atHome.pull(12, value, 0);
            assertThat(value).containsExactly(3f, 3f);
            atHome.pull(6, value, 0);
            assertThat(value).containsExactly(2f, 2f);
        }
    }

    /** Adds 1 to every component of both rows of the tests' 3-float tables; one row named twice gets 2. */
    private static final InPlaceUpdate ADD_ONE = (a, ao, b, bo) -> {
        for (int i = 0; i < 3; i++) {
            a[ao + i] += 1;
            b[bo + i] += 1;
        }
    };
    private static final InPlacePairUpdate ADD_ONE_PAIR = (pair, a, ao, b, bo) -> ADD_ONE.apply(a, ao, b, bo);

    @Test
    void updatesInPlaceRunOnRowsOwnedHereOnly() throws Exception {
        try (TestCluster cluster = fixture.cluster(2, b -> b.table(TableSpec.of("rows", 10, 2))
                .table(TableSpec.of("cols", 10, 2)))) {
            Worker worker = cluster.node(1).worker();
            TableView rows = worker.table("rows");
            TableView cols = worker.table("cols");
            int[] calls = new int[1];
            InPlaceUpdate step = (u, uo, w, wo) -> {
                calls[0]++;
                u[uo] += 1;
                w[wo + 1] += 2;
            };
            // Homes by range: rows 0..4 of each table on node 0, rows 5..9 on node 1.
            assertThat(rows.updateInPlace(6, cols, 2, step)).isFalse();
            assertThat(calls[0]).isZero();
            assertThat(rows.updateInPlace(6, cols, 7, step)).isTrue();
            assertThat(rows.updateInPlace(7, rows, 7, (a, ao, b, bo) -> {
                assertThat(b).isSameAs(a);
                assertThat(bo).isEqualTo(ao);
                a[ao] += 5;
            })).isTrue();
            // Several pairs in one call: those with a row at node 0 are not done, and named in order.
            int[] pairsSeen = new int[4];
            int[] notDone = new int[4];
            int missed = rows.updateInPlace(new long[] {6, 1, 7, 6}, 0, cols, new long[] {2, 7, 3, 9}, 0, 4,
                    (pair, u, uo, w, wo) -> pairsSeen[pair]++, notDone);
            assertThat(missed).isEqualTo(3);
            assertThat(notDone).startsWith(0, 1, 2);
            assertThat(pairsSeen).containsExactly(0, 0, 0, 1);
            cols.localize(new long[] {2});
            assertThat(rows.updateInPlace(6, cols, 2, step)).isTrue();
            assertThat(calls[0]).isEqualTo(2);
            float[] value = new float[2];
            Worker atHome = cluster.node(0).worker();
            atHome.table("rows").pull(6, value, 0);
            assertThat(value).containsExactly(2f, 0f);
            atHome.table("rows").pull(7, value, 0);
            assertThat(value).containsExactly(5f, 0f);
            atHome.table("cols").pull(2, value, 0);
            assertThat(value).containsExactly(0f, 2f);
            atHome.table("cols").pull(7, value, 0);
            assertThat(value).containsExactly(0f, 2f);
            NodeMetrics metrics = cluster.node(1).metrics();
            assertThat(metrics.perWorker()).singleElement()
                    .satisfies(w -> assertThat(w.remoteAccesses()).isZero());
        }
    }

    @Test
    void updatesInPlaceOfReplicasReachTheOwner() throws Exception {
        try (TestCluster cluster = fixture.cluster(2,
                b -> b.table(TableSpec.of("t", 10, 3)).technique(Technique.FULL_REPLICATION))) {
            Worker worker = cluster.node(1).worker();
            TableView table = worker.table("t");
            worker.waitSync(); // the replicas of rows 0..4 hold their owner's values
            assertThat(table.updateInPlace(7, table, 2, ADD_ONE)).as("row 2 is a replica on node 1").isTrue();
            float[] value = new float[3];
            table.pull(2, value, 0);
            assertThat(value).as("the replica, read where it changed").containsOnly(1f);
            worker.waitSync();
            Worker atHome = cluster.node(0).worker();
            atHome.table("t").pull(2, value, 0);
            assertThat(value).as("the owner, after a synchronization").containsOnly(1f);
            atHome.waitSync(); // node 0's replica of row 7 (owned by node 1) is refreshed
            atHome.table("t").pull(7, value, 0);
            assertThat(value).containsOnly(1f);
            assertThat(cluster.node(1).metrics().perWorker()).singleElement()
                    .satisfies(w -> assertThat(w.remoteAccesses()).isZero());
        }
    }

    @Test
    void underTheStaticTechniqueNothingMoves() throws Exception {
        try (TestCluster cluster = fixture.cluster(2,
                b -> b.table(TableSpec.of("t", 10, 2)).technique(Technique.STATIC))) {
            Worker worker = cluster.node(1).worker();
            worker.localize(range(0, 5)); // home: node 0
            worker.waitFor(worker.localizeAsync(range(0, 5), 0, 5));
            worker.pull(range(0, 5), new float[10]);
            NodeMetrics metrics = cluster.node(1).metrics();
            assertThat(metrics.relocationsIn()).isZero();
            assertThat(metrics.remotePulls()).isEqualTo(5);
        }
    }
}
