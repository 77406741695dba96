package io.adaps.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.adaps.api.Consistency;
import io.adaps.api.StalenessMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
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
}
