package io.adaps.api;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Counters of one node, read while it runs (each is exact once the workers are quiet). Pulls,
 * pushes and sets count parameter values (keys), not calls.
 *
 * <p>The node's scalar counters are the {@link Counter}s, each read with {@link #get(Counter)}
 * (the named accessors are shorthands), so that counters can be added without changing how
 * metrics are made or read; a metrics library can publish them all by iterating the enum. What
 * the adaptive manager and sampling did, the round trips to each peer and each worker's accesses
 * are grouped beside them.
 */
public final class NodeMetrics {
    /** The scalar counters of a node. */
    public enum Counter {
        WORKERS_OPEN("workers open now"),
        WORKERS_CREATED("workers created since the node started"),
        LOCAL_PULLS("values pulled from this node's memory"),
        LOCAL_PUSHES("updates pushed to this node's memory"),
        LOCAL_SETS("values set in this node's memory"),
        REMOTE_PULLS("values pulled from other nodes"),
        REMOTE_PUSHES("updates pushed to other nodes"),
        REMOTE_SETS("values set at other nodes"),
        INTENTS_SIGNALED("ids named by intent calls"),
        MESSAGES_SENT("messages sent to other nodes (requests and answers)"),
        BYTES_SENT("bytes of the messages sent"),
        MESSAGES_RECEIVED("messages received from other nodes"),
        BYTES_RECEIVED("bytes of the messages received"),
        RELOCATIONS_IN("parameters that moved to this node"),
        RELOCATIONS_OUT("parameters that moved away from this node"),
        FORWARDED("requested values this node did not hold and passed on towards their holder"),
        LOCATION_HITS("remote values sent to a cached location"),
        LOCATION_MISSES("remote values sent to the home node because no location was cached");

        private final String description;

        Counter(String description) {
            this.description = description;
        }

        /** What the counter counts. */
        public String description() {
            return description;
        }
    }

    private static final Counter[] COUNTERS = Counter.values();

    private final int nodeId;
    private final long[] counters;
    private final ReplicationMetrics replication;
    private final SamplingMetrics sampling;
    private final List<PeerMetrics> peers;
    private final List<WorkerMetrics> perWorker;
    private final List<StalenessMetrics> staleness;
    private final List<LatencyMetrics> latencies;

    private NodeMetrics(Builder builder) {
        this.nodeId = builder.nodeId;
        this.counters = builder.counters.clone();
        this.replication = builder.replication;
        this.sampling = builder.sampling;
        this.peers = List.copyOf(builder.peers);
        this.perWorker = List.copyOf(builder.perWorker);
        this.staleness = List.copyOf(builder.staleness);
        this.latencies = List.copyOf(builder.latencies);
    }

    /** A builder of the metrics of node {@code nodeId}: every counter 0, no peers, no workers. */
    public static Builder builder(int nodeId) {
        return new Builder(nodeId);
    }

    /** The node. */
    public int nodeId() {
        return nodeId;
    }

    /** The value of {@code counter}. */
    public long get(Counter counter) {
        return counters[counter.ordinal()];
    }

    /** Every counter by name, in declaration order. */
    public Map<Counter, Long> counters() {
        Map<Counter, Long> all = new EnumMap<>(Counter.class);
        for (Counter counter : COUNTERS) {
            all.put(counter, get(counter));
        }
        return all;
    }

    /** Workers open now. */
    public int workers() {
        return (int) get(Counter.WORKERS_OPEN);
    }

    public long localPulls() {
        return get(Counter.LOCAL_PULLS);
    }

    public long localPushes() {
        return get(Counter.LOCAL_PUSHES);
    }

    public long localSets() {
        return get(Counter.LOCAL_SETS);
    }

    public long remotePulls() {
        return get(Counter.REMOTE_PULLS);
    }

    public long remotePushes() {
        return get(Counter.REMOTE_PUSHES);
    }

    public long remoteSets() {
        return get(Counter.REMOTE_SETS);
    }

    public long intentsSignaled() {
        return get(Counter.INTENTS_SIGNALED);
    }

    public long messagesSent() {
        return get(Counter.MESSAGES_SENT);
    }

    public long bytesSent() {
        return get(Counter.BYTES_SENT);
    }

    public long messagesReceived() {
        return get(Counter.MESSAGES_RECEIVED);
    }

    public long bytesReceived() {
        return get(Counter.BYTES_RECEIVED);
    }

    public long relocationsIn() {
        return get(Counter.RELOCATIONS_IN);
    }

    public long relocationsOut() {
        return get(Counter.RELOCATIONS_OUT);
    }

    public long forwarded() {
        return get(Counter.FORWARDED);
    }

    public long locationHits() {
        return get(Counter.LOCATION_HITS);
    }

    public long locationMisses() {
        return get(Counter.LOCATION_MISSES);
    }

    /** What the adaptive manager did (replicas, synchronization, relocations). */
    public ReplicationMetrics replication() {
        return replication;
    }

    /** What the workers did with sampling access. */
    public SamplingMetrics sampling() {
        return sampling;
    }

    /** Round-trip times of this node's requests, one entry per other node. */
    public List<PeerMetrics> peers() {
        return peers;
    }

    /**
     * Round trips of this node's remote requests by kind ({@code pull}, {@code push}, {@code set},
     * {@code localize}, {@code sync}, {@code refresh}, in that order), to any peer.
     */
    public List<LatencyMetrics> latencies() {
        return latencies;
    }

    /** Per table, in declaration order: the staleness its reads saw and the waits its bound caused. */
    public List<StalenessMetrics> staleness() {
        return staleness;
    }

