package io.adaps.node;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkRange;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.adaps.api.Table;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.store.TableStore;

/**
 * A training thread's handle: validates each call completely, then runs it straight against the
 * node's {@link TableStore}s on the calling thread (no queue hop, no copy beyond the caller's
 * buffer, no allocation).
 *
 * <p>Counters and the clock are plain fields written only by the owning thread; other threads
 * (metrics) read them racily, which is exact once the worker is quiet.
 */
final class NodeWorker extends AbstractAccess implements Worker {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(NodeWorker.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LocalNode node;
    private final KeySpace keys;
    private final TableStore[] stores;
    private final NodeTableView[] views;
    private final int id;
    @SuppressWarnings("unused") // accessed through OWNER
    private volatile Thread owner;
    private long clock;
    private long ticketsIssued;
    long pulls;
    long pushes;
    long sets;
    long intents;

    NodeWorker(LocalNode node, KeySpace keys, TableStore[] stores, int id) {
        super(null);
        this.node = node;
        this.keys = keys;
        this.stores = stores;
        this.id = id;
        this.views = new NodeTableView[stores.length];
        for (Table table : node.tables()) {
            views[table.id()] = new NodeTableView(this, table);
        }
    }

    @Override
    NodeWorker owner() {
        return this;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public TableView table(Table table) {
        checkNotNull(table, "table");
        if (table.id() >= views.length || views[table.id()].table() != table) {
            throw new IllegalArgumentException("table=" + table + " (expected one of this node's tables " + node.tables() + ")");
        }
        return views[table.id()];
    }

    @Override
    public TableView table(String name) {
        return views[node.table(name).id()];
    }

    @Override
    public void waitFor(long ticket) {
        checkUsable();
        if (ticket < 1 || ticket > ticketsIssued) {
            throw new IllegalArgumentException("ticket=" + ticket + " (expected 1.." + ticketsIssued
                    + ", a ticket issued by worker " + id + ")");
        }
        // Every operation so far was local and completed before its call returned.
    }

    @Override
    public void waitAll() {
        checkUsable();
    }

    @Override
    public long clock() {
        checkUsable();
        return clock;
    }

    @Override
    public long advanceClock() {
        checkUsable();
        return ++clock;
    }

    long issueTicket() {
        return ++ticketsIssued;
    }

    /** Validates a multi-id operation completely, then runs it. */
    void execute(Operation op, Table table, long[] ids, int idOffset, int idCount, float[] buffer, int bufferOffset,
                 boolean exactLength) {
        checkUsable();
        checkNotNull(ids, "ids");
        checkNotNull(buffer, op.buffer);
        checkRange(idOffset, idCount, ids.length, "idOffset", "idCount", "ids");
        long floats = checkIdsAndCountFloats(table, ids, idOffset, idCount);
        checkBuffer(op, buffer, bufferOffset, floats, exactLength);

        int position = bufferOffset;
        int end = idOffset + idCount;
        if (table != null) {
            TableStore store = stores[table.id()];
            int valueLength = table.valueLength();
            for (int i = idOffset; i < end; i++) {
                run(op, store, ids[i], buffer, position);
                position += valueLength;
            }
        } else {
            for (int i = idOffset; i < end; i++) {
                Table keyTable = keys.tableOf(ids[i]);
                run(op, stores[keyTable.id()], ids[i] - keyTable.firstKey(), buffer, position);
                position += keyTable.valueLength();
            }
        }
        count(op, idCount);
    }

    /** Validates a single-id operation, then runs it. */
    void executeOne(Operation op, Table table, long id, float[] buffer, int bufferOffset) {
        checkUsable();
        checkNotNull(buffer, op.buffer);
        Table idTable = tableOf(table, id);
        checkBuffer(op, buffer, bufferOffset, idTable.valueLength(), false);
        run(op, stores[idTable.id()], table == null ? id - idTable.firstKey() : id, buffer, bufferOffset);
        count(op, 1);
    }

    void signalIntent(Table table, long[] ids, int idOffset, int idCount, long fromClock, long toClock) {
        checkUsable();
        checkNotNull(ids, "ids");
        checkRange(idOffset, idCount, ids.length, "idOffset", "idCount", "ids");
        checkIdsAndCountFloats(table, ids, idOffset, idCount);
        checkClocks(fromClock, toClock);
        // A node that holds every parameter has nothing to move ahead of time.
        intents += idCount;
    }

    void signalIntent(Table table, long id, long fromClock, long toClock) {
        checkUsable();
        tableOf(table, id);
        checkClocks(fromClock, toClock);
        intents++;
    }

    private static void run(Operation op, TableStore store, long row, float[] buffer, int position) {
        switch (op) {
            case PULL -> store.pull(row, buffer, position);
            case PUSH -> store.push(row, buffer, position);
            case SET -> store.set(row, buffer, position);
            default -> throw new AssertionError(op);
        }
    }

    private void count(Operation op, int ids) {
        switch (op) {
            case PULL -> pulls += ids;
            case PUSH -> pushes += ids;
            case SET -> sets += ids;
            default -> throw new AssertionError(op);
        }
    }

    /** The table of {@code id}: validated as a row of {@code table}, or resolved as a global key. */
    private Table tableOf(Table table, long id) {
        if (table == null) {
            return keys.tableOf(id);
        }
        table.checkRow(id);
        return table;
    }

    private long checkIdsAndCountFloats(Table table, long[] ids, int idOffset, int idCount) {
        int end = idOffset + idCount;
        if (table != null) {
            for (int i = idOffset; i < end; i++) {
                table.checkRow(ids[i]);
            }
            return (long) idCount * table.valueLength();
        }
        long floats = 0;
        for (int i = idOffset; i < end; i++) {
            floats += keys.tableOf(ids[i]).valueLength();
        }
        return floats;
    }

    private static void checkBuffer(Operation op, float[] buffer, int offset, long floats, boolean exactLength) {
        if (exactLength) {
            if (buffer.length != floats) {
                throw new IllegalArgumentException(op.buffer + ".length=" + buffer.length + " (expected " + floats
                        + ", the floats of the values of ids)");
            }
        } else if (offset < 0 || offset > buffer.length - floats) {
            throw new IllegalArgumentException(op.bufferOffset + "=" + offset + ", " + op.buffer + ".length="
                    + buffer.length + " (expected room for " + floats + " floats from the offset)");
        }
    }

    private void checkClocks(long fromClock, long toClock) {
        if (fromClock < clock) {
            throw new IllegalArgumentException("fromClock=" + fromClock + " (expected >= " + clock
                    + ", the clock of worker " + id + ")");
        }
        if (toClock <= fromClock) {
            throw new IllegalArgumentException("toClock=" + toClock + " (expected > fromClock=" + fromClock + ")");
        }
    }

    /** Throws unless the node is open and the caller is this worker's thread (binding it on first use). */
    private void checkUsable() {
        node.checkOpen();
        Thread current = Thread.currentThread();
        if (owner != current) {
            bind(current);
        }
    }

    private void bind(Thread current) {
        if (!OWNER.compareAndSet(this, null, current)) {
            Thread bound = owner;
            if (bound != current) {
                throw new IllegalStateException("thread='" + current.getName() + "' (expected thread '" + bound.getName()
                        + "', which owns worker " + id + "; create one worker per thread with AdaPS.worker())");
            }
        }
    }

    @Override
    public String toString() {
        return "Worker[" + id + " of node " + node.nodeId() + "]";
    }
}
