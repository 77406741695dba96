package io.adaps.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.directory.Directory;
import io.adaps.directory.LocationCache;
import io.adaps.intent.HomeIntents;
import io.adaps.protocol.Message;
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
 * A requester marks each row it asks for as <em>incoming</em> before it sends LOCALIZE. The home
 * numbers each grant with the row's relocation counter. If H is itself the owner it hands the row
 * over at once. An owner that is told to relinquish a row that is still incoming to it queues the
 * instruction and carries it out as soon as the row arrives, so back-to-back moves chain from
 * owner to owner in grant order without going back to the home.
 *
 * <h2>Requests for rows that are not here</h2>
 * The store answers what it holds ({@link RequestServer}); rows it does not hold come here:
 * <ul>
 *   <li>a row incoming to this node: the request is queued with the row and served, in arrival
 *       order, right after the row is installed;</li>
 *   <li>otherwise the request is forwarded: to the row's home, or, at the home, to the owner its
 *       directory names. The holder answers the original requester directly, and the answer
 *       teaches the requester's {@link LocationCache} where the row is.</li>
 * </ul>
 * Every row is held by at most one node at any moment, and a request is applied only by the
 * holder, once: a request is at one place at a time (answered, queued or in flight), so updates
 * are neither lost nor duplicated, whatever the message order. Hops are counted and bounded
 * ({@value #MAX_HOPS}), which turns a protocol bug into an error instead of a loop.
 *
 * <h2>Threads</h2>
 * Everything here runs on transport threads, or on a worker thread for its own LOCALIZE and
 * requests to its own node. One lock guards the directory, the incoming rows and their queues;
 * it is taken only on these slow paths, never by a local access to a held row. Messages are
 * built under the lock and sent after it is released ({@link Outbound}).
 */
final class Relocator {
    private static final Logger LOG = LoggerFactory.getLogger(Relocator.class);
    /** Forwarding hops after which a request fails: far more than any legitimate chase needs. */
    static final int MAX_HOPS = 64;
    /** How long the home waits for other nodes' intents before it moves a key to the first one. */
    static final int DECISION_DELAY_MILLIS = 50;

    /**
     * A request entry (PULL, PUSH, SET) or a RELINQUISH instruction that waits for its row.
     *
     * @param peer {@code origin} of a request; the new owner of a RELINQUISH
     */
    private record Queued(MessageType type, int peer, long requestId, int hops, int index, int counter,
                          float[] values, long version) {
    }

    /** An ERROR to send once the lock is released. */
    private record Refusal(int peer, long requestId, int failedPeer, String text) {
    }

    private final Node node;
    private final TableStore[] stores;
    private final Directory directory;
    private final HomeIntents intents;
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
    /** Per thread: free {@link Outbound}s, one per nesting level of messages to this node itself. */
    private final ThreadLocal<ArrayDeque<Outbound>> outbounds = ThreadLocal.withInitial(ArrayDeque::new);
    /** Scratch for values, used under the lock only. */
    private final float[] values;
    private final float[] slot;
    final LongAdder relocationsIn = new LongAdder();
    final LongAdder relocationsOut = new LongAdder();
    final LongAdder forwarded = new LongAdder();

    Relocator(Node node, TableStore[] stores, LocationCache locations) {
        this.node = node;
        this.stores = stores;
        this.locations = locations;
        this.directory = new Directory(node.nodeId(), stores.length);
        // Only a node with a manager thread releases deferred relocations.
        this.intents = new HomeIntents(Math.min(node.clusterSize(), HomeIntents.MAX_NODES),
                node.config().technique() == Technique.STATIC ? 0 : TimeUnit.MILLISECONDS.toNanos(DECISION_DELAY_MILLIS));
        int stride = 0;
        for (TableStore store : stores) {
            stride = Math.max(stride, store.stride());
        }
        this.values = new float[stride];
        this.slot = new float[stride];
    }

    /** The claim of a row that no localize of this node waits for (it was given up, then instructed on). */
    private static final long UNCLAIMED = -1L;

    private static long key(int table, long row) {
        return (long) table << 32 | row;
    }

    private static long claim(int worker, long ticket) {
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

    /** The owner of a row homed here by this node's directory. */
    int directoryOwner(int table, long row) {
        lock.lock();
        try {
            return directory.owner(table, row);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks the rows of {@code ids} that are neither held here nor incoming as incoming for
     * {@code ticket} of {@code worker}, and adds each to {@code remote}'s LOCALIZE for its home.
     * Rows held here as replicas are claimed only with {@code promoteReplicas}: only the manager
     * turns replicas into owned rows, since it alone knows that no synchronization of theirs is on
     * its way (see {@link #incoming(LongArrayList, LongArrayList)}).
     */
    void claim(Table table, long[] ids, int idOffset, int idCount, KeySpace keys, RemoteOperations remote, int worker,
               long ticket, boolean promoteReplicas) {
        lock.lock();
        try {
            for (int i = idOffset; i < idOffset + idCount; i++) {
                Table idTable = table != null ? table : keys.tableOf(ids[i]);
                long row = table != null ? ids[i] : ids[i] - idTable.firstKey();
                long key = key(idTable.id(), row);
                TableStore store = stores[idTable.id()];
                if (!(promoteReplicas ? store.owns(row) : store.holds(row)) && !incoming.containsKey(key)) {
                    incoming.put(key, claim(worker, ticket));
                    remote.add(node.home(idTable, row), idTable, row, null, 0);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the keys ({@code table << 32 | row}) of {@code keys} that are on their way here to
     * {@code into}, removing them from {@code keys}. A replica that is being moved here must not
     * be synchronized meanwhile: its owner could take the row out before the synchronization
     * arrives, which would then be forwarded here and applied only after the replica became the
     * owned row, so a worker could briefly miss its own updates.
     */
    void incoming(LongArrayList keys, LongArrayList into) {
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
     * Gives up the rows of a failed LOCALIZE ({@code ticket} of {@code worker}) that have not
     * arrived: requests queued for them are refused. A row that still arrives later is installed
     * as usual (a value is never dropped).
     */
    void abandon(int worker, long ticket, RemoteCall call) {
        List<Refusal> refusals = new ArrayList<>();
        lock.lock();
        try {
            for (int part = 0; part < call.parts; part++) {
                for (int i = 0; i < call.partCount[part]; i++) {
                    long key = key(call.partTable[part], call.rows.getLong(call.partFirst[part] + i));
                    if (incoming.containsKey(key) && incoming.get(key) == claim(worker, ticket)) {
                        incoming.remove(key);
                        ArrayDeque<Queued> queue = waiting.remove(key);
                        for (Queued queued : queue == null ? List.<Queued>of() : queue) {
                            if (queued.type == MessageType.RELINQUISH) {
                                LOG.warn("node {}: row {} of table {} never arrived; node {} will not get it",
                                        node.nodeId(), key & 0xFFFF_FFFFL, key >>> 32, queued.peer);
                            } else {
                                refusals.add(new Refusal(queued.peer, queued.requestId, -1, "row " + (key & 0xFFFF_FFFFL)
                                        + " of table " + (key >>> 32) + " never arrived at node " + node.nodeId()));
                            }
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
     * did not hold: serves those that arrived meanwhile, queues those that are incoming, forwards
     * the rest.
     */
    void forwardOrQueue(Message request, Table table, IntArrayList missing) {
        MessageType type = request.type();
        int valueLength = table.valueLength();
        int entryLength = type.entryLength(valueLength, stores[table.id()].stride());
        List<Refusal> refusals = new ArrayList<>(0);
        Outbound out = acquireOutbound();
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
        }
        send(out);
        refuse(refusals);
    }

    /**
     * Serves, queues or forwards one request entry; under the lock. {@code update} carries a push,
     * set or sync's values, {@code version} the version a REFRESH's replica has.
     */
    private void dispatch(MessageType type, Table table, long row, int index, int origin, long requestId, int hops,
                          float[] update, long version, Outbound out, List<Refusal> refusals) {
        TableStore store = stores[table.id()];
        int valueLength = table.valueLength();
        if (type == MessageType.SYNC || type == MessageType.REFRESH) {
            // Under the lock a row owned here stays so: the read after a SYNC's push cannot miss.
            long current = type == MessageType.REFRESH || store.pushOwned(row, update, 0)
                    ? store.pullOwnedVersioned(row, slot, 0) : -1;
            if (current >= 0) {
                answerVersioned(table, origin, requestId, index, current, type == MessageType.REFRESH && current == version,
                        out);
                return;
            }
        } else if (RequestServer.serveOwned(store, type, row, update, slot)) {
            if (type == MessageType.PULL) {
                int at = out.entry(origin, MessageType.PULL_REPLY, 0, table.id(), requestId, origin, 0,
                        Message.INDEX_LENGTH + valueLength * Float.BYTES);
                at = Message.writeInt(out.buffer(origin), at, index);
                Message.writeFloats(out.buffer(origin), at, slot, 0, valueLength);
            } else {
                int at = out.entry(origin, MessageType.ACK, 0, table.id(), requestId, origin, 0, Message.INDEX_LENGTH);
                Message.writeInt(out.buffer(origin), at, index);
            }
            return;
        }
        long key = key(table.id(), row);
        if (incoming.containsKey(key)) {
            float[] copy = type == MessageType.PULL || type == MessageType.REFRESH ? null
                    : Arrays.copyOf(update, valueLength);
            enqueue(key, new Queued(type, origin, requestId, hops, index, 0, copy, version));
            return;
        }
        int next = node.home(table, row);
        if (next == node.nodeId()) {
            next = directory.owner(table.id(), row);
        }
        String problem = next == node.nodeId() ? "is owned by node " + next + " by its directory, but not held there"
                : hops >= MAX_HOPS ? "was not found after " + hops + " forwarding hops"
                : null;
        if (problem != null) {
            refusals.add(new Refusal(origin, requestId, -1, "row " + row + " of table '" + table.name() + "' " + problem));
            return;
        }
        if (node.peerFailure(next) != null) {
            refusals.add(new Refusal(origin, requestId, next, "row " + row + " of table '" + table.name()
                    + "' is at node " + next + ", which failed"));
            return;
        }
        int entryLength = type.entryLength(valueLength, 0);
        int at = out.entry(next, type, 0, table.id(), requestId, origin, hops + 1, entryLength);
        MutableDirectBuffer buffer = out.buffer(next);
        at = Message.writeRow(buffer, at, row);
        at = Message.writeInt(buffer, at, index);
        if (type == MessageType.REFRESH) {
            Message.writeVersion(buffer, at, version);
        } else if (type != MessageType.PULL) {
            Message.writeFloats(buffer, at, update, 0, valueLength);
        }
        forwarded.increment();
    }

    /** Answers a SYNC or REFRESH entry with the row's version, and its value unless {@code unchanged}. */
    private void answerVersioned(Table table, int origin, long requestId, int index, long version, boolean unchanged,
                                 Outbound out) {
        MessageType answer = unchanged ? MessageType.UNCHANGED : MessageType.REFRESHED;
        int valueLength = table.valueLength();
        int at = out.entry(origin, answer, 0, table.id(), requestId, origin, 0, answer.entryLength(valueLength, 0));
        MutableDirectBuffer buffer = out.buffer(origin);
        at = Message.writeInt(buffer, at, index);
        at = Message.writeVersion(buffer, at, version);
        if (!unchanged) {
            Message.writeFloats(buffer, at, slot, 0, valueLength);
        }
    }

    // ---------------------------------------------------------------- moving rows

    /** At the home: grants the rows of a LOCALIZE to its origin and has their owners hand them over. */
    void onLocalize(Message request, Table table) {
        int requester = request.origin();
        long requestId = request.requestId();
        List<Refusal> refusals = new ArrayList<>(0);
        Outbound out = acquireOutbound();
        lock.lock();
        try {
            for (int i = 0; i < request.count(); i++) {
                int at = request.entry(i, Message.ROW_ENTRY);
                long row = request.rowAt(at);
                int index = request.intAt(at + Message.ROW_LENGTH);
                int owner = directory.owner(table.id(), row);
                if (owner == requester) {
                    // Already granted to the requester: nothing moves (a repeated request).
                    int ack = out.entry(requester, MessageType.ACK, 0, table.id(), requestId, requester, 0,
                            Message.INDEX_LENGTH);
                    Message.writeInt(out.buffer(requester), ack, index);
                } else if (owner != node.nodeId() && node.peerFailure(owner) != null) {
                    refusals.add(new Refusal(requester, requestId, owner, "row " + row + " of table '" + table.name()
                            + "' is owned by node " + owner + ", which failed"));
                } else {
                    int counter = directory.grant(table.id(), row, requester);
                    if (owner == node.nodeId()) {
                        relinquish(table, row, index, requester, requestId, counter, out);
                    } else {
                        int entry = out.entry(owner, MessageType.RELINQUISH, 0, table.id(), requestId, requester, 0,
                                Message.MOVE_ENTRY);
                        MutableDirectBuffer buffer = out.buffer(owner);
                        entry = Message.writeRow(buffer, entry, row);
                        entry = Message.writeInt(buffer, entry, index);
                        Message.writeInt(buffer, entry, counter);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        send(out);
        refuse(refusals);
    }

    /** At an owner: hands the rows of a RELINQUISH over to its origin, now or when they arrive. */
    void onRelinquish(Message instruction, Table table) {
        Outbound out = acquireOutbound();
        lock.lock();
        try {
            for (int i = 0; i < instruction.count(); i++) {
                int at = instruction.entry(i, Message.MOVE_ENTRY);
                relinquish(table, instruction.rowAt(at), instruction.intAt(at + Message.ROW_LENGTH),
                        instruction.origin(), instruction.requestId(), instruction.intAt(at + Message.ROW_ENTRY), out);
            }
        } finally {
            lock.unlock();
        }
        send(out);
    }

    /** Takes a row out and hands it to {@code newOwner}, or queues that until it arrives; under the lock. */
    private void relinquish(Table table, long row, int index, int newOwner, long requestId, int counter, Outbound out) {
        TableStore store = stores[table.id()];
        if (store.takeOut(row, slot, 0)) {
            int stride = store.stride();
            int at = out.entry(newOwner, MessageType.HANDOVER, 0, table.id(), requestId, newOwner, 0,
                    Message.MOVE_ENTRY + stride * Float.BYTES);
            MutableDirectBuffer buffer = out.buffer(newOwner);
            at = Message.writeRow(buffer, at, row);
            at = Message.writeInt(buffer, at, index);
            at = Message.writeInt(buffer, at, counter);
            Message.writeFloats(buffer, at, slot, 0, stride);
            locations.put(table.id(), row, newOwner);
            relocationsOut.increment();
            return;
        }
        long key = key(table.id(), row);
        if (!incoming.containsKey(key)) {
            // Only after this node gave the row up (a localize that failed or timed out): should it
            // still arrive, it is passed on as the home decided, rather than kept where nobody looks.
            LOG.warn("node {}: told to hand row {} of table '{}' (move {}) to node {} before it arrived here",
                    node.nodeId(), row, table.name(), counter, newOwner);
            incoming.put(key, UNCLAIMED);
        }
        enqueue(key, new Queued(MessageType.RELINQUISH, newOwner, requestId, 0, index, counter, null, 0));
    }

    /**
     * At the new owner: installs the rows of a HANDOVER from {@code peer}, then serves what waited
     * for them, in order (which may move them on at once), then tells the worker that asked.
     */
    void onHandover(int peer, Message handover, Table table) {
        TableStore store = stores[table.id()];
        int stride = store.stride();
        int entryLength = MessageType.HANDOVER.entryLength(table.valueLength(), stride);
        List<Refusal> refusals = new ArrayList<>(0);
        Outbound out = acquireOutbound();
        lock.lock();
        try {
            for (int i = 0; i < handover.count(); i++) {
                int at = handover.entry(i, entryLength);
                long row = handover.rowAt(at);
                handover.readFloats(at + Message.MOVE_ENTRY, values, 0, stride);
                if (store.owns(row)) {
                    LOG.error("node {}: received row {} of table '{}' (move {}), which it owns already; kept its own",
                            node.nodeId(), row, table.name(), handover.intAt(at + Message.ROW_ENTRY));
                    continue;
                }
                // A replica held here becomes the owned copy, keeping the updates it has not synced yet.
                store.promote(row, values, 0);
                locations.put(table.id(), row, LocationCache.UNKNOWN);
                relocationsIn.increment();
                long key = key(table.id(), row);
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
        }
        send(out);
        refuse(refusals);
        node.routeAnswer(peer, handover);
    }

    // ---------------------------------------------------------------- intents, at the home

    /**
     * At the home: records the start or end of the origin's intent for the rows of {@code intent}
     * and tells the nodes concerned what to do about them ({@link HomeIntents}).
     */
    void onIntent(Message intent, Table table) {
        int origin = intent.origin();
        boolean ends = (intent.flags() & Message.FLAG_INTENT_ENDS) != 0;
        Technique technique = Technique.values()[intent.aux()];
        boolean accumulates = table.spec().updateRule().accumulates();
        long now = System.nanoTime();
        Outbound out = acquireOutbound();
        lock.lock();
        try {
            for (int i = 0; i < intent.count(); i++) {
                long row = intent.rowAt(intent.entry(i, Message.ROW_ENTRY));
                intents.onIntent(key(table.id(), row), origin, technique, ends, directory.owner(table.id(), row),
                        accumulates, now, (key, action, target) -> place(key, action, target, out));
            }
        } finally {
            lock.unlock();
        }
        send(out);
    }

    /** At the home: sends the relocations that waited for other nodes' intents and are due. */
    void releaseDeferredIntents(long now) {
        Outbound out = acquireOutbound();
        lock.lock();
        try {
            if (intents.hasDeferred()) {
                intents.releaseDue(now, key -> directory.owner((int) (key >>> 32), key & 0xFFFF_FFFFL),
                        (key, action, target) -> place(key, action, target, out));
            }
        } finally {
            lock.unlock();
        }
        send(out);
    }

    /** Tells {@code target} to move the row of {@code key} to itself or to replicate it; under the lock. */
    private void place(long key, int action, int target, Outbound out) {
        int table = (int) (key >>> 32);
        long row = key & 0xFFFF_FFFFL;
        int flags = action == HomeIntents.RELOCATE ? Message.FLAG_RELOCATE : Message.FLAG_REPLICATE;
        int at = out.entry(target, MessageType.PLACEMENT, flags, table, 0, node.nodeId(), 0, Message.ROW_ENTRY);
        at = Message.writeRow(out.buffer(target), at, row);
        Message.writeInt(out.buffer(target), at, directory.owner(table, row));
    }

    private Outbound acquireOutbound() {
        Outbound out = outbounds.get().poll();
        return out != null ? out : new Outbound(node.clusterSize(), node.config().maxMessageBytes());
    }

    /** Sends what {@code out} holds and returns it to the calling thread's pool, whatever happens. */
    private void send(Outbound out) {
        try {
            out.flush(node);
        } finally {
            outbounds.get().push(out);
        }
    }

    /** Sends the refusals, one per request (the first problem is enough to fail it). */
    private void refuse(List<Refusal> refusals) {
        Refusal previous = null;
        for (Refusal refusal : refusals) {
            if (previous == null || previous.peer != refusal.peer || previous.requestId != refusal.requestId) {
                node.sendError(refusal.peer, refusal.requestId, refusal.failedPeer, refusal.text);
            }
            previous = refusal;
        }
    }
}
