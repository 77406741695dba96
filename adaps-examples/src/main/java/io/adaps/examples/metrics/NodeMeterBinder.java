package io.adaps.examples.metrics;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.api.LatencyMetrics;
import io.adaps.api.PeerMetrics;
import io.adaps.api.StalenessMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Publishes a node's {@link NodeMetrics} as Micrometer meters, tagged {@code node=<id>}:
 *
 * <ul>
 *   <li>every {@link NodeMetrics.Counter} as a function counter {@code adaps.<counter>} (e.g.
 *       {@code adaps.remote.pulls}, {@code adaps.bytes.sent} in bytes), except
 *       {@code WORKERS_OPEN}, a gauge {@code adaps.workers.open};</li>
 *   <li>gauges: {@code adaps.local.fraction} (accesses served locally), {@code adaps.replicas.held},
 *       {@code adaps.action.window} (clocks);</li>
 *   <li>function counters of the adaptive manager: {@code adaps.replicas.created},
 *       {@code adaps.replicas.dropped}, {@code adaps.sync.rounds}, {@code adaps.sync.delta.bytes},
 *       {@code adaps.managed.relocations};</li>
 *   <li>per table ({@code table=<name>}, {@code model=<consistency>}): the staleness its reads saw
 *       (reader's clock minus the clock the value reflects, see {@link StalenessMetrics}): a
 *       function counter {@code adaps.staleness.reads}, gauges {@code adaps.staleness.mean} and
 *       {@code adaps.staleness.quantile} with {@code quantile=0.5|0.99|1.0} (clocks), and a function
 *       counter {@code adaps.consistency.wait} in seconds with {@code wait=clock} (in
 *       {@code advanceClock}) or {@code wait=replica} (for a fresh replica);</li>
 *   <li>per kind of remote request ({@code operation=pull|push|set|localize|sync|refresh}): a
 *       function timer {@code adaps.remote.latency} and time gauges
 *       {@code adaps.remote.latency.quantile} with {@code quantile=0.5|0.99|1.0};</li>
 *   <li>per peer ({@code peer=<id>}): a function timer {@code adaps.remote.round.trip} (requests
 *       answered and their total time: the latency of remote pulls, pushes and sets), and time
 *       gauges {@code adaps.remote.round.trip.quantile} with {@code quantile=0.5|0.99|1.0}.</li>
 * </ul>
 *
 * A node computes its metrics on demand, so the binder takes one snapshot for all meters read
 * within {@value #SNAPSHOT_MILLIS} ms of it (a scrape reads every meter). Meters hold the node
 * weakly, as Micrometer's function meters do; after {@code close()} they keep the last values.
 */
public final class NodeMeterBinder implements MeterBinder {
    /** How long one snapshot serves the meters read after it. */
    static final long SNAPSHOT_MILLIS = 1_000;

    private final Snapshots snapshots;
    private final Tags tags;
    private final List<Integer> peers;

    /** Meters of {@code node}. */
    public NodeMeterBinder(AdaPS node) {
        this(node::metrics, node.nodeId(), node.clusterSize());
    }

    /** Meters of node {@code nodeId} of a cluster of {@code clusterSize}, read from {@code metrics}. */
    NodeMeterBinder(Supplier<NodeMetrics> metrics, int nodeId, int clusterSize) {
        this.snapshots = new Snapshots(metrics);
        this.tags = Tags.of("node", Integer.toString(nodeId));
        this.peers = java.util.stream.IntStream.range(0, clusterSize).filter(peer -> peer != nodeId).boxed().toList();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (NodeMetrics.Counter counter : NodeMetrics.Counter.values()) {
            String name = "adaps." + counter.name().toLowerCase(Locale.ROOT).replace('_', '.');
            if (counter == NodeMetrics.Counter.WORKERS_OPEN) {
                gauge(registry, name, counter.description(), null, m -> m.get(counter));
            } else {
                counter(registry, name, counter.description(), counter.name().startsWith("BYTES") ? "bytes" : null,
                        m -> m.get(counter));
            }
        }
        gauge(registry, "adaps.local.fraction", "fraction of pulls and pushes served from this node's memory", null,
                NodeMetrics::localFraction);
        gauge(registry, "adaps.replicas.held", "replicas this node holds now", null, m -> m.replication().replicasHeld());
        gauge(registry, "adaps.action.window", "clocks ahead of its workers the manager acts on intents", "clocks",
                m -> m.replication().actionWindowClocks());
        counter(registry, "adaps.replicas.created", "replicas created on intent", null,
                m -> m.replication().replicasCreated());
        counter(registry, "adaps.replicas.dropped", "replicas dropped after their intent ended", null,
                m -> m.replication().replicasDropped());
        counter(registry, "adaps.sync.rounds", "replica synchronization rounds", null, m -> m.replication().syncRounds());
        counter(registry, "adaps.sync.delta.bytes", "bytes of updates sent to owners by synchronization rounds", "bytes",
                m -> m.replication().syncDeltaBytes());
        counter(registry, "adaps.managed.relocations", "parameters the manager moved here", null,
                m -> m.replication().managedRelocations());
        counter(registry, "adaps.keys.left.in.place",
                "keys the manager left where they were: their tables are read in batches", null,
                m -> m.replication().keysLeftInPlace());
        for (int peer : peers) {
            bindPeer(registry, peer);
        }
        for (LatencyMetrics latency : snapshots.get().latencies()) {
            bindLatency(registry, latency.operation());
        }
        for (StalenessMetrics table : snapshots.get().staleness()) {
            bindTable(registry, table.table(), tags.and("table", table.table(), "model", table.consistency().toString()));
        }
    }

    private void bindLatency(MeterRegistry registry, String operation) {
        Tags opTags = tags.and("operation", operation);
        FunctionTimer.builder("adaps.remote.latency", snapshots, s -> latencyOf(s.get(), operation).requests(),
                        s -> latencyOf(s.get(), operation).requests() * latencyOf(s.get(), operation).meanMicros(),
                        TimeUnit.MICROSECONDS)
                .description("remote requests of this kind answered, and their round-trip time").tags(opTags)
                .register(registry);
        for (String quantile : List.of("0.5", "0.99", "1.0")) {
            ToDoubleFunction<Snapshots> micros = switch (quantile) {
                case "0.5" -> s -> latencyOf(s.get(), operation).p50Micros();
                case "0.99" -> s -> latencyOf(s.get(), operation).p99Micros();
                default -> s -> latencyOf(s.get(), operation).maxMicros();
            };
            TimeGauge.builder("adaps.remote.latency.quantile", snapshots, TimeUnit.MICROSECONDS, micros)
                    .description("round-trip time of remote requests of this kind at this quantile, since the node "
                            + "started").tags(opTags.and("quantile", quantile)).register(registry);
        }
    }

    private static LatencyMetrics latencyOf(NodeMetrics metrics, String operation) {
        for (LatencyMetrics candidate : metrics.latencies()) {
            if (candidate.operation().equals(operation)) {
                return candidate;
            }
        }
        return new LatencyMetrics(operation, 0, 0, 0, 0, 0);
    }

    private void bindTable(MeterRegistry registry, String table, Tags tableTags) {
        FunctionCounter.builder("adaps.staleness.reads", snapshots, s -> s.get().staleness(table).reads())
                .description("reads (pull calls) of the table").tags(tableTags).register(registry);
        Gauge.builder("adaps.staleness.mean", snapshots, s -> s.get().staleness(table).meanStaleness())
                .description("mean staleness of the table's reads: reader's clock minus the clock the value reflects")
                .baseUnit("clocks").tags(tableTags).register(registry);
        for (String quantile : List.of("0.5", "0.99", "1.0")) {
            double q = Double.parseDouble(quantile);
            Gauge.builder("adaps.staleness.quantile", snapshots, s -> s.get().staleness(table).staleness(q))
                    .description("staleness of the table's reads at this quantile, since the node started")
                    .baseUnit("clocks").tags(tableTags.and("quantile", quantile)).register(registry);
        }
        FunctionCounter.builder("adaps.consistency.wait", snapshots, s -> s.get().staleness(table).clockWaitNanos() / 1e9)
                .description("time workers waited in advanceClock for the slowest worker (the table's bound is the "
                        + "node's strictest)").baseUnit("seconds").tags(tableTags.and("wait", "clock")).register(registry);
        FunctionCounter.builder("adaps.consistency.wait", snapshots,
                        s -> s.get().staleness(table).replicaWaitNanos() / 1e9)
                .description("time workers waited for replicas of the table to be refreshed").baseUnit("seconds")
                .tags(tableTags.and("wait", "replica")).register(registry);
    }

    private void bindPeer(MeterRegistry registry, int peer) {
        Tags peerTags = tags.and("peer", Integer.toString(peer));
        FunctionTimer.builder("adaps.remote.round.trip", snapshots,
                        s -> peerOf(s.get(), peer).roundTrips(),
                        s -> peerOf(s.get(), peer).roundTrips() * peerOf(s.get(), peer).meanMicros(), TimeUnit.MICROSECONDS)
                .description("requests to the peer answered, and their round-trip time").tags(peerTags).register(registry);
        quantile(registry, peerTags, "0.5", s -> peerOf(s.get(), peer).p50Micros());
        quantile(registry, peerTags, "0.99", s -> peerOf(s.get(), peer).p99Micros());
        quantile(registry, peerTags, "1.0", s -> peerOf(s.get(), peer).maxMicros());
    }

    private void quantile(MeterRegistry registry, Tags peerTags, String quantile, ToDoubleFunction<Snapshots> micros) {
        TimeGauge.builder("adaps.remote.round.trip.quantile", snapshots, TimeUnit.MICROSECONDS, micros)
                .description("round-trip time of requests to the peer at this quantile, since the node started")
                .tags(peerTags.and("quantile", quantile)).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, String unit,
                       ToDoubleFunction<NodeMetrics> value) {
        Gauge.builder(name, snapshots, s -> value.applyAsDouble(s.get())).description(description).baseUnit(unit)
                .tags(tags).register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, String unit,
                         ToDoubleFunction<NodeMetrics> value) {
        FunctionCounter.builder(name, snapshots, s -> value.applyAsDouble(s.get())).description(description)
                .baseUnit(unit).tags(tags).register(registry);
    }

    private static PeerMetrics peerOf(NodeMetrics metrics, int peer) {
        for (PeerMetrics candidate : metrics.peers()) {
            if (candidate.peer() == peer) {
                return candidate;
            }
        }
        return new PeerMetrics(peer, 0, 0, 0, 0, 0);
    }

    /** The node's metrics, taken at most every {@value #SNAPSHOT_MILLIS} ms. */
    static final class Snapshots {
        private final Supplier<NodeMetrics> metrics;
        private NodeMetrics last;
        private long takenNanos;

        Snapshots(Supplier<NodeMetrics> metrics) {
            this.metrics = metrics;
        }

        synchronized NodeMetrics get() {
            long now = System.nanoTime();
            if (last == null || now - takenNanos >= TimeUnit.MILLISECONDS.toNanos(SNAPSHOT_MILLIS)) {
                last = metrics.get();
                takenNanos = now;
            }
            return last;
        }
    }
}
