package io.adaps.placement;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.Technique;
import io.adaps.consistency.ClusterClocks;
import io.adaps.context.NodeContext;
import io.adaps.intent.ActionWindow;
import io.adaps.intent.IntentQueue;
import io.adaps.intent.IntentTracker;
import io.adaps.protocol.Message;
import io.adaps.relocation.Relocator;
import io.adaps.rpc.CallRegistry;
import io.adaps.rpc.InFlightPushes;
import io.adaps.rpc.Requester;
import io.adaps.sampling.SamplePool;
import io.adaps.util.BoundedWait;

/**
 * The adaptive manager of one node: one background thread that turns its workers' intents into
 * parameter placement and keeps its replicas synchronized (AdaPM: Renz-Wieland, Kieslinger,
 * Gericke, Gemulla, Kaoudi, Markl, "Good Intentions: Adaptive Parameter Servers via Intent
 * Signaling").
 *
 * <h2>Algorithm</h2>
 * <ol>
 *   <li>Workers put their intents ({@code keys, [fromClock, toClock)}) into their own bounded
 *       single-producer queue ({@link IntentQueue}): no network, no lock, no allocation on the
 *       worker's path.</li>
 *   <li>The manager drains the queues into an {@link IntentTracker}, which activates an intent once
 *       its start is within the action window ahead of its worker's clock and expires it when the
 *       worker's clock passes its end ({@link IntentAgent}). A key is active on this node while it
 *       has an active intent or is an entry of a sampling pool ({@link ActiveKeys}).</li>
 *   <li>When a key becomes active, the manager tells the key's home; when it becomes inactive,
 *       too (INTENT messages, batched), but only after it has lingered inactive for two action
 *       windows, and at least {@value #MIN_LINGER_MILLIS} ms (at most {@value #MAX_LINGER_MILLIS}
 *       ms). Keys used in every other mini-batch (the tail of a skewed distribution), or again
 *       after a pause (an evaluation between epochs), would otherwise be replicated, dropped and
 *       moved over and over, and every new replica stalls its first read for its fetch; an idle
 *       replica costs only its version in each round (the owner answers UNCHANGED without
 *       copying). Keys of tables that this node's workers read in batches, a few calls per
 *       clock, are not tracked at all: placing them would save at most the round trip of each
 *       batch and cost every key its relocation or replica ({@link ReadBatching}). The home knows
 *       which nodes have intent, for which clocks, and decides with the rule of
 *       {@link io.adaps.intent.HomeIntents} ({@link HomePlacement}): intent on exactly one node:
 *       relocate the key there; concurrent intent on several: replicate it there; intents one
 *       after the other: hand the key from node to node (the node that has it releases it as its
 *       intent ends, without lingering); none: leave it. It answers with PLACEMENT messages, which
 *       the manager carries out ({@link PlacementAgent}).</li>
 *   <li>Replicas are synchronized in rounds ({@link ReplicaSync}, {@link SyncAgent}) while
 *       replicas exist, at once when a worker waits in {@link io.adaps.api.Worker#waitSync()}, and
 *       otherwise paced so that rounds take at most a quarter of the manager thread's time
 *       ({@link #SYNC_SHARE}), and at least {@value #ROUND_INTERVAL_MICROS} microseconds apart
 *       (under an eager model, rounds follow the node's workers' clocks, one per half the
 *       staleness bound, and a paced one runs only after {@value #EAGER_ROUND_INTERVAL_MILLIS} ms
 *       per such clock without a round). A
 *       replica whose key was let go is flushed and dropped at the end of the next round.</li>
 *   <li>Sampling pools are refilled in the background ({@link PoolAgent}).</li>
 * </ol>
 * The action window ({@link ActionWindow}) is estimated online from how fast the workers' clocks
 * advance and how long rounds take: an action started when an intent enters the window is done
 * before the worker gets there, and intents far in the future hold nothing yet.
 *
 * <h2>Threads</h2>
 * The duties are Agrona agents run in this order by one {@link AgentRunner} on the thread
 * {@code adaps-manager-<node>}: pools, intents, home decisions, placements, synchronization. It is
 * the only user of its {@link Requester} (answers reach it as those of worker
 * {@link CallRegistry#MANAGER}). Between duty cycles it parks: until the next paced round is due
 * while replicas exist, for {@value #ROUND_INTERVAL_MICROS} us while intents do, else up to
 * {@value #IDLE_PARK_MILLIS} ms; workers (advancing their clocks, waiting for a round, with a full
 * intent queue) and placements wake it. Timing reads the node's clock ({@link NodeContext#clock()}).
 */
