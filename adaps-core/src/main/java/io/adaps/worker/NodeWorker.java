package io.adaps.worker;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkRange;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.SplittableRandom;

import io.adaps.api.ClusterException;
import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.KeyDistribution;
import io.adaps.api.PeerFailedException;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.api.WorkerMetrics;
import io.adaps.consistency.ClusterClocks;
import io.adaps.consistency.WorkerClock;
import io.adaps.context.NodeContext;
import io.adaps.intent.IntentQueue;
import io.adaps.keys.KeySpace;
import io.adaps.keys.RowKey;
import io.adaps.placement.AdaptiveManager;
import io.adaps.rpc.InFlightPushes;
import io.adaps.rpc.Operation;
import io.adaps.rpc.RemoteCall;
import io.adaps.rpc.Requester;
import io.adaps.sampling.PreparedSamples;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;
import io.adaps.util.BoundedWait;
import io.adaps.util.Masks;

/**
 * A training thread's handle: validates each call completely, then runs it. Rows this node holds
 * are accessed straight in its {@link TableStore}s on the calling thread (no queue hop, no copy
 * beyond the caller's buffer, no allocation); rows held elsewhere are sent to where they are
 * through the worker's {@link Requester}.
 *
 * <p>Counters and the clock are plain fields written only by the owning thread; other threads
 * (metrics) read them racily, which is exact once the worker is quiet.
 *
 * <h2>Clocks and consistency</h2>
 * The worker's clock and the clock through which its updates have reached their owners live in
 * its {@link WorkerClock}, part of the node's {@link ClusterClocks}. Advancing the clock to
 * {@code c} under a bound {@code s} (the strictest of the node's tables) waits until the cluster's
 * watermark is at least {@code c - s}; a read of a replica of a bounded table whose tag is below
 * {@code c - s} waits for a round to refresh it. Every pull counts what it saw: the reader's
 * clock minus the clock its values are known to reflect (the watermark for owned and remote rows,
 * the tag for replicas).
 *
 * <h2>Lifetime</h2>
 * A worker belongs to the first thread that uses it. {@link #close()} waits for its operations,
 * drops its intents and gives its id back to the node's {@link Workers}; a later worker may get
 * the id, and its tickets continue after this one's, so that a late answer to this worker is
 * never taken for one of the next.
 */
