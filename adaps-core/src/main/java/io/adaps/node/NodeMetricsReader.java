package io.adaps.node;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.adaps.api.NodeMetrics;
import io.adaps.api.NodeMetrics.Counter;
import io.adaps.api.PeerMetrics;
import io.adaps.api.ReplicationMetrics;
import io.adaps.api.SamplingMetrics;
import io.adaps.api.StalenessMetrics;
import io.adaps.api.Table;
import io.adaps.consistency.ClusterClocks;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.placement.AdaptiveManager;
import io.adaps.relocation.Relocator;
import io.adaps.rpc.Operation;
import io.adaps.sampling.SamplePool;
import io.adaps.worker.NodeWorker;
import io.adaps.worker.Workers;

/** Reads a node's counters from its parts into {@link NodeMetrics}. */
final class NodeMetricsReader {
    private NodeMetricsReader() {
    }

    /**
     * The node's metrics now.
     *
     * @param relocator {@code null} on a cluster of one
     * @param manager   {@code null} on a node without a manager
     * @param pools     per table its sampling pool, or {@code null}
     */
    static NodeMetrics read(NodeContext context, Workers workers, Relocator relocator, AdaptiveManager manager,
                            SamplePool[] pools) {
        long[] sums = new long[NodeWorker.COUNTERS];
        workers.addCounters(sums);
        Peers peers = context.peers();
        List<PeerMetrics> roundTrips = new ArrayList<>();
        for (int peer = 0; peer < context.clusterSize(); peer++) {
            if (peer != context.nodeId()) {
                roundTrips.add(peers.roundTripMetrics(peer));
            }
        }
        long refills = 0;
        for (SamplePool pool : pools) {
            if (pool != null) {
                refills += pool.refills();
            }
        }
        return NodeMetrics.builder(context.nodeId())
                .set(Counter.WORKERS_OPEN, workers.openCount())
                .set(Counter.WORKERS_CREATED, workers.created())
                .set(Counter.LOCAL_PULLS, sums[NodeWorker.LOCAL_PULLS])
                .set(Counter.LOCAL_PUSHES, sums[NodeWorker.LOCAL_PUSHES])
                .set(Counter.LOCAL_SETS, sums[NodeWorker.LOCAL_SETS])
                .set(Counter.REMOTE_PULLS, sums[NodeWorker.REMOTE_PULLS])
                .set(Counter.REMOTE_PUSHES, sums[NodeWorker.REMOTE_PUSHES])
                .set(Counter.REMOTE_SETS, sums[NodeWorker.REMOTE_SETS])
                .set(Counter.INTENTS_SIGNALED, sums[NodeWorker.INTENTS])
                .set(Counter.MESSAGES_SENT, peers.messagesSent())
                .set(Counter.BYTES_SENT, peers.bytesSent())
                .set(Counter.MESSAGES_RECEIVED, peers.messagesReceived())
                .set(Counter.BYTES_RECEIVED, peers.bytesReceived())
                .set(Counter.RELOCATIONS_IN, relocator == null ? 0 : relocator.relocationsIn())
                .set(Counter.RELOCATIONS_OUT, relocator == null ? 0 : relocator.relocationsOut())
                .set(Counter.FORWARDED, relocator == null ? 0 : relocator.forwarded())
                .set(Counter.LOCATION_HITS, sums[NodeWorker.LOCATION_HITS])
                .set(Counter.LOCATION_MISSES, sums[NodeWorker.LOCATION_MISSES])
                .replication(manager == null ? ReplicationMetrics.NONE : new ReplicationMetrics(manager.replicasHeld(),
                        manager.replicasCreated(), manager.replicasDropped(), manager.syncRounds(), manager.syncDeltaBytes(),
                        manager.managedRelocations(), manager.windowClocks(),
                        manager.keysLeftInPlace()))
                .sampling(new SamplingMetrics(context.config().sampling(), sums[NodeWorker.SAMPLES],
                        sums[NodeWorker.SAMPLE_ROWS_DRAWN], sums[NodeWorker.SAMPLE_ROWS_PULLED],
                        sums[NodeWorker.SAMPLE_ROWS_LOCAL], sums[NodeWorker.LOCAL_REDRAWS], refills,
                        sums[NodeWorker.POOL_FALLBACK_DRAWS]))
                .peers(roundTrips)
                .perWorker(workers.metrics())
                .staleness(staleness(context, workers.clocks()))
                .latencies(Arrays.stream(Operation.values()).map(op -> peers.latencyMetrics(op.request)).toList())
                .build();
    }

    private static List<StalenessMetrics> staleness(NodeContext context, ClusterClocks clocks) {
        List<StalenessMetrics> tables = new ArrayList<>();
        long clockWaits = clocks.clockWaitNanos();
        for (Table table : context.tables()) {
            long[] reads = new long[StalenessMetrics.BUCKETS + 1];
            clocks.addReads(table.id(), reads);
            boolean strictest = clocks.isBounded(table.id()) && clocks.bound(table.id()) == clocks.strictestBound();
            tables.add(new StalenessMetrics(table.name(), table.spec().consistency(), reads,
                    clocks.replicaWaitNanos(table.id()), strictest ? clockWaits : 0));
        }
        return tables;
    }
}
