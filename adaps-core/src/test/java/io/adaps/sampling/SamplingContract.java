package io.adaps.sampling;

import static io.adaps.sampling.SamplingSetup.ROWS;
import static io.adaps.sampling.SamplingSetup.VALUE_LENGTH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.SamplingMetrics;
import io.adaps.api.SamplingScheme;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.UniformKeys;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.Concurrently;

/**
 * What every {@link SamplingScheme} promises, written once: a pulled sample holds exactly
 * {@code n} rows of the table, with the rows' current values, on one node and across nodes while
 * the adaptive manager moves rows; a taken sample's rows read with an asynchronous pull hold the
 * same; handles are used once, by the worker and table they were
 * prepared for, and every misuse is refused with a message naming the value and changes nothing;
 * workers sample concurrently.
 */
abstract class SamplingContract {
    /** The transport of the tests across nodes: the concrete test class's {@link ClusterFixture}. */
    private ClusterFixture fixture;

    /** The scheme under test. */
    abstract SamplingScheme scheme();

    @BeforeEach
    void useFixture(ClusterFixture fixture) {
        this.fixture = fixture;
    }

    /** Value component {@code c} of row {@code r}: distinct per row and exact in a float. */
    private static float value(long row, int component) {
        return row * 10 + component;
    }

    private static void setKnownValues(Worker worker, String table) {
        long[] rows = new long[ROWS];
        float[] values = new float[ROWS * VALUE_LENGTH];
        for (int r = 0; r < ROWS; r++) {
            rows[r] = r;
            for (int c = 0; c < VALUE_LENGTH; c++) {
                values[r * VALUE_LENGTH + c] = value(r, c);
            }
        }
        worker.table(table).set(rows, values);
    }

    /**
     * Sets the known values through node {@code from} and waits until every node's replicas show
     * them: a set goes to the row's owner, and another node's replica (which the manager may have
     * made already, e.g. of a {@code POOL}'s keys) shows it after its next synchronization round.
     */
    private static void setKnownValuesEverywhere(TestCluster cluster, int from, String table) {
        setKnownValues(cluster.node(from).worker(), table);
        for (int node = 0; node < cluster.size(); node++) {
            cluster.node(node).worker().waitSync();
        }
    }

    /** Prepares and pulls {@code samples} samples of {@code n} rows and checks every row and value. */
    private static void sampleAndCheck(Worker worker, String table, int samples, int n) {
        TableView view = worker.table(table);
        long[] keys = new long[n];
        float[] values = new float[n * VALUE_LENGTH];
        for (int s = 0; s < samples; s++) {
            Arrays.fill(keys, -1);
            Arrays.fill(values, Float.NaN);
            long handle = view.prepareSample(n, worker.clock(), worker.clock() + 2);
            view.pullSample(handle, keys, values);
            for (int i = 0; i < n; i++) {
                assertThat(keys[i]).as("row %d of sample %d", i, s).isBetween(0L, ROWS - 1L);
                for (int c = 0; c < VALUE_LENGTH; c++) {
                    assertThat(values[i * VALUE_LENGTH + c]).as("value %d of row %d", c, keys[i])
                            .isEqualTo(value(keys[i], c));
                }
            }
            worker.advanceClock();
        }
    }

    /**
     * Prepares and takes {@code samples} samples of {@code n} rows, pulls each one's rows
     * asynchronously after a row of its own at the front, and checks every row and value.
     */
    private static void takeAndCheck(Worker worker, String table, int samples, int n) {
        TableView view = worker.table(table);
        long[] keys = new long[n + 1];
        float[] values = new float[(n + 1) * VALUE_LENGTH];
        for (int s = 0; s < samples; s++) {
            Arrays.fill(keys, -1);
            Arrays.fill(values, Float.NaN);
            keys[0] = s % ROWS;
            long handle = view.prepareSample(n, worker.clock(), worker.clock() + 2);
            assertThat(view.takeSample(handle, keys, 1)).isEqualTo(n);
            worker.waitFor(view.pullAsync(keys, 0, n + 1, values, 0));
            for (int i = 0; i <= n; i++) {
                assertThat(keys[i]).as("row %d of sample %d", i, s).isBetween(0L, ROWS - 1L);
                for (int c = 0; c < VALUE_LENGTH; c++) {
                    assertThat(values[i * VALUE_LENGTH + c]).as("value %d of row %d", c, keys[i])
                            .isEqualTo(value(keys[i], c));
                }
            }
            worker.advanceClock();
        }
    }

