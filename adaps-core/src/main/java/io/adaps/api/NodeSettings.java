package io.adaps.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TlsSettings;
import io.adaps.api.transport.Transport;

/**
 * The validated settings of a node, as {@link AdaPS.Builder} collected them: what a
 * {@link NodeFactory} starts a node from. Immutable; see the builder's setters for each value.
 */
public final class NodeSettings {
    private final List<Table> tables;
    private final int nodeId;
    private final List<PeerAddress> peers;
    private final String clusterId;
    private final Partitioning partitioning;
    private final Technique technique;
    private final SamplingScheme sampling;
    private final int samplePoolSize;
    private final int samplePoolReuse;
    private final Transport transport;
    private final String bindHost;
    private final TlsSettings tls;
    private final ClusterSecret clusterSecret;
    private final Duration connectTimeout;
    private final Duration heartbeatInterval;
    private final Duration failureTimeout;
    private final Duration operationTimeout;
    private final Duration barrierTimeout;
    private final int maxMessageBytes;
    private final Path restoreFrom;
    private final boolean restorePlacement;
    private final int checkpointsKept;
    private final int fullCheckpointEvery;
    private final Path checkpointDir;
    private final Duration checkpointEvery;

    NodeSettings(List<TableSpec> tables, int nodeId, List<PeerAddress> peers, String clusterId, Partitioning partitioning,
                 Technique technique, SamplingScheme sampling, int samplePoolSize, int samplePoolReuse, Transport transport,
                 String bindHost, TlsSettings tls, ClusterSecret clusterSecret, Duration connectTimeout,
                 Duration heartbeatInterval, Duration failureTimeout, Duration operationTimeout, Duration barrierTimeout,
                 int maxMessageBytes, Path restoreFrom, boolean restorePlacement, int checkpointsKept,
                 int fullCheckpointEvery, Path checkpointDir,
                 Duration checkpointEvery) {
        List<Table> laidOut = new ArrayList<>(tables.size());
        long firstKey = 0;
        for (TableSpec spec : tables) {
            laidOut.add(new Table(spec, laidOut.size(), firstKey));
            firstKey += spec.rows();
        }
        this.tables = List.copyOf(laidOut);
        this.nodeId = nodeId;
        this.peers = List.copyOf(peers);
        this.clusterId = clusterId;
        this.partitioning = partitioning;
        this.technique = technique;
        this.sampling = sampling;
        this.samplePoolSize = samplePoolSize;
        this.samplePoolReuse = samplePoolReuse;
        this.transport = transport;
        this.bindHost = bindHost;
        this.tls = tls;
        this.clusterSecret = clusterSecret;
        this.connectTimeout = connectTimeout;
        this.heartbeatInterval = heartbeatInterval;
        this.failureTimeout = failureTimeout;
        this.operationTimeout = operationTimeout;
        this.barrierTimeout = barrierTimeout;
        this.maxMessageBytes = maxMessageBytes;
        this.restoreFrom = restoreFrom;
        this.restorePlacement = restorePlacement;
        this.checkpointsKept = checkpointsKept;
        this.fullCheckpointEvery = fullCheckpointEvery;
        this.checkpointDir = checkpointDir;
        this.checkpointEvery = checkpointEvery;
    }

    /** The declared tables, laid out in declaration (and key) order. */
    public List<Table> tables() {
        return tables;
    }

    public int nodeId() {
        return nodeId;
    }

    /** Every node's address in id order; empty for a cluster of one. */
    public List<PeerAddress> peers() {
        return peers;
    }

    /** Nodes in the cluster. */
    public int clusterSize() {
        return Math.max(1, peers.size());
    }

    public String clusterId() {
        return clusterId;
    }

    public Partitioning partitioning() {
        return partitioning;
    }

    public Technique technique() {
        return technique;
    }

    public SamplingScheme sampling() {
        return sampling;
    }

    public int samplePoolSize() {
        return samplePoolSize;
    }

    public int samplePoolReuse() {
        return samplePoolReuse;
    }

    /** The transport set on the builder, or {@code null}: the one found on the class path. */
    public Transport transport() {
        return transport;
    }

    /** Where to listen, or null: this node's host in {@link #peers()}. */
    public String bindHost() {
        return bindHost;
    }

    /** TLS for the links between nodes, or null: plaintext. */
    public TlsSettings tls() {
        return tls;
    }

    /** The secret that authenticates handshakes, or null: none. */
    public ClusterSecret clusterSecret() {
        return clusterSecret;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    public Duration failureTimeout() {
        return failureTimeout;
    }

    public Duration operationTimeout() {
        return operationTimeout;
    }

    public Duration barrierTimeout() {
        return barrierTimeout;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /** The directory whose newest checkpoint the node starts from, or {@code null}: a fresh start. */
    public Path restoreFrom() {
        return restoreFrom;
    }

    /** Whether a restore puts rows where the checkpoint found them, where it can ({@link AdaPS.Builder#restorePlacement}). */
    public boolean restorePlacement() {
        return restorePlacement;
    }

    /** How many complete checkpoints a checkpoint directory keeps. */
    public int checkpointsKept() {
        return checkpointsKept;
    }

    /** Every how many checkpoints in a directory one is full; the others are increments (1: all full). */
    public int fullCheckpointEvery() {
        return fullCheckpointEvery;
    }

    /** Where periodic checkpoints go, or {@code null}: none. */
    public Path checkpointDir() {
        return checkpointDir;
    }

    /** The period of periodic checkpoints, or {@code null}: none. */
    public Duration checkpointEvery() {
        return checkpointEvery;
    }
}
