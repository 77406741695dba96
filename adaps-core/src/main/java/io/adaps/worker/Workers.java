package io.adaps.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import io.adaps.api.RestoredCheckpoint.SavedWorker;
import io.adaps.api.WorkerMetrics;
import io.adaps.rpc.CallRegistry;
import io.adaps.consistency.ClusterClocks;
import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * A node's workers: hands out worker ids, takes them back when workers close and gives them to
 * later workers (least recently freed first), so that a node serves any number of worker
 * lifetimes with at most {@value #MAX_OPEN} open at once. Keeps each id's last ticket, so that a
 * reused id's tickets continue, and the counters of closed workers, so that the node's totals
 * keep them.
 *
 * <p>Thread-safe.
 */
public final class Workers {
    /** Worker ids fit 16 bits of a request id, and the highest is the manager's. */
    public static final int MAX_OPEN = CallRegistry.MANAGER;

    private final WorkerServices services;
    private final List<NodeWorker> open = new CopyOnWriteArrayList<>();
    private final IntArrayFIFOQueue freeIds = new IntArrayFIFOQueue();
    /** Per id ever handed out: the last ticket its workers issued. */
    private final LongArrayList lastTickets = new LongArrayList();
    /** Per id ever handed out: its last closed worker's clock. */
    private final LongArrayList lastClocks = new LongArrayList();
    /** Per id ever handed out: what its workers saved for checkpoints, or {@code null}. */
    private final List<byte[]> states = new ArrayList<>();
    private final long[] closedCounters = new long[NodeWorker.COUNTERS];
    private long created;

    public Workers(WorkerServices services) {
        this.services = services;
    }

    /** The clocks of this node's workers and the cluster's watermark. */
    public ClusterClocks clocks() {
        return services.clocks();
    }

    /**
     * A new worker, with the id freed longest ago or a fresh one; {@code clocked}: whether it takes
     * part in the consistency bounds (see {@link io.adaps.api.AdaPS#unclockedWorker()}).
     *
     * @throws IllegalStateException if {@value #MAX_OPEN} workers are open
     */
    public synchronized NodeWorker create(boolean clocked) {
        int id;
        if (!freeIds.isEmpty()) {
            id = freeIds.dequeueInt();
        } else if (lastTickets.size() < MAX_OPEN) {
            id = lastTickets.size();
            lastTickets.add(0);
            lastClocks.add(0);
            states.add(null);
        } else {
            throw new IllegalStateException("workers=" + MAX_OPEN + " open (expected fewer open workers per node; "
                    + "close workers that are done)");
        }
        NodeWorker worker = new NodeWorker(services, this, id, lastTickets.getLong(id), clocked);
        open.add(worker);
        created++;
        return worker;
    }

    /**
     * Takes back the id of {@code worker}, which closed after issuing tickets up to
     * {@code lastTicket}, at clock {@code clock}.
     */
    synchronized void release(NodeWorker worker, long lastTicket, long clock) {
        if (open.remove(worker)) {
            worker.addCounters(closedCounters);
            lastTickets.set(worker.id(), lastTicket);
            lastClocks.set(worker.id(), clock);
            freeIds.enqueue(worker.id());
        }
    }

    /** Keeps {@code state} as what checkpoints save for worker id {@code id}. */
    synchronized void saveState(int id, byte[] state) {
        states.set(id, state);
    }

    /**
     * Every worker id handed out so far, with its clock (the open worker's now, else its last
     * closed one's) and what it saved, for a checkpoint of node {@code node}.
     */
    public synchronized List<SavedWorker> saved(int node) {
        long[] clocks = lastClocks.toLongArray();
        for (NodeWorker worker : open) {
            clocks[worker.id()] = worker.clockForManager();
        }
        List<SavedWorker> saved = new ArrayList<>(clocks.length);
        for (int id = 0; id < clocks.length; id++) {
            saved.add(new SavedWorker(node, id, clocks[id], states.get(id)));
        }
        return saved;
    }

    /** Unparks every open worker's thread, so that waiting workers notice a peer's failure. */
    public void unparkAll() {
        for (NodeWorker worker : open) {
            Thread thread = worker.ownerThread();
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    /** Workers open now. */
    public int openCount() {
        return open.size();
    }

    /** Workers created since the node started. */
    public synchronized long created() {
        return created;
    }

    /** The counters of every worker, open or closed, added to {@code sums} (see {@link NodeWorker#COUNTERS}). */
    public synchronized void addCounters(long[] sums) {
        for (int i = 0; i < NodeWorker.COUNTERS; i++) {
            sums[i] += closedCounters[i];
        }
        for (NodeWorker worker : open) {
            worker.addCounters(sums);
        }
    }

    /** The local-access counters of each open worker. */
    public List<WorkerMetrics> metrics() {
        List<WorkerMetrics> metrics = new ArrayList<>(open.size());
        for (NodeWorker worker : open) {
            metrics.add(worker.metrics());
        }
        return metrics;
    }
}
