package io.adaps.relocation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.directory.Directory;
import io.adaps.directory.LocationCache;
import io.adaps.keys.KeySpace;
import io.adaps.keys.RowKey;
import io.adaps.protocol.BatcherPool;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Moves rows between nodes (dynamic parameter allocation: Renz-Wieland, Gemulla, Zeuch, Markl,
 * "Dynamic Parameter Allocation in Parameter Servers", PVLDB 13(11), 2020, the Lapse system), and
 * finds rows that are not where a request expected them.
 *
 * <h2>Protocol</h2>
 * <pre>
 *   requester R            home H (directory)           owner O
 *   LOCALIZE(rows) -------&gt; owner := R, counter++
 *                           RELINQUISH(rows, R) -------&gt; take the rows out of the store
 *   install, serve  &lt;--------------------------------- HANDOVER(rows, values, rule state)
 *   the queued requests
 * </pre>
 * A requester marks each row it asks for as <em>incoming</em> before it sends LOCALIZE
 * ({@link #claim}). The home numbers each grant with the row's relocation counter. If H is itself
 * the owner it hands the row over at once. An owner that is told to relinquish a row that is
 * still incoming to it queues the instruction and carries it out as soon as the row arrives, so
 * back-to-back moves chain from owner to owner in grant order without going back to the home.
 *
 * <h2>Requests for rows that are not here</h2>
 * The {@link RequestServer} serves what the store owns; the entries it does not own come here:
 * <ul>
 *   <li>a row incoming to this node: the entry is queued with the row and served, in arrival
 *       order, right after the row is installed;</li>
 *   <li>otherwise the entry is forwarded: to the row's home, or, at the home, to the owner its
 *       directory names. The holder answers the original requester directly, and the answer
 *       teaches the requester's {@link LocationCache} where the row is.</li>
 * </ul>
 * Every row is held by at most one node at any moment, and a request is applied only by the
 * holder, once: a request is at one place at a time (answered, queued or in flight), so updates
 * are neither lost nor duplicated, whatever the message order. Hops are counted and bounded
 * ({@value #MAX_HOPS}), which turns a protocol bug into an error instead of a loop.
 *
 * <h2>Threads</h2>
 * Everything here runs on transport threads, or on a worker (or the manager) for its own
 * LOCALIZE and requests to its own node. One lock guards the directory, the incoming rows and
 * their queues; it is taken only on these slow paths, never by a local access to a held row.
 * Messages are built under the lock and sent after it is released, so that no thread waits for
 * the network (back-pressure) while others wait for the lock.
 */
public final class Relocator {
    private static final Logger LOG = LoggerFactory.getLogger(Relocator.class);
    /** Forwarding hops after which a request fails: far more than any legitimate chase needs. */
    public static final int MAX_HOPS = 64;
    /** The claim of a row that no localize of this node waits for (it was given up, then instructed on). */
    private static final long UNCLAIMED = -1L;

    /**
     * A request entry (PULL, PUSH, SET, SYNC, REFRESH) or a RELINQUISH instruction that waits for
     * its row.
     *
     * @param peer {@code origin} of a request; the new owner of a RELINQUISH
     */
    private record Queued(MessageType type, int peer, long requestId, int hops, int index, int counter,
                          float[] values, long version) {
    }

    /** An ERROR to send once the lock is released. */
    private record Refusal(int peer, long requestId, int failedPeer, String text) {
    }

    private final NodeContext context;
    private final Peers peers;
    private final RowServer rows;
    private final Directory directory;
    private final LocationCache locations;
    /**
     * Rows on their way here: row key -> the claim of the localize that asked for them ({@code
     * worker << 32 | ticket}, or {@link #UNCLAIMED}). A map of primitives: marking a row costs no
     * allocation, since most rows arrive before anything waits for them.
     */
    private final Long2LongOpenHashMap incoming = new Long2LongOpenHashMap();
    /** What waits for rows on their way here, in arrival order; only rows that have waiters. */
    private final Long2ObjectOpenHashMap<ArrayDeque<Queued>> waiting = new Long2ObjectOpenHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final BatcherPool batchers;
    private final MessageBatcher.Sender sender;
    /** Scratch for values, used under the lock only. */
    private final float[] values;
    private final float[] slot;
    /** Hears of the rows granted here as a home; nothing until {@link #onGrant} is called. */
    private volatile Grants grants;
    private final LongAdder relocationsIn = new LongAdder();
    private final LongAdder relocationsOut = new LongAdder();
    private final LongAdder forwarded = new LongAdder();

    public Relocator(NodeContext context, RowServer rows) {
        this.context = context;
        this.peers = context.peers();
        this.rows = rows;
        this.locations = context.locations();
        this.directory = new Directory(context.nodeId(), context.tables().size());
        this.batchers = new BatcherPool(RowServer.lanes(context.clusterSize()), context.config().maxMessageBytes());
        this.sender = RowServer.laneSender(peers);
        this.values = new float[context.maxStride()];
        this.slot = new float[context.maxStride()];
    }

    /** Hears, at a home, to which node the rows of one LOCALIZE were granted. */
    @FunctionalInterface
    public interface Grants {
        /** The rows (row keys) {@code keys} were granted to {@code requester}; called after the lock is released. */
        void granted(LongArrayList keys, int requester);
    }

    /** Tells {@code listener} of every grant from now on (a home's placement decisions follow them). */
    public void onGrant(Grants listener) {
        this.grants = listener;
    }

    /** Rows that moved here. */
    public long relocationsIn() {
        return relocationsIn.sum();
    }

    /** Rows that moved away from here. */
    public long relocationsOut() {
        return relocationsOut.sum();
    }

    /**
     * Rows on their way here now (asked for and not yet installed). Zero while no localize is
     * started means every move towards this node has settled: what a checkpoint waits for.
     */
    public int incomingRows() {
        lock.lock();
        try {
            return incoming.size();
        } finally {
            lock.unlock();
        }
    }

    /** Requested rows this node did not hold and passed on towards their holder. */
    public long forwarded() {
        return forwarded.sum();
    }

    private static long claimOf(int worker, long ticket) {
        return (long) worker << 32 | (ticket & 0xFFFF_FFFFL);
    }

    /** Queues {@code queued} behind the row of {@code key}, which is incoming; under the lock. */
    private void enqueue(long key, Queued queued) {
        ArrayDeque<Queued> queue = waiting.get(key);
        if (queue == null) {
            queue = new ArrayDeque<>(2);
            waiting.put(key, queue);
        }
        queue.add(queued);
    }

    /**
     * Records, before the node serves anything, that {@code row} homed here is owned by
     * {@code owner}: a restore that puts rows back where a checkpoint found them.
     */
    public void restoreOwner(Table table, long row, int owner) {
        lock.lock();
        try {
            directory.grant(table.id(), row, owner);
        } finally {
            lock.unlock();
        }
    }

    /** The owner of a row homed here by this node's directory. */
    public int directoryOwner(int table, long row) {
        lock.lock();
        try {
            return directory.owner(table, row);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks the rows of {@code ids} (rows of {@code table}, or global keys of {@code keys} if
     * {@code table} is {@code null}) that are neither held here nor incoming as incoming for
     * {@code ticket} of {@code worker}, and hands each to {@code sink} with its home. Rows held here
     * as replicas are claimed only with {@code promoteReplicas}: only the manager turns replicas
     * into owned rows, since it alone knows that no synchronization of theirs is on its way (see
     * {@link #incoming(LongArrayList, LongArrayList)}).
     */
    public void claim(Table table, long[] ids, int idOffset, int idCount, KeySpace keys, int worker, long ticket,
                      boolean promoteReplicas, LocalizeSink sink) {
        lock.lock();
        try {
            for (int i = idOffset; i < idOffset + idCount; i++) {
                Table idTable = table != null ? table : keys.tableOf(ids[i]);
                long row = table != null ? ids[i] : ids[i] - idTable.firstKey();
                long key = RowKey.of(idTable.id(), row);
                TableStore store = context.store(idTable.id());
                if (!(promoteReplicas ? store.owns(row) : store.holds(row)) && !incoming.containsKey(key)) {
                    incoming.put(key, claimOf(worker, ticket));
                    sink.ask(context.home(idTable, row), idTable, row);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the row keys of {@code keys} that are on their way here to {@code into}, removing them
     * from {@code keys}. A replica that is being moved here must not be synchronized meanwhile: its
     * owner could take the row out before the synchronization arrives, which would then be
     * forwarded here and applied only after the replica became the owned row, so a worker could
     * briefly miss its own updates.
     */
    public void incoming(LongArrayList keys, LongArrayList into) {
        lock.lock();
        try {
            int kept = 0;
            for (int i = 0; i < keys.size(); i++) {
                long key = keys.getLong(i);
                if (incoming.containsKey(key)) {
                    into.add(key);
                } else {
                    keys.set(kept++, key);
                }
            }
            keys.size(kept);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives up the rows (row keys {@code keys}) of a failed LOCALIZE, {@code ticket} of
     * {@code worker}, that have not arrived: requests queued for them are refused. A row that
     * still arrives later is installed as usual (a value is never dropped).
     */
    public void abandon(int worker, long ticket, LongArrayList keys) {
        List<Refusal> refusals = new ArrayList<>();
        lock.lock();
        try {
            for (int i = 0; i < keys.size(); i++) {
                long key = keys.getLong(i);
                if (incoming.containsKey(key) && incoming.get(key) == claimOf(worker, ticket)) {
                    incoming.remove(key);
                    ArrayDeque<Queued> queue = waiting.remove(key);
                    for (Queued queued : queue == null ? List.<Queued>of() : queue) {
                        if (queued.type == MessageType.RELINQUISH) {
                            LOG.warn("node {}: row {} of table {} never arrived; node {} will not get it",
                                    context.nodeId(), RowKey.row(key), RowKey.table(key), queued.peer);
                        } else {
                            refusals.add(new Refusal(queued.peer, queued.requestId, -1, "row " + RowKey.row(key)
                                    + " of table " + RowKey.table(key) + " never arrived at node " + context.nodeId()));
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        refuse(refusals);
    }

    // ---------------------------------------------------------------- requests for rows not held

    /**
     * Takes the entries of {@code request} at the buffer offsets {@code missing}, which the store
     * did not own: serves those that arrived meanwhile, queues those that are incoming, forwards
     * the rest.
     */
    public void forwardOrQueue(Message request, Table table, IntArrayList missing) {
        MessageType type = request.type();
        int valueLength = table.valueLength();
        int entryLength = type.entryLength(valueLength, context.store(table.id()).stride());
        List<Refusal> refusals = new ArrayList<>(0);
        MessageBatcher out = batchers.acquire();
        lock.lock();
        try {
            for (int m = 0; m < missing.size(); m++) {
                int at = missing.getInt(m);
                long version = 0;
                if (type == MessageType.REFRESH) {
                    version = request.versionAt(at + Message.ROW_ENTRY);
                } else if (type != MessageType.PULL) {
                    request.readFloats(at + Message.ROW_ENTRY, values, 0, valueLength);
                }
                dispatch(type, table, request.rowAt(at), request.intAt(at + Message.ROW_LENGTH), request.origin(),
                        request.requestId(), request.aux(), values, version, out, refusals);
            }
        } finally {
            lock.unlock();
            batchers.sendAndRelease(out, sender);
        }
        refuse(refusals);
    }

    /**
     * Serves, queues or forwards one request entry; under the lock. {@code update} carries a push,
     * set or sync's values, {@code version} the version a REFRESH's replica has.
     */
    private void dispatch(MessageType type, Table table, long row, int index, int origin, long requestId, int hops,
                          float[] update, long version, MessageBatcher out, List<Refusal> refusals) {
        if (rows.serve(type, table, row, index, origin, requestId, update, version, slot, out)) {
            return;
        }
        int valueLength = table.valueLength();
        long key = RowKey.of(table.id(), row);
        if (incoming.containsKey(key)) {
            float[] copy = type == MessageType.PULL || type == MessageType.REFRESH ? null
                    : Arrays.copyOf(update, valueLength);
            enqueue(key, new Queued(type, origin, requestId, hops, index, 0, copy, version));
            return;
        }
        int next = context.home(table, row);
        if (next == context.nodeId()) {
            next = directory.owner(table.id(), row);
        }
        String problem = next == context.nodeId() ? "is owned by node " + next + " by its directory, but not held there"
                : hops >= MAX_HOPS ? "was not found after " + hops + " forwarding hops"
                : null;
        if (problem != null) {
            refusals.add(new Refusal(origin, requestId, -1, "row " + row + " of table '" + table.name() + "' " + problem));
            return;
        }
        if (peers.failure(next) != null) {
            refusals.add(new Refusal(origin, requestId, next, "row " + row + " of table '" + table.name()
                    + "' is at node " + next + ", which failed"));
            return;
        }
        int lane = RowServer.lane(next, type);
        int at = out.entry(lane, type, 0, table.id(), requestId, origin, hops + 1, type.entryLength(valueLength, 0));
        MutableDirectBuffer buffer = out.buffer(lane);
        at = Message.writeRow(buffer, at, row);
        at = Message.writeInt(buffer, at, index);
        if (type == MessageType.REFRESH) {
            Message.writeVersion(buffer, at, version);
        } else if (type != MessageType.PULL) {
            Message.writeFloats(buffer, at, update, 0, valueLength);
        }
        forwarded.increment();
    }

    // ---------------------------------------------------------------- moving rows

    /** At the home: grants the rows of a LOCALIZE to its origin and has their owners hand them over. */
    public void onLocalize(int peer, Message request) {
        Table table = context.table(request.table());
        int requester = request.origin();
        long requestId = request.requestId();
        List<Refusal> refusals = new ArrayList<>(0);
        Grants listener = grants;
        LongArrayList granted = listener == null ? null : new LongArrayList(request.count());
        MessageBatcher out = batchers.acquire();
        lock.lock();
        try {
            for (int i = 0; i < request.count(); i++) {
                int at = request.entry(i, Message.ROW_ENTRY);
                long row = request.rowAt(at);
                int index = request.intAt(at + Message.ROW_LENGTH);
                int owner = directory.owner(table.id(), row);
                if (owner == requester) {
                    // Already granted to the requester: nothing moves (a repeated request).
                    int lane = RowServer.lane(requester, MessageType.ACK);
                    int ack = out.entry(lane, MessageType.ACK, 0, table.id(), requestId, requester, 0, Message.INDEX_LENGTH);
                    Message.writeInt(out.buffer(lane), ack, index);
                } else if (owner != context.nodeId() && peers.failure(owner) != null) {
                    refusals.add(new Refusal(requester, requestId, owner, "row " + row + " of table '" + table.name()
                            + "' is owned by node " + owner + ", which failed"));
                } else {
                    int counter = directory.grant(table.id(), row, requester);
                    if (granted != null) {
                        granted.add(RowKey.of(table.id(), row));
                    }
                    if (owner == context.nodeId()) {
                        relinquish(table, row, index, requester, requestId, counter, out);
                    } else {
                        int lane = RowServer.lane(owner, MessageType.RELINQUISH);
                        int entry = out.entry(lane, MessageType.RELINQUISH, 0, table.id(), requestId, requester, 0,
                                Message.MOVE_ENTRY);
                        MutableDirectBuffer buffer = out.buffer(lane);
                        entry = Message.writeRow(buffer, entry, row);
                        entry = Message.writeInt(buffer, entry, index);
                        Message.writeInt(buffer, entry, counter);
                    }
                }
            }
        } finally {
            lock.unlock();
            batchers.sendAndRelease(out, sender);
        }
        refuse(refusals);
        if (granted != null && !granted.isEmpty()) {
            listener.granted(granted, requester);
        }
    }

    /** At an owner: hands the rows of a RELINQUISH over to its origin, now or when they arrive. */
    public void onRelinquish(int peer, Message instruction) {
        Table table = context.table(instruction.table());
        MessageBatcher out = batchers.acquire();
        lock.lock();
        try {
            for (int i = 0; i < instruction.count(); i++) {
                int at = instruction.entry(i, Message.MOVE_ENTRY);
                relinquish(table, instruction.rowAt(at), instruction.intAt(at + Message.ROW_LENGTH),
                        instruction.origin(), instruction.requestId(), instruction.intAt(at + Message.ROW_ENTRY), out);
            }
        } finally {
            lock.unlock();
            batchers.sendAndRelease(out, sender);
        }
    }

    /** Takes a row out and hands it to {@code newOwner}, or queues that until it arrives; under the lock. */
    private void relinquish(Table table, long row, int index, int newOwner, long requestId, int counter,
                            MessageBatcher out) {
        TableStore store = context.store(table.id());
        if (store.takeOut(row, slot, 0)) {
            int stride = store.stride();
            int lane = RowServer.lane(newOwner, MessageType.HANDOVER);
            int at = out.entry(lane, MessageType.HANDOVER, 0, table.id(), requestId, newOwner, 0,
                    Message.MOVE_ENTRY + stride * Float.BYTES);
            MutableDirectBuffer buffer = out.buffer(lane);
            at = Message.writeRow(buffer, at, row);
            at = Message.writeInt(buffer, at, index);
            at = Message.writeInt(buffer, at, counter);
            Message.writeFloats(buffer, at, slot, 0, stride);
            locations.put(table.id(), row, newOwner);
            relocationsOut.increment();
            return;
        }
        long key = RowKey.of(table.id(), row);
        if (!incoming.containsKey(key)) {
            // Only after this node gave the row up (a localize that failed or timed out): should it
            // still arrive, it is passed on as the home decided, rather than kept where nobody looks.
            LOG.warn("node {}: told to hand row {} of table '{}' (move {}) to node {} before it arrived here",
                    context.nodeId(), row, table.name(), counter, newOwner);
            incoming.put(key, UNCLAIMED);
        }
        enqueue(key, new Queued(MessageType.RELINQUISH, newOwner, requestId, 0, index, counter, null, 0));
    }

    /**
     * At the new owner: installs the rows of a HANDOVER, then serves what waited for them, in
     * order (which may move them on at once). The worker that asked hears of it from the answer
     * route, after this.
     */
    public void onHandover(int peer, Message handover) {
        Table table = context.table(handover.table());
        TableStore store = context.store(table.id());
        int stride = store.stride();
        int entryLength = MessageType.HANDOVER.entryLength(table.valueLength(), stride);
        List<Refusal> refusals = new ArrayList<>(0);
        MessageBatcher out = batchers.acquire();
        lock.lock();
        try {
            for (int i = 0; i < handover.count(); i++) {
                int at = handover.entry(i, entryLength);
                long row = handover.rowAt(at);
                handover.readFloats(at + Message.MOVE_ENTRY, values, 0, stride);
                if (store.owns(row)) {
                    LOG.error("node {}: received row {} of table '{}' (move {}), which it owns already; kept its own",
                            context.nodeId(), row, table.name(), handover.intAt(at + Message.ROW_ENTRY));
                    continue;
                }
                // A replica held here becomes the owned copy, keeping the updates it has not synced yet.
                store.promote(row, values, 0);
                locations.put(table.id(), row, LocationCache.UNKNOWN);
                relocationsIn.increment();
                long key = RowKey.of(table.id(), row);
                incoming.remove(key);
                ArrayDeque<Queued> queue = waiting.remove(key);
                if (queue != null) {
                    for (Queued queued : queue) {
                        if (queued.type == MessageType.RELINQUISH) {
                            relinquish(table, row, queued.index, queued.peer, queued.requestId, queued.counter, out);
                        } else {
                            dispatch(queued.type, table, row, queued.index, queued.peer, queued.requestId, queued.hops,
                                    queued.values, queued.version, out, refusals);
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
            batchers.sendAndRelease(out, sender);
        }
        refuse(refusals);
    }

    /** Sends the refusals, one per request (the first problem is enough to fail it). */
    private void refuse(List<Refusal> refusals) {
        Refusal previous = null;
        for (Refusal refusal : refusals) {
            if (previous == null || previous.peer != refusal.peer || previous.requestId != refusal.requestId) {
                peers.sendError(refusal.peer, refusal.requestId, refusal.failedPeer, refusal.text);
            }
            previous = refusal;
        }
    }
}
