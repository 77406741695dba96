package io.adaps.node;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.api.Table;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;

/**
 * A node that holds every parameter of every table in its own memory: a cluster of one. Workers
 * operate on the stores directly from their own threads; the node itself runs no thread.
 */
public final class LocalNode implements AdaPS {
    private static final Logger LOG = LoggerFactory.getLogger(LocalNode.class);

    private final List<Table> tables;
    private final KeySpace keys;
    private final TableStore[] stores;
    private final List<NodeWorker> workers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Starts a node holding all rows of {@code tables}, initialized by their initializers. */
    public LocalNode(List<Table> tables) {
        this.tables = List.copyOf(tables);
        this.keys = new KeySpace(this.tables);
        this.stores = new TableStore[this.tables.size()];
        long floats = 0;
        for (Table table : this.tables) {
            TableStore store = new TableStore(table.spec());
            store.allocateAll(SlotKind.OWNED);
            stores[table.id()] = store;
            floats += table.rows() * (table.valueLength() + table.spec().updateRule().stateLength(table.valueLength()));
        }
        LOG.info("node 0 started: {} table(s), {} keys, {} MiB of parameters", tables.size(), keys.endKey(),
                floats * Float.BYTES >> 20);
    }

    @Override
    public int nodeId() {
        return 0;
    }

    @Override
    public int clusterSize() {
        return 1;
    }

    @Override
    public List<Table> tables() {
        return tables;
    }

    @Override
    public Table table(String name) {
        for (Table table : tables) {
            if (table.name().equals(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("table='" + name + "' (expected one of " + tables.stream().map(Table::name).toList() + ")");
    }

    @Override
    public long keys() {
        return keys.endKey();
    }

    @Override
    public synchronized io.adaps.api.Worker worker() {
        checkOpen();
        NodeWorker worker = new NodeWorker(this, keys, stores, workers.size());
        workers.add(worker);
        return worker;
    }

    @Override
    public void barrier() {
        checkOpen();
    }

    @Override
    public NodeMetrics metrics() {
        long pulls = 0;
        long pushes = 0;
        long sets = 0;
        long intents = 0;
        for (NodeWorker worker : workers) {
            pulls += worker.pulls;
            pushes += worker.pushes;
            sets += worker.sets;
            intents += worker.intents;
        }
        return new NodeMetrics(workers.size(), pulls, pushes, sets, intents);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            LOG.info("node 0 closed: {}", metrics());
        }
    }

    /** Throws unless the node is open. */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("node 0 is closed (expected an open node)");
        }
    }
}
