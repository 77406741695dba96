package io.adaps.placement;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.context.NodeContext;
import io.adaps.intent.ActionWindow;
import io.adaps.intent.IntentQueue;
import io.adaps.intent.IntentSink;
import io.adaps.intent.IntentTracker;
import io.adaps.keys.RowKey;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.store.SlotKind;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The manager's intent duty: drains the workers' intent queues into the {@link IntentTracker},
 * advances it by the workers' clocks and the {@link ActionWindow}, lets lingering and released keys
 * go (their replicas are dropped by the next round) and tells the keys' homes which keys were let
 * go, which became active (with their intents' clocks) and which released keys are still in use
 * where the next node starts (INTENT messages, batched per home and table; this node's own keys
 * go to its {@link HomePlacement} directly). Intents whose keys all belong
 * to tables read in batches ({@link ReadBatching}) are not tracked at all: their keys stay where
 * they are; intents of tables whose read rates are not known yet wait in {@link HeldIntents} until
 * they are. Also registers and retires the workers that signal intent: a retired worker's intents
 * are dropped and its id and queue are kept for the next worker that gets the id.
 *
 * <p>Manager thread, except {@link #register} and {@link #retire} (worker threads).
 */
final class IntentAgent implements Agent {
    /** The most workers of one node that may signal intent at once. */
    static final int MAX_SIGNALLING_WORKERS = 256;
    /** Bytes of each worker's intent queue. */
    private static final int QUEUE_BYTES = 1 << 20;
    /** What a key let go needs where the node holds no replicas: nothing. */
    private static final LongConsumer NOTHING = key -> { };

    /** A worker that signals intent: its queue, clock, and the sink that passes its intents to the tracker. */
    private record Signalling(int id, IntentQueue queue, LongSupplier clock, IntentSink sink) {
    }

    /** A worker's request to be retired; {@code done} once the manager has dropped its intents. */
    static final class Retirement {
        final int id;
        volatile boolean done;

        Retirement(int id) {
            this.id = id;
        }
    }

    private final NodeContext context;
    private final NanoClock clock;
    private final Technique technique;
    private final IntentTracker tracker;
    private final ActionWindow window;
    private final ActiveKeys active;
    private final ReplicaSync sync;
    private final ReadBatching batching;
    private final HeldIntents held = new HeldIntents();
    private final HeldIntents.Placer placer = this::place;
    private final AtomicReferenceArray<IntentQueue> queues = new AtomicReferenceArray<>(MAX_SIGNALLING_WORKERS);
    private final Queue<Signalling> registrations = new ConcurrentLinkedQueue<>();
    private final Queue<Retirement> retirements = new ConcurrentLinkedQueue<>();
    private final Signalling[] signalling = new Signalling[MAX_SIGNALLING_WORKERS];
    private final IntArrayList registered = new IntArrayList();
    private final long[] clocks = new long[MAX_SIGNALLING_WORKERS];
    private final MessageBatcher out;
    /** This node's own keys of one announcement, decided on here without a message. */
    private final LongArrayList own = new LongArrayList();
    private final LongArrayList ownFrom = new LongArrayList();
    private final LongArrayList ownTo = new LongArrayList();
    private final HomePlacement home;
    private final IntentSink discard = (buffer, keysOffset, count, from, to) -> { };
    private final LongConsumer dropIfReplica;
    private final MessageBatcher.Sender sender;
    private volatile long windowClocks;

    /**
     * @param home     this node's decisions as a home, which hears this node's own intents directly
     * @param batching which tables are read in batches, measured by this duty, or {@code null} if
     *                 no table's keys are left in place
     */
    IntentAgent(NodeContext context, HomePlacement home, IntentTracker tracker, ActionWindow window, ActiveKeys active,
                ReplicaSync sync, ReadBatching batching) {
        this.context = context;
        this.home = home;
        this.clock = context.clock();
        this.technique = context.config().technique();
        this.tracker = tracker;
        this.window = window;
        this.active = active;
        this.sync = sync;
        this.batching = batching;
        this.out = new MessageBatcher(context.clusterSize(), context.config().maxMessageBytes());
        this.sender = context.peers()::sendQuietly;
        this.dropIfReplica = key -> {
            if (context.store(RowKey.table(key)).kind(RowKey.row(key)) == SlotKind.REPLICA) {
                sync.drop(key);
            }
        };
    }

    /**
     * Registers worker {@code id}, whose clock {@code clock} reads, as signalling intent; returns the
     * queue it offers its intents to. Worker thread.
     *
     * @throws IllegalStateException if {@code id} is not below {@value #MAX_SIGNALLING_WORKERS}
     */
    IntentQueue register(int id, LongSupplier clock) {
        if (id >= MAX_SIGNALLING_WORKERS) {
            throw new IllegalStateException("worker=" + id + " (expected fewer than " + MAX_SIGNALLING_WORKERS
                    + " workers signalling intent per node at once; close workers that are done)");
        }
        IntentQueue queue = queues.get(id);
        if (queue == null) {
            queue = new IntentQueue(QUEUE_BYTES);
            queues.set(id, queue);
        }
        registrations.add(new Signalling(id, queue, clock,
                (buffer, keysOffset, count, from, to) -> {
                    if (!place(id, buffer, keysOffset, count, from, to)
                            && !held.hold(id, buffer, keysOffset, count, from, to)) {
                        tracker.add(id, buffer, keysOffset, count, from, to); // too many held: placed as intended
                    }
                }));
        return queue;
    }

    /**
     * Tracks worker {@code id}'s intent, or leaves it alone if its tables are read in batches:
     * {@code true}; {@code false} (nothing done) if it waits until their read rates are known.
     */
    private boolean place(int id, DirectBuffer buffer, int keysOffset, int count, long from, long to) {
        int placement = batching == null ? ReadBatching.TRACK : batching.placement(buffer, keysOffset, count);
        if (placement == ReadBatching.HOLD) {
            return false;
        }
        if (placement == ReadBatching.TRACK) {
            tracker.add(id, buffer, keysOffset, count, from, to);
        }
        return true;
    }

    /** Asks the manager to retire worker {@code id}; the returned request is done once it has. Worker thread. */
    Retirement retire(int id) {
        Retirement retirement = new Retirement(id);
        retirements.add(retirement);
        return retirement;
    }

    /** The current action window in clocks (any thread). */
    long windowClocks() {
        return windowClocks;
    }

    @Override
    public int doWork() {
        long now = clock.nanoTime();
        home.ownIntentsSeen(now); // once drained below; the home's duty comes next in the cycle
        int work = admit();
        // Rates first: an intent drained below is placed by what is known now, and the held ones
        // whose tables' rates became known go before it.
        if (batching != null && batching.update(now) && !held.isEmpty()) {
            work += held.replay(placer);
        }
        for (int i = 0; i < registered.size(); i++) {
            Signalling worker = signalling[registered.getInt(i)];
            work += worker.queue.drain(worker.sink, Integer.MAX_VALUE);
            clocks[worker.id] = worker.clock.getAsLong();
        }
        window.onClock(now, clocks);
        windowClocks = window.clocks();
        active.lingerUntil(now + lingerNanos());
        long slowest = slowestClock();
        active.advancingTo(slowest);
        tracker.advance(clocks, windowClocks, active);
        active.checkOverlaps(slowest);
        active.letGo(now, sync.replicasHeld() > 0 ? dropIfReplica : NOTHING);
        // Ends first: a key may end one use and start the next in one cycle, and its home must hear them in that order.
        work += announce(active.ended, null, null, Message.FLAG_INTENT_ENDS);
        work += announce(active.started, active.startedFrom, active.startedTo, 0);
        work += announce(active.overlapping, active.overlappingAt, null, Message.FLAG_INTENT_OVERLAPS);
        return work;
    }

    @Override
    public String roleName() {
        return "intents";
    }

    /**
     * Nanoseconds from {@code now} until this duty has work that no wake-up brings: a released key
     * to let go (0: a release is carried out by the placement duty, after this one in the cycle),
     * or the first lingering key; {@code Long.MAX_VALUE} for none.
     */
    long untilDue(long now) {
        long due = active.nextLetGo();
        return due == Long.MAX_VALUE ? Long.MAX_VALUE : due == Long.MIN_VALUE ? 0 : Math.max(0, due - now);
    }

    /** Takes in new workers and retires leaving ones; returns how many. */
    private int admit() {
        int work = 0;
        for (Signalling worker; (worker = registrations.poll()) != null; work++) {
            signalling[worker.id] = worker;
            registered.add(worker.id);
        }
        for (Retirement retirement; (retirement = retirements.poll()) != null; work++) {
            int id = retirement.id;
            Signalling worker = signalling[id];
            if (worker != null) {
                worker.queue.drain(discard, Integer.MAX_VALUE);
                held.drop(id);
                tracker.removeWorker(id, active);
                window.forget(id);
                clocks[id] = 0;
                signalling[id] = null;
                registered.rem(id);
            }
            retirement.done = true;
        }
        return work;
    }

    /**
     * How long a key lingers after its intent ended: two action windows of the workers' clocks,
     * within [{@value AdaptiveManager#MIN_LINGER_MILLIS} ms, {@value AdaptiveManager#MAX_LINGER_MILLIS} ms].
     */
    private long lingerNanos() {
        double clocksPerSecond = window.clocksPerSecond();
        double nanos = clocksPerSecond > 0 ? 2e9 * windowClocks / clocksPerSecond : 0;
        return (long) Math.min(Math.max(nanos, AdaptiveManager.MIN_LINGER_MILLIS * 1e6),
                AdaptiveManager.MAX_LINGER_MILLIS * 1e6);
    }

    /**
     * The clock of this node's slowest worker that signals intent: once it is at a clock, every
     * intent still active on a key extends past it, whichever worker signalled it (a faster
     * worker's clock would take a slower one's intent that is about to end for an overlap).
     */
    private long slowestClock() {
        long slowest = Long.MAX_VALUE;
        for (int i = 0; i < registered.size(); i++) {
            slowest = Math.min(slowest, clocks[registered.getInt(i)]);
        }
        return slowest == Long.MAX_VALUE ? Long.MIN_VALUE : slowest;
    }

    /**
     * Sends the keys' homes INTENT messages with {@code flags}, batched per home and table, with
     * each key's clocks from {@code from} and {@code to} (a start's intent clocks, an overlap's
     * release clock in {@code from}), 0 where a list is {@code null}; returns how many keys.
     */
    private int announce(LongArrayList keys, LongArrayList from, LongArrayList to, int flags) {
        int count = keys.size();
        if (count == 0) {
            return 0;
        }
        int entryLength = MessageType.INTENT.entryLength(0, 0);
        int self = context.nodeId();
        for (int i = 0; i < count; i++) {
            long key = keys.getLong(i);
            Table table = context.table(RowKey.table(key));
            long row = RowKey.row(key);
            int home = context.home(table, row);
            if (home == self) {
                own.add(key);
                ownFrom.add(from == null ? 0 : from.getLong(i));
                ownTo.add(to == null ? 0 : to.getLong(i));
                continue;
            }
            int at = out.entry(home, MessageType.INTENT, flags, table.id(), 0, self, technique.ordinal(), entryLength);
            MutableDirectBuffer buffer = out.buffer(home);
            at = Message.writeRow(buffer, at, row);
            at = Message.writeInt(buffer, at, i);
            at = Message.writeClock(buffer, at, from == null ? 0 : from.getLong(i));
            Message.writeClock(buffer, at, to == null ? 0 : to.getLong(i));
        }
        keys.clear();
        if (from != null) {
            from.clear();
        }
        if (to != null) {
            to.clear();
        }
        out.flush(sender);
        if (!own.isEmpty()) {
            home.onOwnIntents(own, ownFrom, ownTo, flags, technique);
            own.clear();
            ownFrom.clear();
            ownTo.clear();
        }
        return count;
    }
}
