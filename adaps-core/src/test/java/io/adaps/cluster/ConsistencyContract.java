package io.adaps.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.adaps.api.ClusterException;
import io.adaps.api.Consistency;
import io.adaps.api.PeerFailedException;
import io.adaps.api.StalenessMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * The staleness bound of every {@link Consistency} model under every {@link Technique}, written
 * once and run over each transport.
 *
 * <p>Every worker of the cluster adds 1 to every shared key in every clock, reading the keys first.
 * A read by a worker at clock {@code c} must see every addition any worker made during its clocks
 * {@code < c - s} plus the reader's own {@code c}: at least {@code c + (W - 1) max(0, c - s)} for
 * {@code W} workers. Nobody can be more than {@code s} clocks ahead of the reader, who has not
 * finished clock {@code c}: at most {@code c + (W - 1)(c + s + 1)}. Under {@code bsp} that pins the
 * earlier clocks exactly. Intents make the adaptive techniques replicate the keys on every node.
 * At the end no addition is lost, and the staleness metrics never exceed the bound.
 */
public abstract class ConsistencyContract {
    private static final int NODES = 3;
    private static final int WORKERS_PER_NODE = 2;
    private static final int WORKERS = NODES * WORKERS_PER_NODE;
    private static final int KEYS = 6;
    private static final int CLOCKS = 24;

    private ClusterFixture fixture;

    @BeforeEach
    void useFixture(ClusterFixture fixture) {
        this.fixture = fixture;
    }

