package io.adaps.node;

import java.util.List;
import java.util.stream.Collectors;

import io.adaps.api.KeyDistribution;
import io.adaps.api.Partitioning;
import io.adaps.api.Table;

/**
 * The canonical description of what every node of a cluster must agree on, compared in the
 * handshake (which names the first difference): each table's name, size, initializer and update
 * rule (by their {@code descriptor()}s), sampling distribution and consistency model, the
 * partitioning, and how often checkpoints are full (the nodes of a checkpoint must agree whether
 * it is an increment).
 */
final class Schema {
    private Schema() {
    }

    static String describe(List<Table> tables, Partitioning partitioning, int fullCheckpointEvery) {
        return describeTables(tables) + tables.stream().map(t -> ";consistency(" + t.name() + ")=" + t.spec().consistency())
                .collect(Collectors.joining()) + ";partitioning=" + partitioning + ";fullCheckpointEvery=" + fullCheckpointEvery;
    }

    /**
     * The tables alone, as a checkpoint's manifest records them: a checkpoint restores onto
     * any partitioning (each node loads the rows it is home of) and consistency models, but only
     * onto the same tables.
     */
    static String describeTables(List<Table> tables) {
        return tables.stream()
                .map(t -> t.name() + ":" + t.rows() + "x" + t.valueLength() + ":" + t.spec().initializer().descriptor() + ":"
                        + t.spec().updateRule().descriptor() + sampling(t))
                .collect(Collectors.joining(";"));
    }

    /**
     * A sampled table's distribution as the handshake compares it: its kind and number of keys,
     * which catch a node without the distribution or with another vocabulary, while
     * distributions without a {@code toString()} of their own still agree between processes.
     */
    private static String sampling(Table table) {
        KeyDistribution sampling = table.spec().sampling();
        return sampling == null ? "" : ":sampling=" + sampling.getClass().getSimpleName() + "/" + sampling.size();
    }
}
