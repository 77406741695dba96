package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.util.ArrayList;
import java.util.List;

import io.adaps.node.LocalNode;

/**
 * A running AdaPS node: this process's share of the model's parameters and the handles its
 * training threads use to read and update them.
 *
 * <pre>{@code
 * try (AdaPS node = AdaPS.builder()
 *         .table(TableSpec.of("users", 100_000, 32).withInitializer(Initializers.normal(0f, 0.1f, 1)))
 *         .table(TableSpec.of("items", 20_000, 32).withInitializer(Initializers.normal(0f, 0.1f, 2)))
 *         .build()) {
 *     Worker worker = node.worker();            // one per training thread
 *     TableView users = worker.table("users");
 *     float[] row = new float[32];
 *     users.pull(7, row, 0);
 *     users.push(7, row, 0);
 * }
 * }</pre>
 *
 * <p>A single node is a cluster of one and holds every parameter. Methods on a node are
 * thread-safe; operations after {@link #close()} throw {@link IllegalStateException}.
 */
public interface AdaPS extends AutoCloseable {

    /** A builder for a node. */
    static Builder builder() {
        return new Builder();
    }

    /** This node's id in its cluster, from 0. */
    int nodeId();

    /** Nodes in the cluster. */
    int clusterSize();

    /** The declared tables, in declaration (and key) order. */
    List<Table> tables();

    /**
     * The table called {@code name}.
     *
     * @throws IllegalArgumentException if no such table is declared
     */
    Table table(String name);

    /** Keys in the key space: the rows of all tables. */
    long keys();

    /**
     * A new worker handle for one training thread.
     *
     * @throws IllegalStateException if the node is closed
     */
    Worker worker();

    /**
     * Waits until every node of the cluster has called {@code barrier()}. On a cluster of one it
     * returns at once (after checking that the node is open).
     */
    void barrier();

    /** A snapshot of this node's counters. */
    NodeMetrics metrics();

    /** Whether {@link #close()} has been called. */
    boolean isClosed();

    /**
     * Stops the node: every later operation on it or its workers throws
     * {@link IllegalStateException}. Idempotent.
     */
    @Override
    void close();

    /**
     * Configures and starts a node. Each setter validates its argument at once and leaves the
     * builder unchanged when it throws.
     */
    final class Builder {
        private final List<TableSpec> specs = new ArrayList<>();

        Builder() {
        }

        /**
         * Declares a table; its keys follow those of the tables declared before.
         *
         * @throws IllegalArgumentException if a table of the same name is declared already
         */
        public Builder table(TableSpec spec) {
            checkNotNull(spec, "spec");
            for (TableSpec declared : specs) {
                if (declared.name().equals(spec.name())) {
                    throw new IllegalArgumentException("table='" + spec.name() + "' (expected a name not declared yet)");
                }
            }
            specs.add(spec);
            return this;
        }

        /**
         * Starts the node: allocates and initializes its parameters.
         *
         * @throws IllegalStateException if no table is declared
         */
        public AdaPS build() {
            if (specs.isEmpty()) {
                throw new IllegalStateException("tables=0 (expected at least one table(...) before build())");
            }
            List<Table> tables = new ArrayList<>(specs.size());
            long firstKey = 0;
            for (TableSpec spec : specs) {
                tables.add(new Table(spec, tables.size(), firstKey));
                firstKey += spec.rows();
            }
            return new LocalNode(tables);
        }
    }
}
