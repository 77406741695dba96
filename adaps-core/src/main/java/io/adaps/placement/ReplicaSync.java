package io.adaps.placement;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.consistency.ClusterClocks;
import io.adaps.context.NodeContext;
import io.adaps.keys.RowKey;
import io.adaps.relocation.Relocator;
import io.adaps.rpc.Operation;
import io.adaps.rpc.RemoteCall;
import io.adaps.rpc.Requester;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Synchronization rounds of a node's replicas, run on the manager thread.
 *
 * <h2>A round</h2>
 * <ol>
 *   <li>Snapshot every replica: take the updates pushed to it since the last snapshot (its delta)
 *       and remember its value as the base ({@link TableStore#snapshotDelta}).</li>
 *   <li>Send the non-zero deltas to their owners as one SYNC operation: each owner applies a delta
 *       through the table's update rule, like a push, and answers with the fresh value and its
 *       version. Zero deltas are never sent: those replicas send a REFRESH with the version they
 *       have, and the owner answers with the value only if the row changed since (else UNCHANGED,
 *       a version only). A version counts the writes to the owner's slot and the installs of its
 *       store ({@link TableStore#pullOwnedVersioned}), so a row that moved away and back never
 *       repeats one.</li>
 *   <li>Refresh each replica: value = fresh + (value - base). The owner's fresh value includes the
 *       snapshot's delta, and {@code value - base} is what local workers pushed since the
 *       snapshot, so no local update is lost or counted twice ({@link TableStore#refreshReplica}).</li>
 *   <li>Drop the replicas whose intent ended: their remaining delta goes to the owner as a push.</li>
 * </ol>
 * Rounds are numbered; {@link #awaitRound} lets a worker wait for the first round that starts
 * after its call, which carries every update made before it (its snapshot is later) and refreshes
 * every replica.
 *
 * <h2>Clocks</h2>
 * A round reads the cluster's watermark and the least clock of this node's workers before its
 * snapshots ({@link ClusterClocks}). Each replica it refreshes (or confirms unchanged) is tagged
 * with that watermark: the owner answered later, so the value reflects every update of earlier
 * clocks. When the round completes without failure, and left no replica out because it is
 * moving here, every update made to replicas during clocks below that least clock has reached its
 * owner, and the node's part of the watermark may advance to it. With no replica held and none
 * being dropped, nothing waits in replicas ({@link #idle}).
 *
 * <h2>Update rules on replicas</h2>
 * A push to a replica applies the rule locally (so the pushing worker reads its own write) and
 * adds the raw update to the delta. The owner applies a delta once, through the rule: for
 * additive and SGD rules that equals applying the updates one by one; for Adagrad it is one
 * step with the summed gradient, as with a larger mini-batch, and the replica's own accumulator
 * only shapes its local steps until the next refresh. Tables whose rule does not accumulate
 * (assign) are never replicated.
 */
final class ReplicaSync {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSync.class);

    private final NodeContext context;
    private final ClusterClocks clocks;
    private final NanoClock clock;
    private final Relocator relocator;
    private final LongSupplier tickets;
    private final LongArrayList rows = new LongArrayList();
    /** The replicas of a round (table << 32 | row), and those left out because they are moving here. */
    private final LongArrayList keys = new LongArrayList();
    private final LongArrayList moving = new LongArrayList();
    private final IntArrayList positions = new IntArrayList();
    /** Per snapshotted replica: its table, and whether it had a delta; in the order of {@link #rows}. */
    private final LongArrayList tablesAndKinds = new LongArrayList();
    /** Deltas out, fresh values back, at the same positions. */
    private float[] buffer = new float[1024];
    private float[] dropBuffer = new float[1024];
    /** Rows whose replica is to be dropped: key = table << 32 | row. */
    private final LongArrayList dropping = new LongArrayList();
    private final LongArrayList dropped = new LongArrayList();
    private volatile long started;
    private volatile long completed;
    private volatile long requested;
    private volatile long failedRound = -1;
    private volatile ClusterException failure;
    /**
     * The least clock of this node's workers when the last round started (it flushed their updates
     * of the clocks before); far below any clock before the first round.
     */
    private long lastFlushing = Long.MIN_VALUE / 2;
    /**
     * Under an eager model, how many clocks this node's workers advance between rounds
     * ({@link AdaptiveManager#eagerRoundClocks}).
     */
    private final int roundClocks;
    final LongAdder rounds = new LongAdder();
    final LongAdder deltaBytes = new LongAdder();
    final LongAdder replicasDropped = new LongAdder();

    /**
     * @param relocator tells which replicas are on their way to being owned here (left out of rounds)
     * @param tickets   hands out the manager's tickets
     */
    ReplicaSync(NodeContext context, ClusterClocks clocks, Relocator relocator, LongSupplier tickets) {
        this.context = context;
        this.clocks = clocks;
        this.clock = context.clock();
        this.relocator = relocator;
        this.tickets = tickets;
        this.roundClocks = AdaptiveManager.eagerRoundClocks(clocks.strictestBound());
    }

    /** Marks the replica of {@code key} for dropping at the end of the next round. Manager thread. */
    void drop(long key) {
        dropping.add(key);
    }

    /** Whether a round should run now: one was asked for, or replicas exist or wait to be dropped. */
    boolean due() {
        return requested > completed || !dropping.isEmpty() || replicasHeld() > 0;
    }

    /** Whether some table is refreshed eagerly ({@link ClusterClocks#isEager()}). */
    boolean eager() {
        return clocks.isEager();
    }

    /** Under an eager model, how far this node's slowest worker advances between two rounds. */
    int roundClocks() {
        return roundClocks;
    }

    /**
     * Whether an eager model wants a round: this node's slowest worker advanced {@link #roundClocks}
     * clocks since the last round started, so its replicas hold that many clocks of updates the
     * owners have not seen, and the owners (the other nodes' workers advance as this node's do)
     * as many this node's replicas do not reflect. The watermark cannot set the rhythm: it rises
     * only once every node's round has flushed its replicas.
     */
    boolean eagerlyDue() {
        if (!eager() || replicasHeld() == 0) {
            return false;
        }
        long least = clocks.minClock();
        return least != ClusterClocks.UNBOUNDED && least >= lastFlushing + roundClocks;
    }

    /**
     * With no replica held and none waiting to be dropped, every update made to a replica has
     * reached its owner: the node's part of the watermark follows its workers. Manager thread
     * (which alone creates replicas, so none appears between the reads).
     */
    void idle() {
        long generation = clocks.generation();
        long least = clocks.minClock();
        if (dropping.isEmpty() && replicasHeld() == 0) {
            clocks.replicasFlushedThrough(least, generation);
        }
    }

    /** Whether a waiter asked for a round that has not started. */
    boolean requestedNow() {
        return requested > started;
    }

    long replicasHeld() {
        long held = 0;
        for (Table table : context.tables()) {
            held += context.store(table.id()).replicaRows();
        }
        return held;
    }

    /**
     * Runs one round with {@code remote}, the manager's remote half; {@code stillWanted} says
     * whether a replica marked for dropping has regained intent meanwhile (then it stays).
     *
     * @return the round's duration in nanoseconds
     */
    long run(Requester remote, LongPredicate stillWanted) {
        long round = started + 1;
        started = round;
        long start = clock.nanoTime();
        long tag = clocks.watermark();
        long generation = clocks.generation();
        long flushing = clocks.minClock();
        try {
            boolean whole = syncAndRefresh(remote, tag);
            dropReplicas(remote, stillWanted);
            lastFlushing = flushing;
            if (whole) {
                clocks.replicasFlushedThrough(flushing, generation);
            }
        } catch (ClusterException e) {
            failure = e;
            failedRound = round;
            if (context.isClosed() || (e instanceof PeerFailedException failed && failed.left())) {
                LOG.debug("node {}: synchronization round {} failed: {}", context.nodeId(), round, e.getMessage());
            } else {
                LOG.warn("node {}: synchronization round {} failed: {}", context.nodeId(), round, e.getMessage());
            }
        }
        rounds.increment();
        completed = round;
        return clock.nanoTime() - start;
    }

    /**
     * Fetches the new (pending) replicas of {@code created} from their owners, with what was
     * pushed to them meanwhile, as a round does but for them alone and outside the numbered
     * rounds: a round handles every replica, and in a workload whose keys come and go (word2vec's
     * vocabulary) most rounds would otherwise run only because a few replicas were created. Tags
     * them like a round started now. A replica that fails to arrive stays pending, and the next
     * round fetches it. Manager thread.
     */
    void fetch(Requester remote, LongArrayList created) {
        long tag = clocks.watermark();
        keys.clear();
        keys.addAll(created);
        try {
            exchange(remote, tag);
        } catch (ClusterException e) {
            LOG.debug("node {}: fetching {} new replicas failed (the next round fetches them): {}", context.nodeId(),
                    created.size(), e.getMessage());
        }
    }

    /** @return whether every replica was in the round (none left out as moving here) */
    private boolean syncAndRefresh(Requester remote, long tag) {
        keys.clear();
        for (Table table : context.tables()) {
            rows.clear();
            context.store(table.id()).collectReplicaRows(rows);
            for (int i = 0; i < rows.size(); i++) {
                keys.add(RowKey.of(table.id(), rows.getLong(i)));
            }
        }
        return exchange(remote, tag);
    }

    /**
     * Snapshots the replicas of {@link #keys}, sends their deltas (SYNC) or versions (REFRESH) to
     * their owners and refreshes them from the answers, tagged with {@code tag}; leaves out those
     * on their way to being owned here.
     *
     * @return whether none was left out
     */
    private boolean exchange(Requester remote, long tag) {
        moving.clear();
        relocator.incoming(keys, moving);
        if (keys.isEmpty()) {
            return moving.isEmpty();
        }
        rows.clear();
        tablesAndKinds.clear();
        for (int i = 0; i < keys.size(); i++) {
            rows.add(RowKey.row(keys.getLong(i)));
            tablesAndKinds.add((long) RowKey.table(keys.getLong(i)) << 1);
        }
        int floats = 0;
        positions.clear();
        for (int i = 0; i < rows.size(); i++) {
            positions.add(floats);
            floats += table(i).valueLength();
        }
        if (buffer.length < floats) {
            buffer = new float[Math.max(floats, buffer.length * 2)];
        }
        int withDelta = 0;
        for (int i = 0; i < rows.size(); i++) {
            int state = context.store(table(i).id()).snapshotDelta(rows.getLong(i), buffer, positions.getInt(i));
            if (state == TableStore.DELTA) {
                tablesAndKinds.set(i, tablesAndKinds.getLong(i) | 1);
                withDelta++;
            }
        }
        RemoteCall sync = withDelta == 0 ? null : send(remote, Operation.SYNC, true);
        RemoteCall refresh = withDelta == rows.size() ? null : send(remote, Operation.REFRESH, false);
        ClusterException failed = null;
        for (RemoteCall call : new RemoteCall[] {sync, refresh}) {
            if (call == null) {
                continue;
            }
            try {
                remote.await(call);
            } catch (ClusterException e) {
                failed = failed == null ? e : failed;
                continue;
            }
            refresh(call, tag);
        }
        if (failed != null) {
            throw failed;
        }
        return moving.isEmpty();
    }

    /**
     * Refreshes the replicas of a completed SYNC or REFRESH from the values and versions it got,
     * and tags them with {@code tag}.
     */
    private void refresh(RemoteCall call, long tag) {
        for (int part = 0; part < call.parts(); part++) {
            TableStore store = context.store(call.partTable(part));
            for (int k = call.partFirst(part); k < call.partFirst(part) + call.partCount(part); k++) {
                long version = call.version(k);
                long row = call.row(k);
                if ((version & RemoteCall.UNCHANGED) == 0) {
                    store.refreshReplica(row, buffer, call.position(k), version);
                    store.tagReplica(row, tag);
                } else if (version != RemoteCall.UNCHANGED) {
                    store.confirmReplica(row, version & ~RemoteCall.UNCHANGED);
                    store.tagReplica(row, tag);
                }
            }
        }
    }

    private RemoteCall send(Requester remote, Operation operation, boolean delta) {
        remote.begin(operation);
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            if (((tablesAndKinds.getLong(i) & 1) != 0) == delta) {
                Table table = table(i);
                long row = rows.getLong(i);
                remote.add(remote.route(table, row), table, row, buffer, positions.getInt(i),
                        delta ? 0 : context.store(table.id()).knownVersion(row));
                bytes += (long) table.valueLength() * Float.BYTES;
            }
        }
        if (delta) {
            deltaBytes.add(bytes);
        }
        return remote.send(tickets.getAsLong(), buffer);
    }

    /**
     * Drops the replicas marked for it that are not wanted again, and sends their last deltas to
     * the owners. Until those arrived, workers wait to read the rows ({@link TableStore#drained}):
     * a worker that reads one from its owner meanwhile would miss its own last updates.
     */
    private void dropReplicas(Requester remote, LongPredicate stillWanted) {
        if (dropping.isEmpty()) {
            return;
        }
        int floats = 0;
        for (int i = 0; i < dropping.size(); i++) {
            floats += context.table(RowKey.table(dropping.getLong(i))).valueLength();
        }
        if (dropBuffer.length < floats) {
            dropBuffer = new float[Math.max(floats, dropBuffer.length * 2)];
        }
        float[] deltas = dropBuffer;
        remote.begin(Operation.PUSH);
        int position = 0;
        dropped.clear();
        for (int i = 0; i < dropping.size(); i++) {
            long key = dropping.getLong(i);
            Table table = context.table(RowKey.table(key));
            long row = RowKey.row(key);
            if (!stillWanted.test(key) && context.store(table.id()).dropReplica(row, deltas, position)) {
                replicasDropped.increment();
                dropped.add(key);
                if (!TableStore.isZero(deltas, position, table.valueLength())) {
                    remote.add(remote.route(table, row), table, row, deltas, position);
                }
            }
            position += table.valueLength();
        }
        dropping.clear();
        try {
            if (remote.hasRows()) {
                remote.await(remote.send(tickets.getAsLong(), deltas));
            }
        } finally {
            for (int i = 0; i < dropped.size(); i++) {
                context.store(RowKey.table(dropped.getLong(i))).drained(RowKey.row(dropped.getLong(i)));
            }
        }
    }

    private Table table(int i) {
        return context.table((int) (tablesAndKinds.getLong(i) >>> 1));
    }

    /** Asks for a round that starts after this call and returns its number. Any thread. */
    long request() {
        long round;
        synchronized (this) {
            round = started + 1;
            if (requested < round) {
                requested = round;
            }
        }
        return round;
    }

    /** Whether round {@code round} has completed. */
    boolean isComplete(long round) {
        return completed >= round;
    }

    /** Throws the failure of round {@code round} or a later one, if any. */
    void checkFailure(long round) {
        if (failedRound >= round) {
            throw failure;
        }
    }
}