public final class NodeWorker extends AbstractAccess implements Worker {
    /**
     * What a read on a cluster of one reflects: every update made so far (they are all in the
     * node's store), so it is never stale, and the watermark need not be read.
     */
    private static final long ONE_NODE = Long.MAX_VALUE;
    /** {@link #execute}'s {@code ticketNow} for an asynchronous call: it takes its ticket at once. */
    static final long TICKET_NOW = 1;
    /** {@link #execute}'s {@code ticketNow} for a synchronous call: a ticket only if it sends rows. */
    static final long TICKET_IF_REMOTE = 0;
    /** Indexes of {@link #addCounters}. */
    public static final int LOCAL_PULLS = 0;
    public static final int LOCAL_PUSHES = 1;
    public static final int LOCAL_SETS = 2;
    public static final int REMOTE_PULLS = 3;
    public static final int REMOTE_PUSHES = 4;
    public static final int REMOTE_SETS = 5;
    public static final int LOCATION_HITS = 6;
    public static final int LOCATION_MISSES = 7;
    public static final int INTENTS = 8;
    public static final int SAMPLES = 9;
    public static final int SAMPLE_ROWS_DRAWN = 10;
    public static final int SAMPLE_ROWS_PULLED = 11;
    public static final int SAMPLE_ROWS_LOCAL = 12;
    public static final int LOCAL_REDRAWS = 13;
    public static final int POOL_FALLBACK_DRAWS = 14;
    public static final int COUNTERS = 15;

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(NodeWorker.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeContext context;
    private final WorkerServices services;
    private final Workers registry;
    private final KeySpace keys;
    /** The node's stores and whether it has peers, kept here: read on every call. */
    private final TableStore[] stores;
    private final boolean cluster;
    private final NodeTableView[] views;
    private final int id;
    /** The tickets of this worker are those after this one. */
    private final long firstTicket;
    @SuppressWarnings("unused") // accessed through OWNER
    private volatile Thread owner;
    /**
     * The owner of a closed worker: the one-compare check of the owner on every call then also
     * refuses calls after close ({@link #bind} tells which it was).
     */
    private static final Thread CLOSED = new Thread("closed worker");
    private Requester requester;
    /** Created on the first intent, if the node's technique acts on intents. */
    private IntentQueue intentQueue;
    /** Global keys of an intent, made row keys. */
    private long[] intentKeys = new long[16];
    /** Written by the owning thread only; others read {@link #clockCell}. */
    private long clock;
    private final ClusterClocks clocks;
    private final WorkerClock clockCell;
    /** Whether this worker takes part in the consistency bounds ({@link io.adaps.api.AdaPS#unclockedWorker()}). */
    private final boolean clocked;
    /**
     * Per table, the clock that a replica read now must reflect ({@link #need}), set with the
     * clock: every read of a replica checks it, on the training thread's hottest path.
     */
    private final long[] needs;
    /** A clock boundary whose calls were still open when it was passed, and the last ticket before it; 0: none. */
    private long boundaryClock;
    private long boundaryTicket;
    /** The oldest clock the rows of the current pull are known to reflect (see {@link #pullHere}). */
    private long readTag;
    /** Per table, the number of the last read by global keys that counted it; see {@link #countRead}. */
    private final long[] readCountedAt;
    private long countedReads;
    private long ticketsIssued;
    // Hot counters are plain fields (one load and store per call); the rare ones sit in an array.
    private long localPulls;
    private long localPushes;
    private long localSets;
    private final long[] counters = new long[COUNTERS];
    private final PreparedSamples samples = new PreparedSamples();
    private final PairStep pairStep = new PairStep();
    /** This worker's draws; seeded by node and worker id, so runs repeat. */
    private final SplittableRandom random;
    private final BoundedWait wait;

    NodeWorker(WorkerServices services, Workers registry, int id, long firstTicket, boolean clocked) {
        super(null);
        this.context = services.context();
        this.services = services;
        this.registry = registry;
        this.keys = context.keys();
        this.stores = new TableStore[context.tables().size()];
        this.readCountedAt = new long[context.tables().size()];
        for (Table table : context.tables()) {
            stores[table.id()] = context.store(table.id());
        }
        this.cluster = context.config().isCluster();
        this.id = id;
        this.firstTicket = firstTicket;
        this.ticketsIssued = firstTicket;
        this.random = new SplittableRandom(0x9E3779B97F4A7C15L * ((long) context.nodeId() << 20 | id) + 1);
        this.wait = BoundedWait.forPolling(context.clock());
        this.clocks = services.clocks();
        this.clocked = clocked;
        this.clockCell = clocked ? clocks.register() : clocks.unclocked();
        this.needs = new long[context.tables().size()];
        setNeeds();
        this.views = new NodeTableView[context.tables().size()];
        for (Table table : context.tables()) {
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
            throw new IllegalArgumentException("table=" + table + " (expected one of this node's tables " + context.tables()
                    + ")");
        }
        return views[table.id()];
    }

    @Override
    public TableView table(String name) {
        return views[context.table(name).id()];
    }

    @Override
    public void waitFor(long ticket) {
        checkUsable();
        checkTicket(ticket);
        // Local parts completed before their call returned; only remote parts can be open.
        if (requester != null) {
            requester.awaitTicket(ticket);
        }
    }

    @Override
    public boolean isDone(long ticket) {
        checkUsable();
        checkTicket(ticket);
        return requester == null || requester.isDone(ticket);
    }

    private void checkTicket(long ticket) {
        if (ticket <= firstTicket || ticket > ticketsIssued) {
            throw new IllegalArgumentException("ticket=" + ticket + " (expected " + (firstTicket + 1) + ".." + ticketsIssued
                    + ", a ticket issued by worker " + id + ")");
        }
    }

    @Override
    public void waitAll() {
        checkUsable();
        if (requester != null) {
            requester.awaitAll();
        }
    }

    @Override
    public void waitSync() {
        waitAll();
        if (services.manager() != null) {
            services.manager().awaitRound();
        }
    }

    @Override
    public long clock() {
        checkUsable();
        return clock;
    }

    @Override
    public long advanceClock() {
        checkUsable();
        if (!clocked) {
            throw new IllegalStateException("worker " + id + " of node " + context.nodeId() + " is unclocked (expected a "
                    + "worker from AdaPS.worker() to advance its clock)");
        }
        long next = clock + 1;
        clock = next;
        setNeeds();
        clockCell.advanceTo(next);
        flushThrough(next);
        clocks.update();
        AdaptiveManager manager = services.manager();
        if (manager != null && (intentQueue != null || clocks.isEager())) {
            // Intents start and end with clocks, and an eager model's rounds follow them: the
            // manager, parked until its next paced round, acts now.
            manager.wake();
        }
        int bound = clocks.strictestBound();
        if (bound >= 0 && clocks.watermark() < next - bound) {
            awaitWatermark(next - bound, bound);
        }
        return next;
    }

    /**
     * Records how far this worker's updates have reached their owners at the boundary to clock
     * {@code next}: through {@code next} if no call is open, else through the last boundary whose
     * calls have all completed since. Looks at the calls, never waits.
     */
    private void flushThrough(long next) {
        if (requester == null || requester.completeThrough(ticketsIssued)) {
            clockCell.flushedThrough(next);
            boundaryClock = 0;
            return;
        }
        if (boundaryClock > 0 && requester.completeThrough(boundaryTicket)) {
            clockCell.flushedThrough(boundaryClock);
        }
        boundaryClock = next;
        boundaryTicket = ticketsIssued;
    }

    /**
     * Waits until every worker of the cluster has flushed through {@code target} (the cluster's
     * watermark), first for this worker's own calls, asking the manager for rounds while this
     * node's replicas hold the watermark back. Bounded by the barrier timeout; a failed peer ends
     * the wait with its exception.
     */
    private void awaitWatermark(long target, int bound) {
        long start = context.clock().nanoTime();
        if (requester != null) {
            requester.awaitAll();
        }
        clockCell.flushedThrough(clock);
        boundaryClock = 0;
        clocks.update();
        AdaptiveManager manager = services.manager();
        wait.start(context.config().barrierTimeout().toNanos());
        while (clocks.watermark() < target) {
            context.checkOpen();
            PeerFailedException failure = clocks.failure();
            if (failure != null) {
                throw failure;
            }
            if (manager != null && clocks.replicasFlushed() < clocks.minClock()) {
                manager.requestRound();
            }
            if (!wait.idle()) {
                throw new ClusterException("worker " + id + " of node " + context.nodeId() + " at clock " + clock
                        + " waited " + context.config().barrierTimeout() + " for every worker of the cluster to reach clock "
                        + target + " (staleness bound " + bound + "): " + clocks.describeSlowest());
            }
        }
        clockCell.addClockWait(context.clock().nanoTime() - start);
    }

    @Override
    public void checkpointState(byte[] state) {
        checkUsable();
        checkNotNull(state, "state");
        registry.saveState(id, state.clone());
    }

    @Override
    public Optional<byte[]> restoredState() {
        checkUsable();
        RestoredCheckpoint restored = services.restored();
        return restored == null ? Optional.empty() : restored.state(context.nodeId(), id);
    }

    /** The clock, read by the manager thread. */
    long clockForManager() {
        return clockCell.clock();
    }

    /**
     * Waits for this worker's operations, drops its intents and gives its id back. Idempotent. Only
     * the worker's own thread may close it, or any thread once that thread has ended.
     *
     * @throws IllegalStateException if another, live thread owns the worker
     * @throws io.adaps.api.ClusterException if an operation failed that was not reported yet (the
     *                                       worker is closed all the same)
     */
    @Override
    public void close() {
        Thread bound = owner;
        if (bound == CLOSED) {
            return;
        }
        if (bound != null && bound != Thread.currentThread() && bound.isAlive()) {
            throw new IllegalStateException("thread='" + Thread.currentThread().getName() + "' (expected thread '"
                    + bound.getName() + "', which owns worker " + id + ", or any thread once it has ended)");
        }
        try {
            if (requester != null && !context.isClosed()) {
                requester.awaitAll();
            }
        } finally {
            owner = CLOSED;
            if (intentQueue != null && !context.isClosed()) {
                services.manager().retire(id);
            }
            if (requester != null) {
                services.calls().unregister(id, requester);
            }
            clocks.unregister(clockCell);
            registry.release(this, ticketsIssued, clock);
        }
    }

    /**
     * Validates a multi-id operation completely, then runs it: each row held here is accessed in
     * place; the others are collected and sent to where they are, under the call's ticket, which
     * is returned; a synchronous operation then waits for it ({@link #awaitCall}).
     *
     * <p>Whether a row is here is decided once per row, by the access itself (a row can leave at
     * any moment; see {@link TableStore}), so no row is ever both applied here and sent away.
     *
     * <p>An asynchronous call ({@code ticketNow} {@link #TICKET_NOW}) takes its ticket at once; a
     * synchronous one ({@link #TICKET_IF_REMOTE}) only if it sends rows, as the returned ticket, for
     * its caller to wait for. Nothing here branches on which it is: C2 compiles this method, with
     * the store accesses it inlines, from the training threads' asynchronous calls, and a branch
     * they never took (such as "a synchronous call with remote rows", which an evaluation or a
     * cluster-wide sum takes after the first epoch) is a trap that throws the compiled code away
     * for every caller and recompiles it, on a one-core node in the middle of an epoch (issue 13).
     */
    long execute(Operation op, Table table, long[] ids, int idOffset, int idCount, float[] buffer, int bufferOffset,
                 boolean exactLength, long ticketNow) {
        checkUsable();
        checkNotNull(ids, "ids");
        checkNotNull(buffer, op.buffer);
        checkRange(idOffset, idCount, ids.length, "idOffset", "idCount", "ids");
        long floats = checkIdsAndCountFloats(table, ids, idOffset, idCount);
        checkBuffer(op, buffer, bufferOffset, floats, exactLength);
        long ticket = ticketsIssued + 1;
        ticketsIssued += ticketNow;
        readTag = TableStore.OWNED_TAG;
        if (!cluster) {
            runLocal(op, table, ids, idOffset, idCount, buffer, bufferOffset);
            count(op, idCount);
            countRead(op, table, ids, idOffset, idCount, ONE_NODE);
            return ticket;
        }
        long watermark = clocks.watermark();
        Requester remote = requester();
        remote.begin(op);
        InFlightPushes inFlight = op == Operation.PUSH ? services.inFlight() : null;
        int local = op == Operation.PULL ? pullRows(table, ids, idOffset, idCount, buffer, bufferOffset, remote)
                : writeRows(op, table, ids, idOffset, idCount, buffer, bufferOffset, remote, inFlight);
        count(op, local);
        countRead(op, table, ids, idOffset, idCount, watermark);
        if (remote.hasRows()) {
            ticketsIssued = ticket;
            remote.send(ticket, buffer, inFlight);
        }
        return ticket;
    }

    /**
     * {@link #execute}'s loop for a PULL: reads each row held here into {@code buffer}, adds the
     * others to {@code remote}; returns how many were read here. Pulls and writes have a loop each,
     * which the JIT compiles with the profile of its operation alone: one loop for both was
     * compiled with the pulls of an evaluation, then thrown away and compiled again as the
     * training's pushes came.
     */
    private int pullRows(Table table, long[] ids, int idOffset, int idCount, float[] buffer, int position,
                         Requester remote) {
        int local = 0;
        for (int i = idOffset; i < idOffset + idCount; i++) {
            Table idTable = table != null ? table : keys.tableOf(ids[i]);
            long row = table != null ? ids[i] : ids[i] - idTable.firstKey();
            if (pullHere(stores[idTable.id()], idTable.id(), row, buffer, position)) {
                local++;
            } else {
                remote.add(remote.route(idTable, row), idTable, row, buffer, position);
            }
            position += idTable.valueLength();
        }
        return local;
    }

    /**
     * {@link #execute}'s loop for a PUSH or SET ({@link #pullRows}): applies each row held here,
     * or counted in {@code inFlight} (pushes), adds the others to {@code remote}; returns how many
     * were applied here.
     */
    private int writeRows(Operation op, Table table, long[] ids, int idOffset, int idCount, float[] buffer,
                          int position, Requester remote, InFlightPushes inFlight) {
        int local = 0;
        for (int i = idOffset; i < idOffset + idCount; i++) {
            Table idTable = table != null ? table : keys.tableOf(ids[i]);
            long row = table != null ? ids[i] : ids[i] - idTable.firstKey();
            TableStore store = stores[idTable.id()];
            if ((op == Operation.PUSH ? store.push(row, buffer, position) : store.set(row, buffer, position))
                    || (inFlight != null && pushCountedOrLocally(inFlight, idTable, row, buffer, position))) {
                local++;
            } else {
                remote.add(remote.route(idTable, row), idTable, row, buffer, position);
            }
            position += idTable.valueLength();
        }
        return local;
    }

    /**
     * {@link TableView#updateInPlace}: runs {@code update} on the rows {@code row} of {@code table}
     * and {@code otherRow} of {@code other}'s table in their slots, if both are held here (owned, or
     * replicas fresh enough for their tables' bounds at this worker's clock) and both locks are
     * free ({@link TableStore#updateHeld}).
     */
    boolean updateInPlace(Table table, long row, TableView other, long otherRow, InPlaceUpdate update) {
        checkUsable();
        checkNotNull(update, "update");
        Table otherTable = ownTable(other);
        table.checkRow(row);
        otherTable.checkRow(otherRow);
        checkAdditive(table);
        checkAdditive(otherTable);
        // A single node holds no replicas, so no bound applies.
        long need = cluster ? need(table.id()) : Long.MIN_VALUE;
        long otherNeed = cluster ? need(otherTable.id()) : Long.MIN_VALUE;
        long tag = TableStore.updateHeld(stores[table.id()], row, need, stores[otherTable.id()], otherRow, otherNeed,
                update);
        if (tag == TableStore.NOT_HELD_TAG) {
            return false;
        }
        localPulls += 2;
        localPushes += 2;
        long reflects = cluster ? Math.min(clocks.watermark(), tag) : ONE_NODE;
        clockCell.countRead(table.id(), reflects);
        clockCell.countRead(otherTable.id(), reflects);
        return true;
    }

    /**
     * {@link TableView#updateInPlace(long[], int, TableView, long[], int, int, InPlacePairUpdate, int[])}:
     * each pair as {@link #updateInPlace(Table, long, TableView, long, InPlaceUpdate)} does it, with
     * the checks once per call, every row checked before any pair is done, and the reads counted
     * once per call: the pairs that reflect the watermark read at its start (every pair of owned
     * rows) at it, the others at the oldest of their tags, as a pull counts its rows.
     */
    int updateInPlace(Table table, long[] rows, int rowsOffset, TableView other, long[] otherRows,
                      int otherRowsOffset, int count, InPlacePairUpdate update, int[] notDone) {
        checkUsable();
        checkNotNull(rows, "rows");
        checkNotNull(otherRows, "otherRows");
        checkNotNull(update, "update");
        checkNotNull(notDone, "notDone");
        Table otherTable = ownTable(other);
        checkRange(rowsOffset, count, rows.length, "rowsOffset", "count", "rows");
        checkRange(otherRowsOffset, count, otherRows.length, "otherRowsOffset", "count", "otherRows");
        if (notDone.length < count) {
            throw new IllegalArgumentException("notDone.length=" + notDone.length + " (expected >= count=" + count
                    + ")");
        }
        checkAdditive(table);
        checkAdditive(otherTable);
        checkRows(table, rows, rowsOffset, count);
        checkRows(otherTable, otherRows, otherRowsOffset, count);
        TableStore store = stores[table.id()];
        TableStore otherStore = stores[otherTable.id()];
        long need = cluster ? need(table.id()) : Long.MIN_VALUE;
        long otherNeed = cluster ? need(otherTable.id()) : Long.MIN_VALUE;
        long watermark = cluster ? clocks.watermark() : ONE_NODE;
        PairStep step = pairStep;
        step.update = update;
        int missed = 0;
        int below = 0;
        long oldest = watermark;
        int i = 0;
        try {
            for (; i < count; i++) {
                step.pair = i;
                long tag = TableStore.updateHeld(store, rows[rowsOffset + i], need, otherStore,
                        otherRows[otherRowsOffset + i], otherNeed, step);
                if (tag == TableStore.NOT_HELD_TAG) {
                    notDone[missed++] = i;
                } else {
                    // Counted without a branch (see Masks): replicas first fall behind the watermark
                    // after this loop is compiled.
                    below -= (int) Masks.ifLess(tag, watermark);
                    oldest = Masks.min(oldest, tag);
                }
            }
        } finally {
            step.update = null;
            long done = i - missed;
            localPulls += 2 * done;
            localPushes += 2 * done;
            clockCell.countReads(table.id(), watermark, done - below);
            clockCell.countReads(otherTable.id(), watermark, done - below);
            clockCell.countReads(table.id(), oldest, below);
            clockCell.countReads(otherTable.id(), oldest, below);
        }
        return missed;
    }

    /** The pair update of the current call, as the store's in-place update of one pair. */
    private static final class PairStep implements InPlaceUpdate {
        InPlacePairUpdate update;
        int pair;

        @Override
        public void apply(float[] first, int firstOffset, float[] second, int secondOffset) {
            update.apply(pair, first, firstOffset, second, secondOffset);
        }
    }

    /** The table of {@code view}, which must be one of this worker's views. */
    private Table ownTable(TableView view) {
        checkNotNull(view, "other");
        Table table = view.table();
        if (table.id() >= views.length || views[table.id()] != view) {
            throw new IllegalArgumentException("other=" + view + " (expected a table view of worker " + id
                    + " of node " + context.nodeId() + ")");
        }
        return table;
    }

    /**
     * The clock that a replica of {@code table} read now must reflect: this worker's clock less
     * the table's staleness bound, or {@code Long.MIN_VALUE} (any replica will do).
     */
    private long need(int table) {
        return needs[table];
    }

    private void setNeeds() {
        for (int t = 0; t < needs.length; t++) {
            needs[t] = clocked && clocks.isBounded(t) ? clock - clocks.bound(t) : Long.MIN_VALUE;
        }
    }

    private static void checkAdditive(Table table) {
        if (table.spec().updateRule() != UpdateRules.add()) {
            throw new IllegalArgumentException("updateRule=" + table.spec().updateRule().descriptor() + " of table '"
                    + table.name() + "' (expected " + UpdateRules.add().descriptor()
                    + ": a change in place is the update, and no other rule runs)");
        }
    }

    /**
     * Waits for the remote part of the synchronous call that {@link #execute} returned
     * {@code ticket} for, if it sent one; throws its failure.
     */
    void awaitCall(long ticket) {
        if (requester != null) {
            requester.awaitTicket(ticket);
        }
    }

    /**
     * Counts a pull of {@code idCount} rows as one read of {@code table}, or, by global keys, as one
     * read of each table its keys belong to (the adaptive manager judges each table by its reads
     * per clock), whose values reflect the clocks before the least of {@code watermark} (owned and
     * remote rows) and {@link #readTag} (replicas).
     */
    private void countRead(Operation op, Table table, long[] ids, int idOffset, int idCount, long watermark) {
        if (op != Operation.PULL || idCount == 0) {
            return;
        }
        long reflects = Math.min(watermark, readTag);
        if (table != null) {
            clockCell.countRead(table.id(), reflects);
            return;
        }
        countedReads++;
        for (int i = idOffset; i < idOffset + idCount; i++) {
            int t = keys.tableOf(ids[i]).id();
            if (readCountedAt[t] != countedReads) {
                readCountedAt[t] = countedReads;
                clockCell.countRead(t, reflects);
            }
        }
    }

    /**
     * Pulls {@code row} if it is held here (owned, or a replica that is fresh enough for its
     * table's bound at this worker's clock) and lowers {@link #readTag} to what it reflects. A
     * replica not fetched yet, or too stale, is waited for. {@code false} if the row is not held
     * here (then it is read from its owner).
     */
    private boolean pullHere(TableStore store, int table, long row, float[] buffer, int position) {
        long need = need(table);
        for (;;) {
            long tag = store.pullTagged(row, buffer, position);
            if (tag == TableStore.NOT_HELD_TAG) {
                if (!awaitPendingReplica(store, row)) {
                    return false;
                }
                continue;
            }
            if (tag >= need) {
                readTag = Math.min(readTag, tag);
                return true;
            }
            awaitFreshReplica(store, table, row, need);
        }
    }

    /**
     * Waits until the replica {@code row} reflects the clocks before {@code need} (or is no
     * longer a replica), asking the manager for rounds; at most twice the operation timeout.
     */
    private void awaitFreshReplica(TableStore store, int table, long row, long need) {
        long start = context.clock().nanoTime();
        AdaptiveManager manager = services.manager();
        wait.start(context.config().operationTimeout().toNanos() * 2);
        while (store.replicaTag(row) < need && store.kind(row) == SlotKind.REPLICA) {
            context.checkOpen();
            PeerFailedException failure = clocks.failure();
            if (failure != null) {
                throw failure;
            }
            if (manager != null) {
                manager.requestRound();
            }
            if (!wait.idle()) {
                throw new ClusterException("worker " + id + " of node " + context.nodeId() + " at clock " + clock
                        + ": the replica of row " + row + " of table '" + context.table(table).name()
                        + "' was not refreshed to clock " + need + " within "
                        + context.config().operationTimeout().multipliedBy(2) + " (it reflects clock "
                        + store.replicaTag(row) + "; the cluster's watermark is " + clocks.watermark() + ")");
            }
        }
        clockCell.addReplicaWait(table, context.clock().nanoTime() - start);
    }

    /** Runs every row locally: a cluster of one holds all. */
    private void runLocal(Operation op, Table table, long[] ids, int idOffset, int idCount, float[] buffer,
                          int bufferOffset) {
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
    }

    /** Validates a single-id operation, then runs it. */
    void executeOne(Operation op, Table table, long id, float[] buffer, int bufferOffset) {
        checkUsable();
        checkNotNull(buffer, op.buffer);
        Table idTable = tableOf(table, id);
        checkBuffer(op, buffer, bufferOffset, idTable.valueLength(), false);
        long row = table == null ? id - idTable.firstKey() : id;
        TableStore store = stores[idTable.id()];
        long watermark = cluster ? clocks.watermark() : ONE_NODE;
        readTag = TableStore.OWNED_TAG;
        if (op == Operation.PULL ? pullHere(store, idTable.id(), row, buffer, bufferOffset)
                : run(op, store, row, buffer, bufferOffset)) {
            count(op, 1);
            if (op == Operation.PULL) {
                clockCell.countRead(idTable.id(), Math.min(watermark, readTag));
            }
            return;
        }
        InFlightPushes inFlight = op == Operation.PUSH ? services.inFlight() : null;
        if (inFlight != null && pushCountedOrLocally(inFlight, idTable, row, buffer, bufferOffset)) {
            count(op, 1);
            return;
        }
        Requester remote = requester();
        remote.begin(op);
        remote.add(remote.route(idTable, row), idTable, row, buffer, bufferOffset);
        if (op == Operation.PULL) {
            clockCell.countRead(idTable.id(), watermark);
        }
        remote.await(remote.send(++ticketsIssued, buffer, inFlight));
    }

    /**
     * For a push that found no local copy, on a node that creates replicas: counts it as on its
     * way ({@link InFlightPushes}), then tries the store once more, since a replica may have
     * appeared meanwhile. Returns {@code true} if it was pushed locally after all (and uncounted).
     */
    private boolean pushCountedOrLocally(InFlightPushes inFlight, Table table, long row, float[] buffer, int position) {
        long key = RowKey.of(table.id(), row);
        inFlight.add(key);
        if (stores[table.id()].push(row, buffer, position)) {
            inFlight.remove(key);
            return true;
        }
        return false;
    }

    /**
     * Waits while {@code row} is a replica that has not been fetched yet (its first
     * synchronization is on its way; see {@link AdaptiveManager}), at most the operation timeout.
     *
     * @return whether the row was such a replica (the caller then tries the store again)
     */
    private boolean awaitPendingReplica(TableStore store, long row) {
        if (!store.isPendingReplica(row)) {
            return false;
        }
        wait.start(context.config().operationTimeout().toNanos());
        while (store.isPendingReplica(row) && wait.idle()) {
            context.checkOpen();
        }
        return true;
    }

    /**
     * Validates, then moves the rows of the ids here (see {@link io.adaps.api.ParameterAccess}):
     * rows neither held here nor already on their way are asked of their homes.
     *
     * @return the ticket of an asynchronous call, 0 for a synchronous one
     */
    long localize(Table table, long[] ids, int idOffset, int idCount, boolean async) {
        checkUsable();
        checkNotNull(ids, "ids");
        checkRange(idOffset, idCount, ids.length, "idOffset", "idCount", "ids");
        checkIdsAndCountFloats(table, ids, idOffset, idCount);
        long ticket = async ? ++ticketsIssued : 0;
        if (!cluster || context.config().technique() == Technique.STATIC) {
            return ticket;
        }
        Requester remote = requester();
        remote.begin(Operation.LOCALIZE);
        // The rows are claimed for the call's ticket before it is sent; a synchronous call without
        // rows to move issues none.
        long callTicket = async ? ticket : ticketsIssued + 1;
        services.relocator().claim(table, ids, idOffset, idCount, keys, id, callTicket, false, remote);
        if (remote.hasRows()) {
            ticketsIssued = callTicket;
            RemoteCall call = remote.send(callTicket, null);
            if (!async) {
                remote.await(call);
            }
        }
        return ticket;
    }

    /** The remote half of this worker, created (and registered for answers) on its first remote operation. */
    private Requester requester() {
        if (requester == null) {
            requester = new Requester(context, services.relocator(), id);
            services.calls().register(id, requester);
        }
        return requester;
    }

    /** The thread this worker belongs to, or {@code null} before its first operation and after close. */
    Thread ownerThread() {
        Thread thread = owner;
        return thread == CLOSED ? null : thread;
    }

    /** Adds this worker's counters to {@code sums} at the indexes {@link #LOCAL_PULLS} .. {@link #POOL_FALLBACK_DRAWS}. */
    void addCounters(long[] sums) {
        for (int i = 0; i < COUNTERS; i++) {
            sums[i] += counters[i];
        }
        sums[LOCAL_PULLS] += localPulls;
        sums[LOCAL_PUSHES] += localPushes;
        sums[LOCAL_SETS] += localSets;
        Requester r = requester;
        if (r != null) {
            r.addCounters(sums, REMOTE_PULLS);
        }
    }

    /** This worker's local and remote accesses. */
    WorkerMetrics metrics() {
        Requester r = requester;
        return new WorkerMetrics(id, localPulls + localPushes + localSets,
                r == null ? 0 : r.remoteAccesses());
    }

    void signalIntent(Table table, long[] ids, int idOffset, int idCount, long fromClock, long toClock) {
        checkUsable();
        checkNotNull(ids, "ids");
        checkRange(idOffset, idCount, ids.length, "idOffset", "idCount", "ids");
        checkIdsAndCountFloats(table, ids, idOffset, idCount);
        checkClocks(fromClock, toClock);
        counters[INTENTS] += idCount;
        if (!actsOnIntents()) {
            return;
        }
        if (table != null) {
            queueIntent(table.id(), ids, idOffset, idCount, fromClock, toClock);
            return;
        }
        if (intentKeys.length < idCount) {
            intentKeys = new long[Math.max(idCount, intentKeys.length * 2)];
        }
        for (int i = 0; i < idCount; i++) {
            Table idTable = keys.tableOf(ids[idOffset + i]);
            intentKeys[i] = RowKey.of(idTable.id(), ids[idOffset + i] - idTable.firstKey());
        }
        queueIntent(-1, intentKeys, 0, idCount, fromClock, toClock);
    }

    void signalIntent(Table table, long id, long fromClock, long toClock) {
        checkUsable();
        Table idTable = tableOf(table, id);
        checkClocks(fromClock, toClock);
        counters[INTENTS]++;
        if (actsOnIntents()) {
            intentKeys[0] = RowKey.of(idTable.id(), table == null ? id - idTable.firstKey() : id);
            queueIntent(-1, intentKeys, 0, 1, fromClock, toClock);
        }
    }

    /**
     * Draws a sample of {@code n} rows of {@code table} with the node's sampler of the table and
     * keeps them under a new handle; see {@link SamplingScheme} for what each scheme does here. A
     * refused call (bad arguments, too many prepared, a distribution that drew outside the table)
     * leaves no handle behind.
     */
    long prepareSample(Table table, int n, long fromClock, long toClock) {
        checkUsable();
        KeyDistribution distribution = table.spec().sampling();
        if (distribution == null) {
            throw new IllegalStateException("table '" + table.name() + "' has no sampling distribution (expected one "
                    + "declared with TableSpec.withSampling)");
        }
        if (n <= 0 || n > TableView.MAX_SAMPLE_SIZE) {
            throw new IllegalArgumentException("n=" + n + " (expected 1.." + TableView.MAX_SAMPLE_SIZE + ")");
        }
        checkClocks(fromClock, toClock);
        long handle = samples.reserve(table.id(), n);
        long[] drawn = samples.keys(handle);
        SamplingScheme scheme = context.config().sampling();
        try {
            int extra = services.samplers()[table.id()].draw(random, drawn, n);
            if (scheme == SamplingScheme.LOCAL) {
                counters[LOCAL_REDRAWS] += extra;
            } else if (scheme == SamplingScheme.POOL) {
                counters[POOL_FALLBACK_DRAWS] += extra;
            }
        } catch (RuntimeException | Error e) {
            samples.release(handle);
            throw e;
        }
        if (scheme == SamplingScheme.PRELOCALIZE) {
            signalIntent(table, drawn, 0, n, fromClock, toClock);
        }
        counters[SAMPLES]++;
        counters[SAMPLE_ROWS_DRAWN] += n;
        return handle;
    }

    /**
     * Writes a prepared sample's rows to {@code keysOut} and pulls their values into
     * {@code valuesOut}; rows are read wherever they are now (see {@link #execute}), so a row
     * that moved since the prepare is still read correctly. Everything is checked before the
     * handle is used up.
     */
    void pullSample(Table table, long handle, long[] keysOut, int keysOffset, float[] valuesOut, int valuesOffset,
                    boolean exactLength) {
        checkNotNull(valuesOut, "valuesOut");
        int n = checkSample(table, handle, keysOut, keysOffset, exactLength);
        checkBuffer(Operation.PULL, valuesOut, valuesOffset, (long) n * table.valueLength(), exactLength);
        System.arraycopy(samples.keys(handle), 0, keysOut, keysOffset, n);
        samples.release(handle);
        // execute counts the rows it read here as local pulls: the difference is this sample's.
        long localBefore = localPulls;
        awaitCall(execute(Operation.PULL, table, keysOut, keysOffset, n, valuesOut, valuesOffset, false,
                TICKET_IF_REMOTE));
        counters[SAMPLE_ROWS_PULLED] += n;
        counters[SAMPLE_ROWS_LOCAL] += localPulls - localBefore;
    }

    /**
     * Writes a prepared sample's rows to {@code keysOut} without pulling them, and uses the
     * handle up; the rows count as pulled, local if readable here now (as a pull would have read
     * them at once). Returns the number of rows.
     */
    int takeSample(Table table, long handle, long[] keysOut, int keysOffset) {
        int n = checkSample(table, handle, keysOut, keysOffset, false);
        long[] keys = samples.keys(handle);
        TableStore store = stores[table.id()];
        int local = 0;
        for (int i = 0; i < n; i++) {
            if (store.holdsReadable(keys[i])) {
                local++;
            }
        }
        System.arraycopy(keys, 0, keysOut, keysOffset, n);
        samples.release(handle);
        counters[SAMPLE_ROWS_PULLED] += n;
        counters[SAMPLE_ROWS_LOCAL] += local;
        return n;
    }

    /** Checks that {@code handle} is a prepared sample of {@code table} whose rows fit {@code keysOut}; returns their count. */
    private int checkSample(Table table, long handle, long[] keysOut, int keysOffset, boolean exactLength) {
        checkUsable();
        checkNotNull(keysOut, "keysOut");
        samples.check(handle, table.id(), table.name());
        int n = samples.size(handle);
        if (exactLength ? keysOut.length != n : keysOffset < 0 || keysOffset > keysOut.length - n) {
            throw new IllegalArgumentException((exactLength ? "keysOut.length=" + keysOut.length
                    : "keysOffset=" + keysOffset + ", keysOut.length=" + keysOut.length)
                    + " (expected room for the " + n + " rows of sample " + handle + ")");
        }
        return n;
    }

    /** Whether this node's manager places parameters by intent (a cluster of one has nothing to place). */
    private boolean actsOnIntents() {
        return services.manager() != null && context.config().technique().signalsIntent();
    }

    /**
     * Hands intents to the manager: rows of table {@code table}, or row keys if {@code table < 0}.
     * A full queue is waited out (the manager drains it), at most for the operation timeout.
     */
    private void queueIntent(int table, long[] ids, int offset, int count, long fromClock, long toClock) {
        AdaptiveManager manager = services.manager();
        if (intentQueue == null) {
            intentQueue = manager.register(id, this::clockForManager);
        }
        int step = intentQueue.maxKeysPerOffer();
        for (int done = 0; done < count; done += step) {
            int n = Math.min(step, count - done);
            boolean waiting = false;
            while (!(table >= 0 ? intentQueue.offer(table, ids, offset + done, n, fromClock, toClock)
                    : intentQueue.offer(ids, offset + done, n, fromClock, toClock))) {
                manager.wake();
                if (!waiting) {
                    wait.start(context.config().operationTimeout().toNanos());
                    waiting = true;
                }
                if (!wait.idle()) {
                    throw new ClusterException("worker " + id + " of node " + context.nodeId() + ": the intent queue stayed "
                            + "full for " + context.config().operationTimeout() + " (is the adaptive manager stuck?)");
                }
            }
        }
        manager.wake(); // the manager parks until something is due: the intent may start within its window
    }

    // Reference comparisons rather than switches: with the operation constant at the call site
    // (every API method passes a literal), the JIT folds them away.
    /** Runs {@code op} on {@code row} in {@code store}; {@code false} if the row is not held here. */
    private static boolean run(Operation op, TableStore store, long row, float[] buffer, int position) {
        if (op == Operation.PULL) {
            return store.pull(row, buffer, position);
        } else if (op == Operation.PUSH) {
            return store.push(row, buffer, position);
        } else {
            return store.set(row, buffer, position);
        }
    }

    private void count(Operation op, int ids) {
        if (op == Operation.PULL) {
            localPulls += ids;
        } else if (op == Operation.PUSH) {
            localPushes += ids;
        } else {
            localSets += ids;
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
        if (table != null) {
            checkRows(table, ids, idOffset, idCount);
            return (long) idCount * table.valueLength();
        }
        long floats = 0;
        int end = idOffset + idCount;
        for (int i = idOffset; i < end; i++) {
            floats += keys.tableOf(ids[i]).valueLength();
        }
        return floats;
    }

    /**
     * Checks {@code rows[offset .. offset + count)} as rows of {@code table}. A loop of its own: a loop
     * over a batch in an interpreted caller starts an on-stack-replacement compilation of the whole
     * caller at that loop, and the large {@link #updateInPlace(Table, long[], int, TableView, long[],
     * int, int, InPlacePairUpdate, int[])} was compiled by C2 once more for its checks' loop (2 nodes
     * of the {@code mf} example: 50-85 ms of a core each time, in the first epoch).
     */
    private static void checkRows(Table table, long[] rows, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            table.checkRow(rows[i]);
        }
    }

    private static void checkBuffer(Operation op, float[] buffer, int offset, long floats, boolean exactLength) {
        // Without a branch on exactLength (array forms pass offset 0): see execute on traps.
        long room = buffer.length - (long) offset;
        if (offset < 0 | room < floats | exactLength & room != floats) {
            throw bufferMismatch(op, buffer, offset, floats, exactLength);
        }
    }

    // Out of line, so that checkBuffer stays small enough to inline everywhere.
    private static IllegalArgumentException bufferMismatch(Operation op, float[] buffer, int offset, long floats,
                                                           boolean exactLength) {
        if (exactLength) {
            return new IllegalArgumentException(op.buffer + ".length=" + buffer.length + " (expected " + floats
                    + ", the floats of the values of ids)");
        }
        return new IllegalArgumentException(op.bufferOffset + "=" + offset + ", " + op.buffer + ".length="
                + buffer.length + " (expected room for " + floats + " floats from the offset)");
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

    /** Throws unless the node and this worker are open and the caller is the worker's thread (binding it on first use). */
    private void checkUsable() {
        context.checkOpen();
        Thread current = Thread.currentThread();
        if (owner != current) {
            bind(current);
        }
    }

    private void bind(Thread current) {
        if (!OWNER.compareAndSet(this, null, current)) {
            Thread bound = owner;
            if (bound == CLOSED) {
                throw new IllegalStateException("worker " + id + " of node " + context.nodeId()
                        + " is closed (expected an open worker; get a new one with AdaPS.worker())");
            }
            if (bound != current) {
                throw new IllegalStateException("thread='" + current.getName() + "' (expected thread '" + bound.getName()
                        + "', which owns worker " + id + "; create one worker per thread with AdaPS.worker())");
            }
        }
    }

    @Override
    public String toString() {
        return "Worker[" + id + " of node " + context.nodeId() + "]";
    }
}
