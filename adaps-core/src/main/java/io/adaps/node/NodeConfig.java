package io.adaps.node;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.adaps.api.Partitioning;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.sampling.KeyDistribution;

/**
 * A node's settings, validated by {@link io.adaps.api.AdaPS.Builder}.
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

    /**
     * The canonical description of the tables and partitioning that every node of a cluster must
     * share; compared in the handshake. Custom rules and initializers must override
     * {@code toString()} with their parameters for it to be meaningful.
     */
    public static String schema(List<Table> tables, Partitioning partitioning) {
        return tables.stream()
                .map(t -> t.name() + ":" + t.rows() + "x" + t.valueLength() + ":" + t.spec().initializer() + ":"
                        + t.spec().updateRule() + samplingSchema(t))
                .collect(Collectors.joining(";", "", ";partitioning=" + partitioning));
    }

    /**
     * A sampled table's distribution as the handshake compares it: its kind and number of keys,
     * which catch a node without the distribution or with another vocabulary, while
     * distributions without a {@code toString()} of their own still agree between processes.
     */
    private static String samplingSchema(Table table) {
        KeyDistribution sampling = table.spec().sampling();
        return sampling == null ? "" : ":sampling=" + sampling.getClass().getSimpleName() + "/" + sampling.size();
    }
}