    @Test
    void takenSamplesHoldNRowsToReadWithOthers() throws InterruptedException {
        try (AdaPS node = SamplingSetup.single(scheme(), SamplingSetup.sampled("w", SamplingSetup.skewed()))) {
            Worker worker = node.worker();
            setKnownValues(worker, "w");
            takeAndCheck(worker, "w", 200, 16);
            SamplingMetrics metrics = node.metrics().sampling();
            assertThat(metrics.samples()).isEqualTo(200);
            assertThat(metrics.rowsPulled()).as("taken rows count as pulled").isEqualTo(200 * 16);
            assertThat(metrics.rowsLocalAtPull()).as("one node holds every row").isEqualTo(200 * 16);
        }
        try (TestCluster cluster = fixture.cluster(2, SamplingSetup.settings(scheme(), Technique.ADAPTIVE,
                SamplingSetup.sampled("w", SamplingSetup.skewed())))) {
            setKnownValuesEverywhere(cluster, 0, "w");
            takeAndCheck(cluster.node(0).worker(), "w", 100, 32);
            takeAndCheck(cluster.node(1).worker(), "w", 100, 32);
            for (int node = 0; node < 2; node++) {
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                assertThat(metrics.rowsPulled()).isEqualTo(100 * 32);
                assertThat(metrics.rowsLocalAtPull()).isBetween(0L, 100L * 32);
            }
        }
    }

    @Test
    void samplesHoldNRowsWithTheirValuesOnOneNode() {
        try (AdaPS node = SamplingSetup.single(scheme(), SamplingSetup.sampled("w", SamplingSetup.skewed()))) {
            Worker worker = node.worker();
            setKnownValues(worker, "w");
            sampleAndCheck(worker, "w", 300, 16);
            SamplingMetrics metrics = node.metrics().sampling();
            assertThat(metrics.scheme()).isEqualTo(scheme());
            assertThat(metrics.samples()).isEqualTo(300);
            assertThat(metrics.rowsDrawn()).isEqualTo(300 * 16);
            assertThat(metrics.rowsPulled()).isEqualTo(300 * 16);
            assertThat(metrics.rowsLocalAtPull()).as("one node holds every row").isEqualTo(300 * 16);
            assertThat(node.metrics().describe()).contains("sampling " + scheme() + ": 300 samples, 4800 rows drawn");
        }
    }

    @Test
    void samplesHoldNRowsWithTheirValuesAcrossNodesWhileRowsMove() throws InterruptedException {
        try (TestCluster cluster = fixture.cluster(2, SamplingSetup.settings(scheme(), Technique.ADAPTIVE,
                SamplingSetup.sampled("w", SamplingSetup.skewed())))) {
            setKnownValuesEverywhere(cluster, 0, "w");
            Worker at0 = cluster.node(0).worker();
            Worker at1 = cluster.node(1).worker();
            long[] hot = new long[ROWS / 4];
            for (int r = 0; r < hot.length; r++) {
                hot[r] = r;
            }
            for (int round = 0; round < 3; round++) {
                // The most sampled rows change nodes between rounds, besides what the manager does.
                (round % 2 == 0 ? at1 : at0).table("w").localize(hot);
                sampleAndCheck(at0, "w", 100, 32);
                sampleAndCheck(at1, "w", 100, 32);
            }
            assertThat(cluster.node(0).metrics().relocationsIn() + cluster.node(1).metrics().relocationsIn())
                    .as("rows moved").isPositive();
            for (int node = 0; node < 2; node++) {
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                assertThat(metrics.rowsDrawn()).isEqualTo(300 * 32);
                assertThat(metrics.rowsPulled()).isEqualTo(300 * 32);
                assertThat(metrics.rowsLocalAtPull()).isBetween(0L, 300L * 32);
            }
        }
    }