    /** The staleness metrics of table {@code name}. */
    public StalenessMetrics staleness(String name) {
        for (StalenessMetrics table : staleness) {
            if (table.table().equals(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("name='" + name + "' (expected one of the tables " + staleness.stream()
                .map(StalenessMetrics::table).toList() + ")");
    }

    /** The local-access counters of each open worker. */
    public List<WorkerMetrics> perWorker() {
        return perWorker;
    }

    /** Values pulled, pushed and set in this node's memory, over all values accessed by its workers. */
    public double localFraction() {
        long local = localPulls() + localPushes() + localSets();
        long all = local + remotePulls() + remotePushes() + remoteSets();
        return all == 0 ? 1.0 : (double) local / all;
    }

    /** A multi-line summary for logs and example programs. */
    public String describe() {
        StringBuilder text = new StringBuilder(String.format(
                "node %d: %d workers; local pull/push/set %d/%d/%d, remote %d/%d/%d (%.1f%% local); "
                        + "sent %d messages (%.1f MiB), received %d (%.1f MiB); relocated in %d, out %d; "
                        + "forwarded %d; location cache hits %d, misses %d",
                nodeId, workers(), localPulls(), localPushes(), localSets(), remotePulls(), remotePushes(), remoteSets(),
                100 * localFraction(), messagesSent(), bytesSent() / 1048576.0, messagesReceived(),
                bytesReceived() / 1048576.0, relocationsIn(), relocationsOut(), forwarded(), locationHits(),
                locationMisses()));
        if (!replication.equals(ReplicationMetrics.NONE)) {
            text.append(String.format("%n  replicas held %d, created %d, dropped %d; %d sync rounds sent %.1f MiB of deltas; "
                            + "%d relocations asked for by the manager, %d keys left in place; action window %d clocks",
                    replication.replicasHeld(), replication.replicasCreated(), replication.replicasDropped(),
                    replication.syncRounds(), replication.syncDeltaBytes() / 1048576.0, replication.managedRelocations(),
                    replication.keysLeftInPlace(), replication.actionWindowClocks()));
        }
        if (sampling.samples() > 0) {
            text.append(String.format("%n  sampling %s: %d samples, %d rows drawn, %d pulled (%.1f%% local at pull); "
                            + "%d local redraws; %d pool refills, %d pool fallback draws",
                    sampling.scheme(), sampling.samples(), sampling.rowsDrawn(), sampling.rowsPulled(),
                    100 * sampling.localFractionAtPull(), sampling.localRedraws(), sampling.poolRefills(),
                    sampling.poolFallbackDraws()));
        }
        for (StalenessMetrics table : staleness) {
            if (table.reads() > 0) {
                text.append("%n  ".formatted()).append(table.describe());
            }
        }
        for (LatencyMetrics latency : latencies) {
            if (latency.requests() > 0) {
                text.append(String.format("%n  %s requests: %d, p50 %.0f us, p99 %.0f us, max %.0f us", latency.operation(),
                        latency.requests(), latency.p50Micros(), latency.p99Micros(), latency.maxMicros()));
            }
        }
        for (PeerMetrics peer : peers) {
            text.append(String.format("%n  round trips to node %d: %d, p50 %.0f us, p99 %.0f us, max %.0f us",
                    peer.peer(), peer.roundTrips(), peer.p50Micros(), peer.p99Micros(), peer.maxMicros()));
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NodeMetrics that && nodeId == that.nodeId && Arrays.equals(counters, that.counters)
                && replication.equals(that.replication) && sampling.equals(that.sampling) && peers.equals(that.peers)
                && perWorker.equals(that.perWorker) && staleness.equals(that.staleness)
                && latencies.equals(that.latencies);
    }

    @Override
    public int hashCode() {
        return 31 * Integer.hashCode(nodeId) + Arrays.hashCode(counters);
    }

    @Override
    public String toString() {
        return describe();
    }

    /** Makes {@link NodeMetrics}; what is not set is 0 or empty. Not thread-safe. */
    public static final class Builder {
        private final int nodeId;
        private final long[] counters = new long[COUNTERS.length];
        private ReplicationMetrics replication = ReplicationMetrics.NONE;
        private SamplingMetrics sampling = SamplingMetrics.none(SamplingScheme.NAIVE);
        private List<PeerMetrics> peers = List.of();
        private List<WorkerMetrics> perWorker = List.of();
        private List<StalenessMetrics> staleness = List.of();
        private List<LatencyMetrics> latencies = List.of();

        private Builder(int nodeId) {
            this.nodeId = nodeId;
        }

        /** Sets {@code counter} to {@code value}. */
        public Builder set(Counter counter, long value) {
            counters[counter.ordinal()] = value;
            return this;
        }

        public Builder replication(ReplicationMetrics replication) {
            this.replication = Objects.requireNonNull(replication, "replication");
            return this;
        }

        public Builder sampling(SamplingMetrics sampling) {
            this.sampling = Objects.requireNonNull(sampling, "sampling");
            return this;
        }

        public Builder peers(List<PeerMetrics> peers) {
            this.peers = List.copyOf(peers);
            return this;
        }

        public Builder perWorker(List<WorkerMetrics> perWorker) {
            this.perWorker = List.copyOf(perWorker);
            return this;
        }

        public Builder staleness(List<StalenessMetrics> staleness) {
            this.staleness = List.copyOf(staleness);
            return this;
        }

        public Builder latencies(List<LatencyMetrics> latencies) {
            this.latencies = List.copyOf(latencies);
            return this;
        }

        public NodeMetrics build() {
            return new NodeMetrics(this);
        }
    }
}