    static List<Arguments> modelsByTechniques() {
        List<Arguments> matrix = new ArrayList<>();
        for (Consistency model : List.of(Consistency.asp(), Consistency.bsp(), Consistency.ssp(1), Consistency.ssp(4),
                Consistency.essp(1), Consistency.essp(4))) {
            for (Technique technique : Technique.values()) {
                matrix.add(Arguments.of(model, technique));
            }
        }
        return matrix;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("modelsByTechniques")
    void readsSeeEveryUpdateOlderThanTheBound(Consistency model, Technique technique) throws Exception {
        try (TestCluster cluster = fixture.cluster(NODES, b -> b.table(TableSpec.of("t", KEYS, 1)
                .withConsistency(model)).technique(technique).barrierTimeout(Duration.ofSeconds(20)))) {
            Worker[] workers = new Worker[WORKERS];
            CyclicBarrier start = new CyclicBarrier(WORKERS);
            long[] keys = new long[KEYS];
            Arrays.setAll(keys, i -> i);
            int s = model.staleness();
            Concurrently.run(WORKERS, Duration.ofMinutes(2), t -> {
                Worker worker = cluster.node(t / WORKERS_PER_NODE).worker();
                workers[t] = worker;
                TableView table = worker.table("t");
                table.intent(keys, 0, CLOCKS);
                start.await(1, TimeUnit.MINUTES); // every worker takes part before anyone advances
                float[] ones = new float[KEYS];
                Arrays.fill(ones, 1f);
                float[] values = new float[KEYS];
                for (int c = 0; c < CLOCKS; c++) {
                    table.pull(keys, values);
                    for (int k = 0; k < KEYS; k++) {
                        long value = (long) values[k];
                        assertThat(value).as("key %d read by worker %d at clock %d under %s", k, t, c, model)
                                .isGreaterThanOrEqualTo(c + (WORKERS - 1L) * (s < 0 ? 0 : Math.max(0, c - s)));
                        if (s >= 0) {
                            assertThat(value).as("key %d read by worker %d at clock %d under %s", k, t, c, model)
                                    .isLessThanOrEqualTo(c + (WORKERS - 1L) * (c + s + 1));
                        }
                    }
                    table.push(keys, ones);
                    worker.advanceClock();
                }
                worker.waitAll();
                worker.waitSync();
            });
            Concurrently.run(NODES, Duration.ofMinutes(1), n -> cluster.node(n).barrier());
            for (Worker worker : workers) {
                worker.close(); // their threads have ended
            }
            for (int n = 0; n < NODES; n++) {
                float[] values = new float[KEYS];
                try (Worker reader = cluster.node(n).worker()) {
                    reader.table("t").pull(keys, values);
                }
                for (int k = 0; k < KEYS; k++) {
                    assertThat(values[k]).as("key %d seen from node %d", k, n).isEqualTo((float) WORKERS * CLOCKS);
                }
                StalenessMetrics staleness = cluster.node(n).metrics().staleness("t");
                assertThat(staleness.consistency()).isEqualTo(model);
                assertThat(staleness.reads()).as("reads of node %d", n).isGreaterThanOrEqualTo(WORKERS_PER_NODE * CLOCKS);
                if (s >= 0) {
                    assertThat(staleness.maxStaleness()).as("%s", staleness).isLessThanOrEqualTo(s);
                }
            }
        }
    }

    /**
     * Issue 13 (a CI run of the blocked schedule under {@code bsp} that stalled for a minute): a
     * node's watermark was recomputed without a lock, by its workers as they advanced and by the
     * transport thread as peers' clocks came in, so a recompute that had read the inputs before a
     * peer's newer clock could overwrite the watermark that clock had raised. A node that holds
     * replicas recomputes again at its next round; one without (these techniques) had nothing to
     * come again under {@code bsp}, where every worker waits for that watermark. Many short clocks, all in step, on
     * two workers per node: every clock's reads must go through.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("techniquesWithoutManager")
    void issue13_workersInStepNeverWaitForAWatermarkThatWasRaised(Technique technique) throws Exception {
        int clocks = 2_000;
        try (TestCluster cluster = fixture.cluster(2, b -> b.table(TableSpec.of("t", KEYS, 1)
                .withConsistency(Consistency.bsp())).technique(technique))) {
            long[] keys = new long[KEYS];
            Arrays.setAll(keys, i -> i);
            CyclicBarrier start = new CyclicBarrier(4);
            AtomicLong clocksDone = new AtomicLong();
            Concurrently.run(4, Duration.ofMinutes(1), t -> {
                try (Worker worker = cluster.node(t / 2).worker()) {
                    TableView table = worker.table("t");
                    float[] values = new float[KEYS];
                    start.await(1, TimeUnit.MINUTES);
                    for (int c = 0; c < clocks; c++) {
                        table.pull(keys, values);
                        worker.advanceClock();
                        clocksDone.incrementAndGet();
                    }
                }
            });
            assertThat(clocksDone.get()).isEqualTo(4L * clocks);
        }
    }

    static List<Technique> techniquesWithoutManager() {
        return List.of(Technique.STATIC, Technique.RELOCATION_ONLY);
    }

    static List<Arguments> boundedModelsByTechniques() {
        List<Arguments> matrix = new ArrayList<>();
        for (Consistency model : List.of(Consistency.ssp(2), Consistency.bsp())) {
            for (Technique technique : List.of(Technique.ADAPTIVE, Technique.STATIC)) {
                matrix.add(Arguments.of(model, technique));
            }
        }
        return matrix;
    }

    /**
     * One worker per node; node 2's sleeps in every clock. The fast ones never get more than
     * {@code s + 1} clocks ahead of it (its published clock lags its real one while it is between
     * its advanceClock and the publication), and they wait for it in advanceClock.
     */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("boundedModelsByTechniques")
    void aSlowWorkerHoldsTheOthersWithinTheBound(Consistency model, Technique technique) throws Exception {
        int clocks = 12;
        int slow = NODES - 1;
        try (TestCluster cluster = fixture.cluster(NODES, b -> b.table(TableSpec.of("t", KEYS, 1)
                .withConsistency(model)).technique(technique).barrierTimeout(Duration.ofSeconds(20)))) {
            int s = model.staleness();
            Worker[] workers = new Worker[NODES];
            CyclicBarrier start = new CyclicBarrier(NODES);
            AtomicLong slowClock = new AtomicLong();
            AtomicLongArray maxLead = new AtomicLongArray(NODES);
            long[] keys = new long[KEYS];
            Arrays.setAll(keys, i -> i);
            Concurrently.run(NODES, Duration.ofMinutes(1), n -> {
                Worker worker = cluster.node(n).worker();
                workers[n] = worker;
                TableView table = worker.table("t");
                table.intent(keys, 0, clocks);
                start.await(1, TimeUnit.MINUTES);
                float[] ones = new float[KEYS];
                Arrays.fill(ones, 1f);
                float[] values = new float[KEYS];
                for (int c = 0; c < clocks; c++) {
                    table.pull(keys, values);
                    table.push(keys, ones);
                    if (n == slow) {
                        Thread.sleep(20);
                    }
                    long now = worker.advanceClock();
                    if (n == slow) {
                        slowClock.set(now);
                    } else {
                        long lead = now - slowClock.get();
                        maxLead.accumulateAndGet(n, lead, Math::max);
                        assertThat(lead).as("worker of node %d at clock %d ahead of the slow one under %s", n, now, model)
                                .isLessThanOrEqualTo(s + 1L);
                    }
                }
                worker.waitAll();
                worker.waitSync();
            });
            Concurrently.run(NODES, Duration.ofMinutes(1), n -> cluster.node(n).barrier());
            for (Worker worker : workers) {
                worker.close();
            }
            for (int n = 0; n < NODES; n++) {
                if (n == slow) {
                    continue;
                }
                assertThat(maxLead.get(n)).as("largest lead of node %d's worker", n).isBetween((long) s, s + 1L);
                StalenessMetrics staleness = cluster.node(n).metrics().staleness("t");
                assertThat(staleness.clockWaitNanos()).as("clock waits of node %d: %s", n, staleness).isPositive();
            }
        }
    }

    /**
     * Node 2's worker stops after clock 1, then node 2 crashes: the workers of nodes 0 and 1,
     * waiting for it in advanceClock, fail with its {@link PeerFailedException} after about the
     * failure timeout (2 s), long before the barrier timeout.
     */
    @Test
    void aNodeKilledWhileOthersWaitSurfacesAsPeerFailed() throws Exception {
        Duration barrierTimeout = Duration.ofSeconds(60);
        try (TestCluster cluster = fixture.cluster(NODES, b -> b.table(TableSpec.of("t", KEYS, 1)
                .withConsistency(Consistency.ssp(1))).barrierTimeout(barrierTimeout))) {
            Worker stopped = cluster.node(2).worker();
            stopped.push(new long[] {0}, new float[] {1});
            assertThat(stopped.advanceClock()).isEqualTo(1);
            AtomicLongArray entered = new AtomicLongArray(2);
            AtomicLongArray returned = new AtomicLongArray(2);
            AtomicReferenceArray<Throwable> thrown = new AtomicReferenceArray<>(2);
            long[] failedAfterNanos = new long[2];
            AtomicLong crashedAt = new AtomicLong();
            Thread killer = new Thread(() -> {
                try {
                    Await.until("the workers of nodes 0 and 1 waiting in advanceClock", Duration.ofSeconds(30),
                            () -> entered.get(0) >= 2 && entered.get(1) >= 2 && returned.get(0) < entered.get(0)
                                    && returned.get(1) < entered.get(1));
                    Thread.sleep(300);
                    crashedAt.set(System.nanoTime());
                    cluster.transport(2).close(); // a crash: no goodbye
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "killer");
            killer.start();
            Concurrently.run(2, Duration.ofMinutes(1), n -> {
                Worker worker = cluster.node(n).worker();
                try {
                    for (int c = 1; c <= 10; c++) {
                        worker.push(new long[] {n + 1}, new float[] {1});
                        entered.set(n, c);
                        worker.advanceClock();
                        returned.set(n, c);
                    }
                } catch (Throwable e) {
                    failedAfterNanos[n] = System.nanoTime() - crashedAt.get();
                    thrown.set(n, e);
                }
            });
            killer.join(60_000);
            for (int n = 0; n < 2; n++) {
                Throwable e = thrown.get(n);
                assertThat(e).as("what the worker of node %d threw (it returned from advanceClock to %d)", n,
                        returned.get(n)).isInstanceOf(PeerFailedException.class);
                assertThat(((PeerFailedException) e).peer()).isEqualTo(2);
                assertThat(((PeerFailedException) e).left()).isFalse();
                assertThat(returned.get(n)).as("clocks node %d's worker completed", n).isLessThanOrEqualTo(2);
                assertThat(Duration.ofNanos(failedAfterNanos[n])).as("node %d's worker failed after the crash", n)
                        .isLessThan(Duration.ofSeconds(10));
            }
        }
    }

    /** Every node must declare the same model for a table: the handshake names the difference. */
    @Test
    void aNodeDeclaringAnotherModelIsRefused() {
        assertThatThrownBy(() -> fixture.cluster(2, (id, b) -> b.connectTimeout(Duration.ofSeconds(10))
                .table(TableSpec.of("t", KEYS, 1).withConsistency(id == 0 ? Consistency.ssp(2) : Consistency.bsp()))))
                .isInstanceOf(AssertionError.class)
                .cause().isInstanceOf(ClusterException.class).hasMessageContaining("consistency(t)");
    }

    /** The node default and a table's own choice of the same model are the same schema. */
    @Test
    void theNodeDefaultAgreesWithTheSameModelChosenByTheTable() throws Exception {
        try (TestCluster cluster = fixture.cluster(2, (id, b) -> id == 0
                ? b.consistency(Consistency.ssp(2)).table(TableSpec.of("t", KEYS, 1))
                : b.table(TableSpec.of("t", KEYS, 1).withConsistency(Consistency.ssp(2))))) {
            for (int n = 0; n < 2; n++) {
                assertThat(cluster.node(n).table("t").spec().consistency()).isEqualTo(Consistency.ssp(2));
            }
        }
    }

    /**
     * A bookkeeping worker ({@code unclockedWorker()}) that never ticks, open on every node the whole
     * time, holds nobody back under bsp; it may not advance its clock.
     */
    @org.junit.jupiter.api.Test
    void anUnclockedWorkerHoldsNobodyBack() throws Exception {
        try (TestCluster cluster = fixture.cluster(2, b -> b.table(TableSpec.of("t", 4, 1)
                .withConsistency(Consistency.bsp())).technique(Technique.ADAPTIVE).barrierTimeout(Duration.ofSeconds(20)))) {
            Worker[] bookkeeping = new Worker[2];
            for (int n = 0; n < 2; n++) {
                bookkeeping[n] = cluster.node(n).unclockedWorker();
            }
            Concurrently.run(2, Duration.ofMinutes(1), n -> {
                bookkeeping[n].table("t").push(0, new float[] {1f}, 0);
                try (Worker worker = cluster.node(n).worker()) {
                    for (int c = 0; c < 10; c++) {
                        worker.table("t").push(1, new float[] {1f}, 0);
                        worker.advanceClock();
                    }
                    worker.waitSync();
                }
                org.assertj.core.api.Assertions.assertThatThrownBy(bookkeeping[n]::advanceClock)
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is unclocked");
                bookkeeping[n].close();
            });
        }
    }
}
