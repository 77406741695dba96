package io.adaps.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.LatencyMetrics;
import io.adaps.api.NodeMetrics;
import io.adaps.api.PeerMetrics;
import io.adaps.api.StalenessMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.testing.Concurrently;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The binder's meters against the node's own metrics: counters, gauges and per-peer round trips
 * on a two-node in-JVM cluster, read after the operations they count.
 */
class NodeMeterBinderTest {
    /**
     * Time gauges keep seconds: a value in microseconds read back through them may differ in the
     * last bits (2045.951 came back as 2045.9509999999998 once).
     */
    private static final Offset<Double> MICROS_THROUGH_SECONDS = Offset.offset(1e-6);

    @Test
    void metersShowTheNodesMetricsTaggedWithItsId() throws Exception {
        InJvmNetwork network = new InJvmNetwork();
        ConcurrentHashMap<Integer, AdaPS> nodes = new ConcurrentHashMap<>();
        try {
            Concurrently.run(2, Duration.ofSeconds(60), id -> nodes.put(id, AdaPS.builder()
                    .table(TableSpec.of("t", 100, 4)).nodeId(id).peers(List.of("n0:1", "n1:1"))
                    .technique(Technique.STATIC).transport(new InJvmTransport(network)).build()));
            AdaPS node = nodes.get(0);
            try (Worker worker = node.worker()) {
                float[] row = new float[4];
                for (long key = 0; key < 100; key++) {
                    worker.pull(key, row, 0);
                    worker.push(key, row, 0);
                }
            }
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new NodeMeterBinder(node).bindTo(registry);
            NodeMetrics metrics = node.metrics();

            assertThat(registry.get("adaps.local.pulls").tag("node", "0").functionCounter().count())
                    .isEqualTo(metrics.localPulls()).isEqualTo(50);
            assertThat(registry.get("adaps.remote.pushes").functionCounter().count()).isEqualTo(metrics.remotePushes())
                    .isEqualTo(50);
            assertThat(registry.get("adaps.bytes.sent").functionCounter().count()).isEqualTo(metrics.bytesSent())
                    .isPositive();
            assertThat(registry.get("adaps.bytes.sent").meter().getId().getBaseUnit()).isEqualTo("bytes");
            assertThat(registry.get("adaps.local.fraction").gauge().value()).isEqualTo(metrics.localFraction())
                    .isEqualTo(0.5);
            assertThat(registry.get("adaps.workers.open").gauge().value()).isZero();
            assertThat(registry.get("adaps.replicas.held").gauge().value()).isZero();
            assertThat(registry.find("adaps.sync.rounds").functionCounter()).isNotNull();

            PeerMetrics peer = metrics.peers().get(0);
            FunctionTimer roundTrips = registry.get("adaps.remote.round.trip").tags("node", "0", "peer", "1").functionTimer();
            assertThat(roundTrips.count()).isEqualTo(peer.roundTrips()).isEqualTo(100);
            assertThat(roundTrips.totalTime(TimeUnit.MICROSECONDS))
                    .isCloseTo(peer.roundTrips() * peer.meanMicros(), MICROS_THROUGH_SECONDS)
                    .isPositive();
            assertThat(registry.get("adaps.remote.round.trip.quantile").tag("quantile", "0.99").timeGauge()
                    .value(TimeUnit.MICROSECONDS)).isCloseTo(peer.p99Micros(), MICROS_THROUGH_SECONDS);
            assertThat(registry.get("adaps.remote.round.trip.quantile").timeGauges()).hasSize(3);

            // Half of the 100 keys are at node 1: 50 remote pulls and 50 remote pushes, timed apart.
            assertThat(metrics.latencies()).extracting(LatencyMetrics::operation)
                    .containsExactly("pull", "push", "set", "localize", "sync", "refresh");
            assertThat(registry.get("adaps.remote.latency").tags("node", "0", "operation", "pull").functionTimer().count())
                    .isEqualTo(50);
            assertThat(registry.get("adaps.remote.latency").tag("operation", "push").functionTimer().count())
                    .isEqualTo(50);
            assertThat(registry.get("adaps.remote.latency").tag("operation", "set").functionTimer().count()).isZero();
            assertThat(registry.get("adaps.remote.latency.quantile").tag("operation", "pull").timeGauges()).hasSize(3);
            assertThat(registry.get("adaps.remote.latency.quantile").tags("operation", "pull", "quantile", "0.99")
                    .timeGauge().value(TimeUnit.MICROSECONDS))
                    .isCloseTo(metrics.latencies().get(0).p99Micros(), MICROS_THROUGH_SECONDS)
                    .isPositive();

            // Each worker pulled 100 single rows at clock 0: 100 reads of table t.
            StalenessMetrics staleness = metrics.staleness("t");
            assertThat(registry.get("adaps.staleness.reads").tags("table", "t", "model", "asp").functionCounter().count())
                    .isEqualTo(staleness.reads()).isEqualTo(100);
            assertThat(registry.get("adaps.staleness.mean").tag("table", "t").gauge().value())
                    .isEqualTo(staleness.meanStaleness()).isZero();
            assertThat(registry.get("adaps.staleness.quantile").tag("table", "t").gauges()).hasSize(3);
            assertThat(registry.get("adaps.consistency.wait").tags("table", "t", "wait", "clock").functionCounter()
                    .count()).isZero();
            assertThat(registry.get("adaps.consistency.wait").tags("wait", "replica").meter().getId().getBaseUnit())
                    .isEqualTo("seconds");
            assertThat(registry.getMeters()).map(Meter::getId)
                    .allSatisfy(id -> assertThat(id.getTag("node")).isEqualTo("0"));
        } finally {
            nodes.values().forEach(AdaPS::close);
        }
    }
}