    @Test
    void workersSampleConcurrently() throws InterruptedException {
        try (TestCluster cluster = fixture.cluster(2, SamplingSetup.settings(scheme(), Technique.ADAPTIVE,
                SamplingSetup.sampled("w", SamplingSetup.skewed())))) {
            setKnownValuesEverywhere(cluster, 1, "w");
            Concurrently.run(4, Duration.ofMinutes(2), t -> sampleAndCheck(cluster.node(t % 2).worker(), "w", 200, 8));
            for (int node = 0; node < 2; node++) {
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                assertThat(metrics.samples()).isEqualTo(2 * 200);
                assertThat(metrics.rowsPulled()).isEqualTo(2 * 200 * 8);
            }
        }
    }

    @Test
    void misuseIsRefusedNamingTheValueAndChangesNothing() {
        try (AdaPS node = SamplingSetup.single(scheme(), SamplingSetup.sampled("w", SamplingSetup.skewed()),
                SamplingSetup.sampled("v", new UniformKeys(0, 10)), TableSpec.of("plain", 10, 1))) {
            Worker worker = node.worker();
            setKnownValues(worker, "w");
            TableView w = worker.table("w");
            TableView v = worker.table("v");
            long[] keys = new long[4];
            float[] values = new float[4 * VALUE_LENGTH];

            assertThatThrownBy(() -> w.prepareSample(0, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("n=0 (expected 1..1048576)");
            assertThatThrownBy(() -> w.prepareSample(TableView.MAX_SAMPLE_SIZE + 1, 0, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("n=1048577 (expected 1..1048576)");
            assertThatThrownBy(() -> w.prepareSample(4, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("toClock=0 (expected > fromClock=0)");
            worker.advanceClock();
            assertThatThrownBy(() -> w.prepareSample(4, 0, 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("fromClock=0 (expected >= 1, the clock of worker 0)");
            assertThatThrownBy(() -> worker.table("plain").prepareSample(4, 1, 2))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("table 'plain' has no sampling distribution (expected one declared with "
                            + "TableSpec.withSampling)");
            assertThat(node.metrics().sampling().samples()).as("samples after refused prepares").isZero();

            long handle = w.prepareSample(4, 1, 2);
            for (long unknown : new long[] {handle + 1, 0, -1, 12345}) {
                assertThatThrownBy(() -> w.pullSample(unknown, keys, values)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("handle=" + unknown + " (expected a prepared sample not yet pulled)");
            }
            assertThatThrownBy(() -> v.pullSample(handle, keys, new float[4 * VALUE_LENGTH]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + handle + " (expected a sample of table 'v', it was prepared for another table)");
            assertThatThrownBy(() -> w.pullSample(handle, new long[3], values)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("keysOut.length=3 (expected room for the 4 rows of sample " + handle + ")");
            assertThatThrownBy(() -> w.pullSample(handle, keys, new float[11])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("dst.length=11 (expected 12, the floats of the values of ids)");
            assertThatThrownBy(() -> w.pullSample(handle, new long[6], 3, new float[20], 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("keysOffset=3, keysOut.length=6 (expected room for the 4 rows of sample " + handle + ")");
            assertThatThrownBy(() -> w.pullSample(handle, new long[6], 0, new float[20], 9))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("dstOffset=9, dst.length=20 (expected room for 12 floats from the offset)");
            assertThatThrownBy(() -> w.pullSample(handle, null, values)).isInstanceOf(NullPointerException.class)
                    .hasMessage("keysOut=null (expected a value)");
            assertThatThrownBy(() -> w.takeSample(handle + 1, keys, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + (handle + 1) + " (expected a prepared sample not yet pulled)");
            assertThatThrownBy(() -> v.takeSample(handle, keys, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + handle + " (expected a sample of table 'v', it was prepared for another table)");
            assertThatThrownBy(() -> w.takeSample(handle, new long[6], 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("keysOffset=3, keysOut.length=6 (expected room for the 4 rows of sample " + handle + ")");
            assertThatThrownBy(() -> w.takeSample(handle, keys, -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("keysOffset=-1, keysOut.length=4 (expected room for the 4 rows of sample " + handle + ")");
            assertThatThrownBy(() -> w.takeSample(handle, null, 0)).isInstanceOf(NullPointerException.class)
                    .hasMessage("keysOut=null (expected a value)");
            assertThat(keys).as("keysOut after refused pulls and takes").containsOnly(0L);
            assertThat(node.metrics().sampling().rowsPulled()).isZero();

            // Every refusal left the handle prepared: it pulls now, once.
            long[] wide = new long[6];
            float[] wideValues = new float[20];
            Arrays.fill(wide, -7);
            w.pullSample(handle, wide, 1, wideValues, 2);
            assertThat(wide[0]).isEqualTo(-7);
            assertThat(wide[5]).isEqualTo(-7);
            for (int i = 0; i < 4; i++) {
                assertThat(wideValues[2 + i * VALUE_LENGTH]).isEqualTo(value(wide[1 + i], 0));
            }
            assertThatThrownBy(() -> w.pullSample(handle, keys, values)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + handle + " (expected a prepared sample not yet pulled)");
            assertThatThrownBy(() -> w.takeSample(handle, keys, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + handle + " (expected a prepared sample not yet pulled)");
            long taken = w.prepareSample(4, 1, 2);
            assertThat(w.takeSample(taken, keys, 0)).isEqualTo(4);
            assertThatThrownBy(() -> w.pullSample(taken, keys, values)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("handle=" + taken + " (expected a prepared sample not yet pulled)");

            // At most MAX_PREPARED_SAMPLES prepared and not pulled; the refusal keeps all of them.
            long[] handles = new long[TableView.MAX_PREPARED_SAMPLES];
            for (int i = 0; i < handles.length; i++) {
                handles[i] = (i % 2 == 0 ? w : v).prepareSample(4, 1, 2);
            }
            assertThatThrownBy(() -> w.prepareSample(4, 1, 2)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("prepared samples=1024 not pulled")
                    .hasMessageEndingWith("(expected at most 1024 prepared and not pulled)");
            for (int i = 0; i < handles.length; i++) {
                TableView view = i % 2 == 0 ? w : v;
                view.pullSample(handles[i], keys, values);
                long bound = i % 2 == 0 ? ROWS : 10;
                assertThat(Arrays.stream(keys).allMatch(key -> key >= 0 && key < bound)).as("rows of %s", view).isTrue();
            }
            assertThat(w.prepareSample(4, 1, 2)).as("a handle after the ring emptied").isPositive();
            SamplingMetrics metrics = node.metrics().sampling();
            assertThat(metrics.samples()).isEqualTo(1 + 1 + 1024 + 1);
            assertThat(metrics.rowsPulled()).isEqualTo(4 * (1 + 1 + 1024));
        }
    }

    @Test
    void aWorkerUsesOnlyItsOwnHandles() throws InterruptedException {
        try (AdaPS node = SamplingSetup.single(scheme(), SamplingSetup.sampled("w", SamplingSetup.skewed()))) {
            Worker first = node.worker();
            long handle = first.table("w").prepareSample(2, 0, 1);
            Concurrently.run(1, t -> {
                Worker second = node.worker();
                assertThatThrownBy(() -> second.table("w").pullSample(handle, new long[2], new float[2 * VALUE_LENGTH]))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("handle=" + handle + " (expected a prepared sample not yet pulled)");
                assertThatThrownBy(() -> first.table("w").pullSample(handle, new long[2], new float[2 * VALUE_LENGTH]))
                        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("thread='test-thread-0'");
            });
            first.table("w").pullSample(handle, new long[2], new float[2 * VALUE_LENGTH]);
        }
    }
}