public final class AdaptiveManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveManager.class);
    /** The least time between a round and a paced one, under every model but an eager one. */
    public static final int ROUND_INTERVAL_MICROS = 1000;
    /**
     * Under an eager model, the least time between a round and a paced one, per clock between
     * eager rounds ({@link #eagerRoundClocks}): its rounds follow the workers' clocks, and paced
     * ones are the fallback for clocks that stand still.
     */
    public static final int EAGER_ROUND_INTERVAL_MILLIS = 20;
    /** The most clocks between two eager rounds, whatever the bound ({@link #eagerRoundClocks}). */
    public static final int MAX_EAGER_ROUND_CLOCKS = 2;

    /**
     * Under an eager model whose strictest staleness bound is {@code bound}: how many clocks a
     * node's slowest worker advances between two rounds, half the bound (at least 1) and at most
     * {@value #MAX_EAGER_ROUND_CLOCKS}. A replica then reflects the owners well within the bound,
     * and a node runs half the rounds of one per clock under {@code essp:4} (issue 13: MF on two
     * pinned nodes ran 88-98 rounds per node instead of 153-173, its epochs took 0.21-0.22 s
     * instead of 0.25-0.26 s at the same test RMSE; every 3 or 4 clocks were no faster, and 1 as
     * slow as before). The cap: under {@code essp:16} half the bound was 8 clocks, more than an
     * epoch of the {@code mf} example on 4 nodes, whose replicas then followed their own node's
     * steps alone for that long, and the summed steps diverged (NaN by epoch 7-8); every 2 clocks
     * it learns as under {@code essp:4}, and on 2 nodes as fast as with 8.
     */
    public static int eagerRoundClocks(int bound) {
        return Math.max(1, Math.min(bound / 2, MAX_EAGER_ROUND_CLOCKS));
    }

    /** The largest share of the manager thread's time that synchronization rounds take. */
    static final double SYNC_SHARE = 0.25;
    static final int MIN_LINGER_MILLIS = 1000;
    static final int MAX_LINGER_MILLIS = 5000;
    private static final int IDLE_PARK_MILLIS = 20;

    private final NodeContext context;
    private final ReplicaSync sync;
    private final HomePlacement home;
    private final ReadBatching batching;
    private final IntentAgent intents;
    private final PlacementAgent placements;
    private final SyncAgent rounds;
    private final AgentRunner runner;
    private final BoundedWait wait;
    private long tickets;

    /**
     * The manager of the node of {@code context} (not started).
     *
     * @param home     the decisions at this node as a home, whose deferred ones the manager releases
     * @param inFlight this node's pushes on their way, or {@code null} if it creates no replicas on intent
     * @param pools    per table its sampling pool, or {@code null}
     */
    public AdaptiveManager(NodeContext context, ClusterClocks clocks, Relocator relocator, HomePlacement home,
                           CallRegistry calls, InFlightPushes inFlight, SamplePool[] pools) {
        this.context = context;
        this.home = home;
        IntentTracker tracker = new IntentTracker(IntentAgent.MAX_SIGNALLING_WORKERS);
        ActionWindow window = new ActionWindow(IntentAgent.MAX_SIGNALLING_WORKERS);
        // Only ADAPTIVE weighs placement against leaving keys be; the other techniques act on every intent.
        this.batching = context.config().technique() == Technique.ADAPTIVE ? new ReadBatching(context, clocks) : null;
        ActiveKeys active = new ActiveKeys(tracker);
        LongSupplier nextTicket = () -> ++tickets;
        Requester requester = new Requester(context, relocator, CallRegistry.MANAGER);
        calls.register(CallRegistry.MANAGER, requester);
        this.sync = new ReplicaSync(context, clocks, relocator, nextTicket);
        this.intents = new IntentAgent(context, home, tracker, window, active, sync, batching);
        this.placements = new PlacementAgent(context, relocator, requester, active, sync, inFlight, nextTicket);
        PoolAgent poolAgent = new PoolAgent(context.nodeId(), pools,
                context.config().technique().signalsIntent() ? active : null);
        this.rounds = new SyncAgent(sync, requester, window, context.clock(), active::wanted);
        // AgentRunner names its thread after the agent's role.
        CompositeAgent duties = new CompositeAgent(poolAgent, intents, home, placements, rounds) {
            @Override
            public String roleName() {
                return "adaps-manager-" + context.nodeId();
            }
        };
        this.runner = new AgentRunner(new ManagerIdle(), this::onError, null, duties);
        this.wait = BoundedWait.forPolling(context.clock());
        home.wakeOnDeferral(this::wake);
    }

    /** Starts the manager's thread. */
    public void start() {
        AgentRunner.startOnThread(runner, task -> {
            Thread thread = new Thread(task);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Stops the thread after its current duty cycle (which the node's closing cuts short). */
    @Override
    public void close() {
        runner.close((int) Math.min(Integer.MAX_VALUE, context.config().operationTimeout().toMillis()),
                thread -> LOG.warn("node {}: {} still runs; interrupting it", context.nodeId(), thread.getName()));
    }

    /**
     * Registers worker {@code id}, whose clock {@code clock} reads, as signalling intent; returns the
     * queue for its intents. Worker thread.
     *
     * @throws IllegalStateException if too many workers signal intent at once
     */
    public IntentQueue register(int id, LongSupplier clock) {
        IntentQueue queue = intents.register(id, clock);
        wake();
        return queue;
    }

    /**
     * Retires worker {@code id}, which registered: its intents are dropped (its keys linger and are
     * let go as usual) and its id may be registered again. Waits until the manager has done so,
     * bounded by the operation timeout. Worker thread.
     */
    public void retire(int id) {
        IntentAgent.Retirement retirement = intents.retire(id);
        wake();
        wait.start(context.config().operationTimeout().toNanos());
        while (!retirement.done && !runner.isClosed()) {
            if (!wait.idle()) {
                throw new ClusterException("node " + context.nodeId() + ": the adaptive manager did not retire worker "
                        + id + " within " + context.config().operationTimeout());
            }
            wake();
        }
    }

    /** Wakes the manager: a worker's queue is full, it waits for a round, or a pool needs a refill. */
    public void wake() {
        Thread thread = runner.thread();
        if (thread != null && thread != AgentRunner.TOMBSTONE) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Asks for a round that starts after this call, without waiting for it: a worker waits for
     * the watermark, which this node's replicas hold back, or for a fresher replica.
     */
    public void requestRound() {
        sync.request();
        wake();
    }

    /**
     * Waits until a round that started after this call has completed (see {@link ReplicaSync}).
     *
     * @throws ClusterException if that round failed, or none completed within twice the operation timeout
     */
    public void awaitRound() {
        long round = sync.request();
        wake();
        wait.start(context.config().operationTimeout().toNanos() * 2);
        while (!sync.isComplete(round)) {
            context.checkOpen();
            if (!wait.idle()) {
                throw new ClusterException("node " + context.nodeId() + ": synchronization round " + round
                        + " did not complete within " + context.config().operationTimeout().multipliedBy(2));
            }
        }
        sync.checkFailure(round);
    }

    /**
     * Stops carrying out placements (they wait until {@link #resumePlacements()}) and waits until
     * the manager thread has finished any it was carrying out: from then on this node starts no
     * relocation and no replica. Rounds go on. For checkpoints.
     *
     * @throws ClusterException if the manager did not pause within the operation timeout
     */
    public void pausePlacements() {
        placements.pause();
        wake();
        BoundedWait wait = BoundedWait.forPolling(context.clock()).start(context.config().operationTimeout().toNanos());
        while (!placements.pauseSeen()) {
            context.checkOpen();
            if (!wait.idle()) {
                placements.resume();
                throw new ClusterException("node " + context.nodeId() + ": the adaptive manager did not pause its "
                        + "placements within " + context.config().operationTimeout());
            }
            wake();
        }
    }

    /** Carries out placements again, those received while paused first. */
    public void resumePlacements() {
        placements.resume();
        wake();
    }

    /** A PLACEMENT from a home, for the manager thread. Transport threads. */
    public void onPlacement(int peer, Message placement) {
        placements.onPlacement(placement);
        wake();
    }

    /** Replicas this node holds now. */
    public long replicasHeld() {
        return sync.replicasHeld();
    }

    public long replicasCreated() {
        return placements.replicasCreated.sum();
    }

    public long replicasDropped() {
        return sync.replicasDropped.sum();
    }

    public long syncRounds() {
        return sync.rounds.sum();
    }

    public long syncDeltaBytes() {
        return sync.deltaBytes.sum();
    }

    /** Rows the manager asked to move here. */
    public long managedRelocations() {
        return placements.relocations.sum();
    }

    /** Keys of intents left where they were, their tables being read in batches (any thread). */
    public long keysLeftInPlace() {
        return batching == null ? 0 : batching.keysLeftInPlace();
    }

    /** The current action window in clocks (any thread). */
    public long windowClocks() {
        return intents.windowClocks();
    }

    private void onError(Throwable error) {
        if (context.isClosed()) {
            LOG.debug("node {}: adaptive manager while closing: {}", context.nodeId(), error.toString());
        } else if (error instanceof ClusterException) {
            LOG.warn("node {}: adaptive manager: {}", context.nodeId(), error.getMessage());
        } else {
            LOG.error("node {}: adaptive manager failed a duty cycle", context.nodeId(), error);
        }
    }

    /**
     * Parks after every duty cycle, even one that did work, unless a worker waits for a round:
     * the duties pace themselves, and on a core shared with training threads the manager must not
     * spin, nor wake more often than it has something to do. While replicas exist it parks until
     * the next paced round is due (at least {@value #ROUND_INTERVAL_MICROS} us); else until the
     * next thing due in time (a lingering key let go, a deferred decision at this node as a home),
     * at most for the idle period. Everything else comes with a wake-up: workers wake it when their
     * clocks advance (intents start and end with clocks), when they signal intent and when they
     * wait for a round; homes' placements and this node's deferred decisions wake it too.
     */
    private final class ManagerIdle implements IdleStrategy {
        private final long roundIntervalNanos = TimeUnit.MICROSECONDS.toNanos(ROUND_INTERVAL_MICROS);
        private final long idleNanos = TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS);

        @Override
        public void idle(int workCount) {
            idle();
        }

        @Override
        public void idle() {
            if (rounds.urgent()) {
                return;
            }
            long now = context.clock().nanoTime();
            long park;
            if (sync.replicasHeld() > 0) {
                park = Math.min(idleNanos, Math.max(roundIntervalNanos, rounds.untilDue(now)));
            } else {
                park = Math.min(idleNanos, Math.min(intents.untilDue(now), home.untilDue(now)));
            }
            if (park > 0) {
                LockSupport.parkNanos(this, park);
            }
        }

        @Override
        public void reset() {
        }
    }
}
