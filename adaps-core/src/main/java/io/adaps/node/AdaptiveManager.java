package io.adaps.node;

import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.intent.ActionWindow;
import io.adaps.intent.IntentQueue;
import io.adaps.intent.IntentSink;
import io.adaps.intent.IntentTracker;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.sampling.SamplePool;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The adaptive manager of one node: a background thread that turns its workers' intents into
 * parameter placement and keeps its replicas synchronized (AdaPM: Renz-Wieland, Kieslinger,
 * Gericke, Gemulla, Kaoudi, Markl, "Good Intentions: Adaptive Parameter Servers via Intent
 * Signaling").
 *
 * <h2>Algorithm</h2>
 * <ol>
 *   <li>Workers put their intents ({@code keys, [fromClock, toClock)}) into their own bounded
 *       single-producer queue ({@link IntentQueue}): no network, no lock, no allocation on the
 *       worker's path.</li>
 *   <li>Each step, the manager drains the queues into an {@link IntentTracker}, which activates an
 *       intent once its start is within the action window ahead of its worker's clock and expires
 *       it when the worker's clock passes its end. A key is active on this node while it has an
 *       active intent.</li>
 *   <li>When a key becomes active, the manager tells the key's home; when it becomes inactive,
 *       too (INTENT messages, batched), but only after it has lingered inactive for two action
 *       windows, and at least {@value #MIN_LINGER_MILLIS} ms (at most {@value #MAX_LINGER_MILLIS}
 *       ms). Keys used in every other mini-batch (the tail of a skewed distribution), or again
 *       after a pause (an evaluation between epochs), would otherwise be replicated, dropped and
 *       moved over and over, and every new replica stalls its first read for a round; an idle
 *       replica costs only its version in each round (the owner answers UNCHANGED). The home knows which nodes have intent, and decides with
 *       the rule of {@link io.adaps.intent.HomeIntents}: intent on exactly one node: relocate the
 *       key there; concurrent intent on several: replicate it there; none: leave it. It answers
 *       with PLACEMENT messages, which the manager carries out: a relocation is an ordinary
 *       localize ({@link Relocator}), a replica is fetched from the owner and installed.</li>
 *   <li>Replicas are synchronized in rounds ({@link ReplicaSync}) while replicas exist, at once
 *       when a worker waits in {@link io.adaps.api.Worker#waitSync()}, and otherwise paced so that
 *       rounds take at most a quarter of the manager thread's time ({@link #SYNC_SHARE}), and at
 *       least {@value #ROUND_INTERVAL_MICROS} microseconds apart: on a machine whose cores the
 *       training threads need, synchronization must not starve them. A replica whose key was let
 *       go is flushed and dropped at the end of the next round.</li>
 * </ol>
 * Sampling pools ({@link io.adaps.sampling.SamplePool}, scheme
 * {@link io.adaps.api.SamplingScheme#POOL}) are refilled here, in the background, when a worker
 * finds the next generation missing and wakes the manager. Under a technique that signals intent,
 * the node keeps intent on every key of its pools' two current generations: such a key is active
 * as if a worker had an open-ended intent for it (a count per key, beside the tracker's), so it is
 * placed like any other active key, and it lingers and is let go like one when it leaves the pool.
 * A generation's keys thus get placed while the previous generation is handed out.
 *
 * <p>The action window ({@link ActionWindow}) is estimated online from how fast the workers' clocks
 * advance and how long rounds take: an action started when an intent enters the window is done
 * before the worker gets there, and intents far in the future hold nothing yet.
 *
 * <h2>Threads</h2>
 * The manager thread does everything above and is the only user of its remote half (answers are
 * routed to it as to a worker with id {@link #WORKER_ID}). Transport threads only hand it
 * PLACEMENT messages ({@link #onPlacement}); workers only fill their queues and wait for rounds.
 * When there is nothing to do it parks, for {@value #IDLE_PARK_MILLIS} ms at most.
 */
final class AdaptiveManager implements IntentTracker.Listener {
    /** The worker id that answers to the manager's requests carry. */
    static final int WORKER_ID = 0xFFFF;
    static final int ROUND_INTERVAL_MICROS = 1000;
    /** The largest share of the manager thread's time that synchronization rounds take. */
    static final double SYNC_SHARE = 0.25;
    static final int MIN_LINGER_MILLIS = 1000;
    static final int MAX_LINGER_MILLIS = 5000;
    private static final int IDLE_PARK_MILLIS = 20;
    /** The most workers of one node that may signal intent. */
    static final int MAX_SIGNALLING_WORKERS = 256;
    /** Bytes of each worker's intent queue. */
    private static final int QUEUE_BYTES = 1 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveManager.class);

    private final Node node;
    private final TableStore[] stores;
    private final Technique technique;
    private final Thread thread;
    /** Workers that signalled intent, with the sinks that add their intents to the tracker. */
    private final CopyOnWriteArrayList<Signalling> signalling = new CopyOnWriteArrayList<>();
    private final IntentTracker tracker;
    private final ActionWindow window = new ActionWindow(MAX_SIGNALLING_WORKERS);
    private volatile long windowClocks;
    private final ReplicaSync sync;
    /**
     * Keys whose intent ended, in the order it did, with the time they are let go: while a key
     * lingers, its home still counts this node's intent and its replica stays (see the class
     * comment).
     */
    private final Long2LongLinkedOpenHashMap lingering = new Long2LongLinkedOpenHashMap();
    /** Keys whose intent started or ended since the last step; manager thread. */
    private final LongArrayList started = new LongArrayList();
    private final LongArrayList ended = new LongArrayList();
    /** PLACEMENT entries received: key, action (in the key's order), owner. Guarded by itself. */
    private final LongArrayList placedKeys = new LongArrayList();
    private final IntArrayList placedActions = new IntArrayList();
    private final IntArrayList placedOwners = new IntArrayList();
    private final LongArrayList relocate = new LongArrayList();
    private final LongArrayList replicate = new LongArrayList();
    private final LongArrayList localizeTickets = new LongArrayList();
    private final long[] clocks = new long[MAX_SIGNALLING_WORKERS];
    private long[] ids = new long[64];
    private final LongArrayList fetching = new LongArrayList();
    private final Outbound out;
    /** The manager's remote half; answers reach it through {@link Node#routeAnswer} on transport threads. */
    private final RemoteOperations remote;
    private long tickets;
    private long nextRound;
    private long lingerUntil;
    private volatile boolean running = true;
    /** Per table: its sampling pool, or {@code null}. */
    private final SamplePool[] pools;
    /** Per table: what hears a pool's keys come and go (intent, or nothing). */
    private final SamplePool.Listener[] poolListeners;
    /** Keys that are entries of this node's pools, with their number of entries; manager thread. */
    private final Long2IntOpenHashMap poolEntries = new Long2IntOpenHashMap();
    final LongAdder replicasCreated = new LongAdder();
    final LongAdder relocations = new LongAdder();

    AdaptiveManager(Node node, TableStore[] stores) {
        this.node = node;
        this.stores = stores;
        this.technique = node.config().technique();
        this.tracker = new IntentTracker(MAX_SIGNALLING_WORKERS);
        this.sync = new ReplicaSync(node, stores, () -> ++tickets);
        this.out = new Outbound(node.clusterSize(), node.config().maxMessageBytes());
        this.thread = new Thread(this::run, "adaps-manager-" + node.nodeId());
        this.thread.setDaemon(true);
        this.remote = new RemoteOperations(node, WORKER_ID, thread);
        this.pools = node.samplePools();
        this.poolListeners = new SamplePool.Listener[pools.length];
        for (int table = 0; table < pools.length; table++) {
            if (pools[table] != null) {
                PoolIntent listener = technique.signalsIntent() ? new PoolIntent(table) : null;
                poolListeners[table] = listener != null ? listener : SamplePool.IGNORE;
                if (listener != null) {
                    // The first two generations were drawn with the node; no worker runs yet.
                    pools[table].forEachEntry(listener::entered);
                }
            }
        }
    }

    /** Keeps this node's intent on a pool's entries: a key is active while it is an entry. */
    private final class PoolIntent implements SamplePool.Listener {
        private final long table;

        PoolIntent(int table) {
            this.table = (long) table << 32;
        }

        @Override
        public void entered(long row) {
            long key = table | row;
            if (poolEntries.addTo(key, 1) == 0 && !tracker.isActive(key)) {
                becameActive(key);
            }
        }

        @Override
        public void left(long row) {
            long key = table | row;
            int entries = poolEntries.addTo(key, -1);
            if (entries == 1) {
                poolEntries.remove(key);
                if (!tracker.isActive(key)) {
                    becameInactive(key);
                }
            }
        }
    }

    void start() {
        thread.start();
    }

    /** Stops the thread, waiting for its current step up to {@code timeoutMillis}. */
    void close(long timeoutMillis) {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The queue for {@code worker}'s intents, created on its first intent. */
    IntentQueue register(NodeWorker worker) {
        if (worker.id() >= MAX_SIGNALLING_WORKERS) {
            throw new IllegalStateException("worker=" + worker.id() + " (expected fewer than " + MAX_SIGNALLING_WORKERS
                    + " workers signalling intent per node)");
        }
        IntentQueue queue = new IntentQueue(QUEUE_BYTES);
        int id = worker.id();
        signalling.add(new Signalling(worker, queue,
                (buffer, keysOffset, count, from, to) -> tracker.add(id, buffer, keysOffset, count, from, to)));
        return queue;
    }

    private record Signalling(NodeWorker worker, IntentQueue queue, IntentSink sink) {
    }

    /** Wakes the manager: a worker's queue is full or it waits for a round. */
    void wake() {
        LockSupport.unpark(thread);
    }

    ReplicaSync sync() {
        return sync;
    }

    /** The current action window in clocks (any thread). */
    long windowClocks() {
        return windowClocks;
    }

    /**
     * Waits until a round that started after this call has completed (see {@link ReplicaSync}).
     *
     * @throws ClusterException if that round failed, or none completed within the operation timeout
     */
    void awaitRound() {
        long round = sync.request();
        wake();
        long timeout = node.config().operationTimeout().toNanos() * 2;
        long deadline = System.nanoTime() + timeout;
        long park = 10_000;
        while (!sync.isComplete(round)) {
            node.checkOpen();
            if (System.nanoTime() - deadline > 0) {
                throw new ClusterException("node " + node.nodeId() + ": synchronization round " + round
                        + " did not complete within " + node.config().operationTimeout().multipliedBy(2));
            }
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, TimeUnit.MILLISECONDS.toNanos(1));
        }
        sync.checkFailure(round);
    }

    /** A PLACEMENT from a home: remembered for the manager thread. Transport threads. */
    void onPlacement(Message placement) {
        int action = (placement.flags() & Message.FLAG_RELOCATE) != 0 ? Message.FLAG_RELOCATE : Message.FLAG_REPLICATE;
        long table = (long) placement.table() << 32;
        synchronized (placedKeys) {
            for (int i = 0; i < placement.count(); i++) {
                int at = placement.entry(i, Message.ROW_ENTRY);
                placedKeys.add(table | placement.rowAt(at));
                placedActions.add(action);
                placedOwners.add(placement.intAt(at + Message.ROW_LENGTH));
            }
        }
        wake();
    }

    // ---------------------------------------------------------------- the thread

    private void run() {
        while (running) {
            try {
                boolean active = step();
                if (running && !sync.requestedNow()) {
                    LockSupport.parkNanos(this, active ? TimeUnit.MICROSECONDS.toNanos(ROUND_INTERVAL_MICROS)
                            : TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS));
                }
            } catch (ClusterException e) {
                LOG.warn("node {}: adaptive manager: {}", node.nodeId(), e.getMessage());
            } catch (IllegalStateException e) {
                if (running && !node.isClosed()) {
                    LOG.error("node {}: adaptive manager failed a step", node.nodeId(), e);
                }
            }
        }
    }

    /** One step; whether anything is going on (intents, replicas, placements). */
    private boolean step() {
        long now = System.nanoTime();
        drainIntents();
        readClocks(now);
        lingerUntil = now + lingerNanos();
        tracker.advance(clocks, windowClocks, this);
        refillPools();
        letGo(now);
        announce(started, 0);
        announce(ended, Message.FLAG_INTENT_ENDS);
        node.relocator().releaseDeferredIntents(now);
        applyPlacements();
        observeLocalizes();
        if (sync.due() && (sync.requestedNow() || now - nextRound >= 0)) {
            long duration = sync.run(remote, this::wanted);
            window.onRound(duration);
            // Rounds take at most SYNC_SHARE of this thread's time, so that on a busy machine
            // synchronization does not starve the training threads.
            nextRound = System.nanoTime() + Math.max(TimeUnit.MICROSECONDS.toNanos(ROUND_INTERVAL_MICROS),
                    (long) (duration * (1 - SYNC_SHARE) / SYNC_SHARE));
        }
        return tracker.activeKeys() > 0 || tracker.pendingIntents() > 0 || !lingering.isEmpty()
                || sync.replicasHeld() > 0;
    }

    private void drainIntents() {
        for (Signalling worker : signalling) {
            worker.queue.drain(worker.sink, Integer.MAX_VALUE);
        }
    }

    private void readClocks(long now) {
        for (Signalling worker : signalling) {
            clocks[worker.worker.id()] = worker.worker.clockForManager();
        }
        window.onClock(now, clocks);
        windowClocks = window.clocks();
    }

    @Override
    public void onActive(long key) {
        if (!poolEntries.containsKey(key)) {
            becameActive(key);
        }
    }

    @Override
    public void onInactive(long key) {
        if (!poolEntries.containsKey(key)) {
            becameInactive(key);
        }
    }

    /** {@code key} has its first reason to be here: a worker's active intent or a pool entry. */
    private void becameActive(long key) {
        if (lingering.containsKey(key)) {
            lingering.remove(key); // never let go: nothing to announce
        } else {
            started.add(key);
        }
    }

    /** {@code key} has no reason left to be here; it lingers before it is let go. */
    private void becameInactive(long key) {
        lingering.put(key, lingerUntil);
    }

    /** Whether a worker's intent or a pool entry holds {@code key} now. */
    private boolean isActive(long key) {
        return tracker.isActive(key) || poolEntries.containsKey(key);
    }

    /** Draws the next generation of every pool that needs one (a worker woke us for it). */
    private void refillPools() {
        for (int table = 0; table < pools.length; table++) {
            SamplePool pool = pools[table];
            if (pool != null && pool.needsRefill()) {
                try {
                    // At most two: the generation in use (if it was late) and the next one.
                    if (pool.refill(poolListeners[table])) {
                        pool.refill(poolListeners[table]);
                    }
                } catch (IllegalStateException e) {
                    // A distribution that drew outside its table: the workers' fallback draws
                    // refuse the sample with the same error; the manager's other work goes on.
                    LOG.warn("node {}: sampling pool of table {} not refilled: {}", node.nodeId(), table, e.getMessage());
                }
            }
        }
    }

    /** Lets go of the keys that lingered long enough: their homes hear the end, their replicas go. */
    private void letGo(long now) {
        while (!lingering.isEmpty() && lingering.get(lingering.firstLongKey()) - now <= 0) {
            long key = lingering.firstLongKey();
            lingering.remove(key);
            ended.add(key);
            if (stores[(int) (key >>> 32)].kind(key & 0xFFFF_FFFFL) == SlotKind.REPLICA) {
                sync.drop(key);
            }
        }
    }

    /** Whether this node still has intent for {@code key}: active, or lingering. */
    private boolean wanted(long key) {
        return isActive(key) || lingering.containsKey(key);
    }

    /**
     * How long a key lingers after its intent ended: two action windows of the workers' clocks,
     * within [{@value #MIN_LINGER_MILLIS} ms, {@value #MAX_LINGER_MILLIS} ms] (see the class comment).
     */
    private long lingerNanos() {
        double clocksPerSecond = window.clocksPerSecond();
        double nanos = clocksPerSecond > 0 ? 2e9 * windowClocks / clocksPerSecond : 0;
        return (long) Math.min(Math.max(nanos, MIN_LINGER_MILLIS * 1e6), MAX_LINGER_MILLIS * 1e6);
    }

    /** Sends the keys' homes INTENT messages with {@code flags}, batched per home and table. */
    private void announce(LongArrayList keys, int flags) {
        if (keys.isEmpty()) {
            return;
        }
        for (int i = 0; i < keys.size(); i++) {
            long key = keys.getLong(i);
            Table table = node.tables().get((int) (key >>> 32));
            long row = key & 0xFFFF_FFFFL;
            int home = node.home(table, row);
            int at = out.entry(home, MessageType.INTENT, flags, table.id(), 0, node.nodeId(), technique.ordinal(),
                    Message.ROW_ENTRY);
            at = Message.writeRow(out.buffer(home), at, row);
            Message.writeInt(out.buffer(home), at, i);
        }
        keys.clear();
        out.flush(node);
    }

    /** Carries out the placements received since the last step, for keys that are still active. */
    private void applyPlacements() {
        relocate.clear();
        replicate.clear();
        synchronized (placedKeys) {
            for (int i = 0; i < placedKeys.size(); i++) {
                long key = placedKeys.getLong(i);
                if (!isActive(key)) {
                    continue; // the intent ended meanwhile: nothing is worth moving for it
                }
                if (placedActions.getInt(i) == Message.FLAG_RELOCATE) {
                    relocate.add(key);
                } else {
                    replicate.add(key);
                    int owner = placedOwners.getInt(i);
                    if (owner != node.nodeId()) {
                        // The first synchronization of the replica goes straight to the owner.
                        node.locations().put((int) (key >>> 32), key & 0xFFFF_FFFFL, owner);
                    }
                }
            }
            placedKeys.clear();
            placedActions.clear();
            placedOwners.clear();
        }
        if (!relocate.isEmpty()) {
            localize();
        }
        if (!replicate.isEmpty()) {
            createReplicas();
        }
    }

    /** Moves the keys in {@link #relocate} here, without waiting for them. */
    private void localize() {
        remote.begin(Operation.LOCALIZE);
        long ticket = ++tickets;
        for (int i = 0; i < relocate.size(); ) {
            int table = (int) (relocate.getLong(i) >>> 32);
            int n = 0;
            while (i + n < relocate.size() && (int) (relocate.getLong(i + n) >>> 32) == table) {
                ids(n)[n] = relocate.getLong(i + n) & 0xFFFF_FFFFL;
                n++;
            }
            node.relocator().claim(node.tables().get(table), ids, 0, n, null, remote, WORKER_ID, ticket, true);
            i += n;
        }
        if (remote.hasRows()) {
            relocations.add(relocate.size());
            remote.send(ticket, null);
            localizeTickets.add(ticket);
        }
    }

    private long[] ids(int n) {
        if (ids.length <= n) {
            ids = java.util.Arrays.copyOf(ids, ids.length * 2);
        }
        return ids;
    }

    /** Reports localizes that failed (their rows are given up); the others need nothing. */
    private void observeLocalizes() {
        for (int i = localizeTickets.size() - 1; i >= 0; i--) {
            long ticket = localizeTickets.getLong(i);
            if (remote.isDone(ticket)) {
                localizeTickets.removeLong(i);
                try {
                    remote.awaitTicket(ticket);
                } catch (ClusterException e) {
                    LOG.warn("node {}: a relocation the manager asked for failed: {}", node.nodeId(), e.getMessage());
                }
            }
        }
    }

    /**
     * Creates replicas of the keys in {@link #replicate}. A new replica is pending: workers push to
     * it at once (their updates accumulate in its delta), but read it only after its first
     * refresh, which the round run right after fetches. That round starts only once every push
     * this node's workers sent for the keys before the replicas existed has been applied at the
     * owners ({@link InFlightPushes}), so the fetched value includes them: a worker reads its own
     * writes across the change from remote to local.
     */
    private void createReplicas() {
        fetching.clear();
        for (int i = 0; i < replicate.size(); i++) {
            long key = replicate.getLong(i);
            if (stores[(int) (key >>> 32)].tryInstallPendingReplica(key & 0xFFFF_FFFFL)) {
                fetching.add(key);
                replicasCreated.increment();
            }
        }
        if (fetching.isEmpty()) {
            return;
        }
        VarHandle.fullFence(); // the replicas are visible before the in-flight counts are read
        InFlightPushes inFlight = node.inFlightPushes();
        long deadline = System.nanoTime() + node.config().operationTimeout().toNanos();
        while (inFlight != null && inFlight.anyOf(fetching) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(20_000);
        }
        sync.request();
    }

    /** Handles messages the manager's own requests caused; see {@link Node#routeAnswer}. */
    RemoteOperations remote() {
        return remote;
    }
}
