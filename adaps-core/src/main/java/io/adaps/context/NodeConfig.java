package io.adaps.context;

import java.time.Duration;
import java.util.List;

import io.adaps.api.Partitioning;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.api.Technique;

/**
 * A node's settings, validated by the bootstrap from {@link io.adaps.api.NodeSettings}.
 *
 * @param nodeId           this node's id
 * @param clusterSize      nodes in the cluster
 * @param tables           the declared tables, laid out
 * @param partitioning     how rows get home nodes
 * @param technique        how this node manages parameter placement
 * @param sampling         how this node serves sampling access
 * @param samplePoolSize   keys per generation of a {@link SamplingScheme#POOL} pool
 * @param samplePoolReuse  how often a pool key is handed out
 * @param operationTimeout the longest wait for answers from live peers
 * @param barrierTimeout   the longest wait in a barrier
 * @param maxMessageBytes  the largest message; operations are split to fit
 */
public record NodeConfig(int nodeId, int clusterSize, List<Table> tables, Partitioning partitioning,
                         Technique technique, SamplingScheme sampling, int samplePoolSize, int samplePoolReuse,
                         Duration operationTimeout, Duration barrierTimeout, int maxMessageBytes) {
    /** Copies {@code tables}. */
    public NodeConfig {
        tables = List.copyOf(tables);
    }

    /** The home node of {@code row} of {@code table}. */
    public int home(Table table, long row) {
        return partitioning.home(table, row, clusterSize);
    }

    /** Whether this node has peers. */
    public boolean isCluster() {
        return clusterSize > 1;
    }
}
