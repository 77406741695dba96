package io.adaps.context;

import java.util.List;

import org.agrona.concurrent.NanoClock;

import io.adaps.api.Table;
import io.adaps.directory.LocationCache;
import io.adaps.keys.KeySpace;
import io.adaps.store.TableStore;

/**
 * What every part of a running node shares: its settings, tables and key space, the stores of the
 * rows it holds, where it last saw rows held elsewhere, its {@link Peers}, the clock its timing
 * decisions read, and whether it is closed. Created by the bootstrap and handed to each part,
 * which takes what it needs; no part knows the node's facade.
 */
public final class NodeContext {
    private final NodeConfig config;
    private final KeySpace keys;
    private final TableStore[] stores;
    private final LocationCache locations;
    private final Peers peers;
    private final NanoClock clock;
    private final int maxStride;
    private volatile boolean closed;

    /**
     * @param stores    one per table, by table id
     * @param locations {@code null} on a cluster of one
     */
    public NodeContext(NodeConfig config, TableStore[] stores, LocationCache locations, Peers peers, NanoClock clock) {
        this.config = config;
        this.keys = new KeySpace(config.tables());
        this.stores = stores.clone();
        this.locations = locations;
        this.peers = peers;
        this.clock = clock;
        int stride = 0;
        for (TableStore store : stores) {
            stride = Math.max(stride, store.stride());
        }
        this.maxStride = stride;
    }

    public NodeConfig config() {
        return config;
    }

    public int nodeId() {
        return config.nodeId();
    }

    public int clusterSize() {
        return config.clusterSize();
    }

    /** The declared tables, by id. */
    public List<Table> tables() {
        return config.tables();
    }

    /** Table {@code id}. */
    public Table table(int id) {
        return config.tables().get(id);
    }

    /**
     * The table called {@code name}.
     *
     * @throws IllegalArgumentException if there is none
     */
    public Table table(String name) {
        for (Table table : config.tables()) {
            if (table.name().equals(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("table='" + name + "' (expected one of "
                + config.tables().stream().map(Table::name).toList() + ")");
    }

    public KeySpace keys() {
        return keys;
    }

    /** The store of table {@code table}. */
    public TableStore store(int table) {
        return stores[table];
    }

    /** The largest slot stride (value and rule state) of any table: scratch arrays of this size fit any row. */
    public int maxStride() {
        return maxStride;
    }

    /** Where rows held elsewhere were last seen; {@code null} on a cluster of one. */
    public LocationCache locations() {
        return locations;
    }

    public Peers peers() {
        return peers;
    }

    /** The clock that timing decisions (timeouts, lingering, pacing) read. */
    public NanoClock clock() {
        return clock;
    }

    /** The home node of {@code row} of {@code table}. */
    public int home(Table table, long row) {
        return config.home(table, row);
    }

    /** Whether the node is closed. */
    public boolean isClosed() {
        return closed;
    }

    /** Marks the node closed; every later operation fails (see {@link #checkOpen}). */
    public void markClosed() {
        closed = true;
    }

    /**
     * Throws unless the node is open.
     *
     * @throws IllegalStateException if it is closed
     */
    public void checkOpen() {
        if (closed) {
            throw new IllegalStateException("node " + nodeId() + " is closed (expected an open node)");
        }
    }
}
