package io.adaps.consistency;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

import org.agrona.MutableDirectBuffer;

import io.adaps.api.Consistency;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * The clocks of a node's workers and the cluster's <em>watermark</em>: the clock {@code W} through
 * which every worker of the cluster has flushed, so that every update any worker pushed during its
 * clocks {@code < W} has been applied by the row's owner. Bounded-staleness models
 * ({@link Consistency}) are built on it (after Bösen: Wei et al., "Managed Communication and
 * Consistency for Fast Data-Parallel Iterative Analytics", SoCC'15):
 * <ul>
 *   <li>a worker advancing to clock {@code c} under bound {@code s} waits until {@code W >= c - s};
 *       then every owned row it reads, here or at another node, reflects the updates of clocks
 *       {@code < c - s};</li>
 *   <li>a replica carries the watermark known when its synchronization round started (its
 *       <em>tag</em>): the owner's answer came later, so it reflects every update of clocks
 *       below the tag, and the replica adds this node's own writes. A read at clock {@code c}
 *       waits for a replica whose tag is below {@code c - s} to be refreshed.</li>
 * </ul>
 *
 * <h2>How the watermark is made</h2>
 * A node's own part is the least over its open workers of the clock each has flushed through
 * ({@link WorkerClock}), and of {@link #replicasFlushed}: the least worker clock at the start of the
 * node's last complete synchronization round, which carried every update made to replicas before.
 * A node without open workers holds nobody back (its part is {@code Long.MAX_VALUE}), once it has
 * had a worker: a node that never opened one holds the others at its start. Each node sends its
 * part to every peer whenever it changes (a header-only CLOCK message whose request id is the
 * value); the watermark is the least of the parts. Peers that left count no more; a peer that
 * failed ends every wait with its {@link PeerFailedException}.
 *
 * <p>A worker that opens while the watermark is {@code w} counts as being at clock {@code w} until
 * its own clock passes it: it holds nobody back (an evaluation's worker, a helper thread's), and
 * the bound does not cover its updates before then. So open the training workers together, before
 * any advances (before a barrier), and keep them open across epochs: their clocks go on.
 *
 * <p>Thread safety: any thread; the watermark is cached in a volatile field, recomputed whenever a
 * part changes.
 */
public final class ClusterClocks {
    /** A node part that holds nobody back. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    private final int self;
    private final Peers peers;
    /** Per node: its last part heard; this node's slot is unused. */
    private final AtomicLongArray parts;
    /** The strictest bound of the node's tables, or -1 if none is bounded. */
    private final int strictest;
    private final boolean eager;
    private final boolean[] bounded;
    private final int[] staleness;
    private final int tables;
    private volatile WorkerClock[] open = new WorkerClock[0];
    /** Open workers outside the bounds, counted in the metrics only. */
    private WorkerClock[] unclocked = new WorkerClock[0];
    /** 0 until a manager says otherwise: replicas may hold updates ({@link #withoutReplicas}). */
    private volatile long replicasFlushed;
    private boolean replicates = true;
    /** Counts the workers registered: a round that began before one did says nothing of its updates. */
    private volatile long generation;
    private volatile long watermark;
    /** Guards reading the parts and writing {@link #watermark} in one step ({@link #recompute}). */
    private final Object recomputing = new Object();
    private boolean hadWorkers;
    /** What the peers last heard from this node (they assume 0 at the start). */
    private volatile long sent;
    private final MutableDirectBuffer message = Message.newBuffer(Message.HEADER_LENGTH);
    /** The counters of closed workers. */
    private final long[][] closedReads;
    /** The reads of closed workers that kept a clock ({@link #register}), per table. */
    private final long[] closedClockedReads;
    private final long[] closedReplicaWaits;
    private long closedClockWaits;
    private long closedTicks;

    public ClusterClocks(NodeContext context) {
        this.self = context.nodeId();
        this.peers = context.peers();
        this.parts = new AtomicLongArray(context.clusterSize());
        this.tables = context.tables().size();
        this.bounded = new boolean[tables];
        this.staleness = new int[tables];
        int least = -1;
        boolean anyEager = false;
        for (Table table : context.tables()) {
            Consistency model = table.spec().consistency();
            bounded[table.id()] = model.isBounded();
            staleness[table.id()] = model.staleness();
            if (model.isBounded() && (least < 0 || model.staleness() < least)) {
                least = model.staleness();
            }
            anyEager |= model.isEager();
        }
        this.strictest = least;
        this.eager = anyEager;
        this.closedReads = new long[tables][WorkerClock.BUCKETS + 1];
        this.closedClockedReads = new long[tables];
        this.closedReplicaWaits = new long[tables];
        recompute();
    }

    /** The smallest staleness bound of the node's tables, or -1 if every table is asynchronous. */
    public int strictestBound() {
        return strictest;
    }

    /** Whether {@code table}'s reads are bounded. */
    public boolean isBounded(int table) {
        return bounded[table];
    }

    /** The staleness bound of {@code table} (-1 if unbounded). */
    public int bound(int table) {
        return staleness[table];
    }

    /** Whether some table refreshes its replicas eagerly ({@link Consistency#essp}). */
    public boolean isEager() {
        return eager;
    }

    /** The cluster's watermark as this node knows it now. */
    public long watermark() {
        return watermark;
    }

    /** The clock through which this node's replica updates have reached their owners. */
    public long replicasFlushed() {
        return replicasFlushed;
    }

    /** This node never holds replicas (it has no manager): only its workers hold its part back. */
    public synchronized void withoutReplicas() {
        replicates = false;
        replicasFlushed = UNBOUNDED;
        update();
    }

    /** What {@link #replicasFlushedThrough} needs from the start of a round: the workers' generation. */
    public long generation() {
        return generation;
    }

    /**
     * A new worker at clock 0 takes part from now on, counted as being at the watermark it opened
     * at (0 while some node has not opened its first worker, or none is open anywhere).
     */
    public synchronized WorkerClock register() {
        long base = watermark == UNBOUNDED ? 0 : watermark;
        WorkerClock clock = new WorkerClock(tables, base);
        WorkerClock[] now = Arrays.copyOf(open, open.length + 1);
        now[now.length - 1] = clock;
        open = now;
        hadWorkers = true;
        generation++;
        if (replicates) {
            replicasFlushed = Math.min(replicasFlushed, base); // the new worker's updates to replicas are in none
        }
        update();
        return clock;
    }

    /** The counters of an unclocked worker: it takes no part in the watermark. */
    public synchronized WorkerClock unclocked() {
        WorkerClock clock = new WorkerClock(tables, 0);
        WorkerClock[] now = Arrays.copyOf(unclocked, unclocked.length + 1);
        now[now.length - 1] = clock;
        unclocked = now;
        return clock;
    }

    /**
     * A closed worker holds nobody back any more; its counters are kept. An unclocked worker's
     * ({@link #unclocked()}) are only counted.
     */
    public synchronized void unregister(WorkerClock clock) {
        boolean clocked = Arrays.asList(open).contains(clock);
        open = Arrays.stream(open).filter(w -> w != clock).toArray(WorkerClock[]::new);
        unclocked = Arrays.stream(unclocked).filter(w -> w != clock).toArray(WorkerClock[]::new);
        for (int t = 0; t < tables; t++) {
            clock.addReads(t, closedReads[t]);
            if (clocked) {
                closedClockedReads[t] += clock.readCount(t);
            }
            closedReplicaWaits[t] += clock.replicaWaitNanos(t);
        }
        closedClockWaits += clock.clockWaitNanos();
        closedTicks += clock.clock;
        update();
    }

    /** The least clock of this node's open workers, or {@link #UNBOUNDED} if none is open. */
    public long minClock() {
        long least = UNBOUNDED;
        for (WorkerClock w : open) {
            least = Math.min(least, w.effectiveClock());
        }
        return least;
    }

    /**
     * A synchronization round that started when the least worker clock was {@code clock} and the
     * workers' {@link #generation} was {@code generation} has completed: every update made to this
     * node's replicas before has reached its owner. A worker registered since may have updated
     * replicas after the round's snapshot: then nothing changes. Manager thread.
     */
    public void replicasFlushedThrough(long clock, long generation) {
        synchronized (this) {
            if (generation != this.generation || clock == replicasFlushed) {
                return;
            }
            replicasFlushed = clock;
        }
        update();
    }

    /** This node's part: the least flushed clock of its workers and replicas. */
    private long localPart() {
        WorkerClock[] workers = open;
        if (workers.length == 0) {
            return hadWorkers ? UNBOUNDED : 0;
        }
        long least = replicasFlushed;
        for (WorkerClock w : workers) {
            least = Math.min(least, w.flushed);
        }
        return least;
    }

    /**
     * Recomputes this node's part and, if it changed, tells every live peer; then the watermark.
     * Called whenever a part of it may have changed.
     */
    public void update() {
        long part = localPart();
        if (part != sent) {
            publish(part);
        }
        recompute();
    }

    private synchronized void publish(long part) {
        part = localPart(); // the newest, under the lock, so that peers hear parts in order
        if (part == sent) {
            return;
        }
        sent = part;
        Message.writeHeader(message, 0, MessageType.CLOCK, 0, 0, 0, part, self, 0);
        for (int peer = 0; peer < parts.length(); peer++) {
            if (peer != self && peers.failure(peer) == null) {
                peers.sendQuietly(peer, message, 0, Message.HEADER_LENGTH);
            }
        }
    }

    /** CLOCK from {@code peer}: its part is now {@code part}. Transport threads. */
    public void onPeer(int peer, long part) {
        parts.set(peer, part);
        recompute();
    }

    /** {@code peer} left the cluster: it holds nobody back any more. */
    public void onPeerLeft(int peer) {
        parts.set(peer, UNBOUNDED);
        recompute();
    }

    /**
     * Recomputes the watermark from the parts as they are now. Workers call this as they advance,
     * transport threads as peers' parts arrive: each changes its input first, and the inputs are
     * read and the watermark written under {@link #recomputing}, so the last recompute has seen
     * every input changed before it. Without the lock a recompute that read a peer's part before
     * its CLOCK arrived could write its older watermark after the one that CLOCK raised, and under
     * {@code bsp}, where every worker waits for that watermark and the peer for this node, no new
     * input would ever come to correct it (issue 13, a CI run stalled for a minute).
     */
    private void recompute() {
        synchronized (recomputing) {
            long least = localPart();
            for (int peer = 0; peer < parts.length(); peer++) {
                if (peer != self) {
                    least = Math.min(least, parts.get(peer));
                }
            }
            watermark = least;
        }
    }

    /** The first peer failure (not a departure) that keeps the watermark from advancing, or {@code null}. */
    public PeerFailedException failure() {
        for (int peer = 0; peer < parts.length(); peer++) {
            PeerFailedException failure = peer == self ? null : peers.failure(peer);
            if (failure != null && !failure.left()) {
                return failure;
            }
        }
        return null;
    }

    /** Names who holds the watermark back, for a timeout's message. */
    public String describeSlowest() {
        long local = localPart();
        StringBuilder text = new StringBuilder("node " + self + " (here) flushed through " + describe(local));
        for (int peer = 0; peer < parts.length(); peer++) {
            if (peer != self) {
                text.append(", node ").append(peer).append(" through ").append(describe(parts.get(peer)));
            }
        }
        return text.toString();
    }

    private static String describe(long part) {
        return part == UNBOUNDED ? "every clock (no open worker)" : "clock " + part;
    }

    /** How many workers with a clock are open. */
    public int clockedWorkers() {
        return open.length;
    }

    /**
     * The reads of {@code table} by the workers that keep a clock, open and closed: training's
     * reads, without those of unclocked workers (an evaluation's).
     */
    public synchronized long clockedReads(int table) {
        long sum = closedClockedReads[table];
        for (WorkerClock w : open) {
            sum += w.readCount(table);
        }
        return sum;
    }

    /** Adds every worker's reads of {@code table} by staleness, open and closed, to {@code into}. */
    public synchronized void addReads(int table, long[] into) {
        for (int i = 0; i < into.length; i++) {
            into[i] += closedReads[table][i];
        }
        for (WorkerClock w : open) {
            w.addReads(table, into);
        }
        for (WorkerClock w : unclocked) {
            w.addReads(table, into);
        }
    }

    /** Nanoseconds workers waited for fresh replicas of {@code table}, open and closed. */
    public synchronized long replicaWaitNanos(int table) {
        long sum = closedReplicaWaits[table];
        for (WorkerClock w : open) {
            sum += w.replicaWaitNanos(table);
        }
        for (WorkerClock w : unclocked) {
            sum += w.replicaWaitNanos(table);
        }
        return sum;
    }

    /** The clock ticks of this node's workers so far, open and closed: the sum of their clocks. */
    public synchronized long ticks() {
        long sum = closedTicks;
        for (WorkerClock w : open) {
            sum += w.clock;
        }
        return sum;
    }

    /** Nanoseconds workers waited in advanceClock for the slowest worker, open and closed. */
    public synchronized long clockWaitNanos() {
        long sum = closedClockWaits;
        for (WorkerClock w : open) {
            sum += w.clockWaitNanos();
        }
        return sum;
    }
}
