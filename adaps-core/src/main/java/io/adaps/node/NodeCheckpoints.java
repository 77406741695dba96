package io.adaps.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.CheckpointException;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.checkpoint.CheckpointChain;
import io.adaps.checkpoint.CheckpointFiles;
import io.adaps.checkpoint.CheckpointPublisher;
import io.adaps.checkpoint.CheckpointWriter;
import io.adaps.checkpoint.NodeState;
import io.adaps.checkpoint.RowSnapshot;
import io.adaps.checkpoint.SavedVersions;
import io.adaps.context.NodeContext;
import io.adaps.placement.AdaptiveManager;
import io.adaps.relocation.Relocator;
import io.adaps.store.TableStore;
import io.adaps.util.BoundedWait;
import io.adaps.worker.Workers;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * The collective checkpoint protocol of one node ({@link io.adaps.api.AdaPS#checkpoint}): makes
 * the cut consistent and copies the node's rows while training stands still, then writes and
 * publishes them on a background thread.
 *
 * <pre>
 *   every node (the caller's thread)                    training stands still
 *   wait for this node's previous checkpoint
 *   pause placements (no new relocation or replica)
 *   wait until no row is on its way here
 *   one synchronization round: replicas' updates reach their owners
 *   generation = newest published + 1; clear this node's leftovers of an earlier attempt
 *   full, or an increment of the newest published (CheckpointChain.baseOfNext)
 *   ---------------------------- barrier: the cut; every row has one owner holding every update
 *   copy the rows it owns (RowSnapshot; for an increment those changed since, SavedVersions),
 *   which of the rows it owns are homed elsewhere (the placement), and its workers' clocks and states
 *   ---------------------------- barrier: every node has copied (no update can reach an uncopied row)
 *   resume placements                                   training goes on
 *   background thread: write the data and state files, then the part file (or a failure mark)
 *     node 0: wait for every part (or a failure mark), write the manifest, rename it into place,
 *             remove old checkpoints; or mark the checkpoint given up
 *     others: wait for the manifest (or the mark)
 * </pre>
 * The application's workers are between operations while the cut is taken (the contract of
 * {@code checkpoint}, as of {@code barrier}). The files coordinate the background part, not
 * barriers, so that the application's own barriers go on meanwhile; every wait is bounded by the
 * barrier timeout, and a node that fails marks it, so that the others learn of it at once (a node
 * that dies before writing its part, or a node 0 that dies before publishing, is known from its
 * failure).
 * Because every node waits for its previous checkpoint before the next, all of them see the same
 * published generations when they number the next, and decide alike whether it is full.
 */
final class NodeCheckpoints {
    private static final Logger LOG = LoggerFactory.getLogger(NodeCheckpoints.class);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final NodeContext context;
    private final Workers workers;
    private final ClusterBarrier barrier;
    /** {@code null} on a node without a manager. */
    private final AdaptiveManager manager;
    /** {@code null} on a cluster of one. */
    private final Relocator relocator;
    private final String schema;
    /** The partitioning that decides the rows' homes, saved with the placement. */
    private final String partitioning;
    private final int kept;
    /** {@link io.adaps.api.AdaPS.Builder#fullCheckpointEvery}. */
    private final int fullEvery;
    /** With increments: per directory, the versions of the rows this node saved in its newest checkpoint there. */
    private final Map<Path, SavedVersions> versions = new HashMap<>();
    private BackgroundCheckpoint previous;
    private volatile CheckpointResult last;

    NodeCheckpoints(NodeContext context, Workers workers, ClusterBarrier barrier, AdaptiveManager manager,
                    Relocator relocator, int kept, int fullEvery) {
        this.context = context;
        this.workers = workers;
        this.barrier = barrier;
        this.manager = manager;
        this.relocator = relocator;
        this.schema = Schema.describeTables(context.tables());
        this.partitioning = context.config().partitioning().toString();
        this.kept = kept;
        this.fullEvery = fullEvery;
    }

    /**
     * This node was just restored from checkpoint {@code generation} in {@code dir}, before any
     * update: with increments, the next checkpoint there may build on it. Called before the node starts.
     */
    synchronized void restored(Path dir, long generation) {
        if (fullEvery > 1) {
            versions.put(key(dir), SavedVersions.restored(generation, context.tables(), context::store));
        }
    }

    /** {@link io.adaps.api.AdaPS#checkpoint}. */
    CheckpointResult checkpoint(Path dir) {
        return checkpointAsync(dir).await();
    }

    /** One thread per node at a time, the one that calls {@code barrier()}. */
    synchronized CheckpointTicket checkpointAsync(Path dir) {
        Path directory = writableDirectory(dir);
        awaitPrevious();
        long start = context.clock().nanoTime();
        boolean cluster = context.config().isCluster();
        Exception failure = null;
        long generation;
        long base;
        long since = 0;
        RowSnapshot[] rows = null;
        NodeState states = null;
        if (manager != null) {
            manager.pausePlacements();
        }
        try {
            if (cluster) {
                try {
                    settle();
                    if (manager != null && manager.replicasHeld() > 0) {
                        manager.awaitRound();
                    }
                } catch (ClusterException e) {
                    failure = e; // the node still writes a failure mark, so that the others learn of it
                }
            }
            generation = CheckpointFiles.nextGeneration(directory);
            base = baseOfNext(directory);
            try {
                CheckpointWriter.clearAttempt(directory, generation, context.nodeId());
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
            if (cluster) {
                barrier.await();
            }
            if (failure == null) {
                if (fullEvery == 1) {
                    rows = new RowSnapshot[context.tables().size()];
                    for (int table = 0; table < rows.length; table++) {
                        rows[table] = RowSnapshot.of(context.table(table), context.store(table));
                    }
                } else {
                    SavedVersions saved = versions.computeIfAbsent(key(directory), d -> new SavedVersions(context.tables()));
                    since = saved.changesSince(base);
                    rows = saved.take(generation, since, context.tables(), context::store);
                }
                states = new NodeState(context.nodeId(), workers.saved(context.nodeId()), partitioning, placement());
            }
            if (cluster) {
                // Until every node has copied its rows, none goes on: its workers' updates would
                // reach rows another node has not copied yet.
                barrier.await();
            }
        } finally {
            if (manager != null) {
                manager.resumePlacements();
            }
        }
        Duration pause = Duration.ofNanos(context.clock().nanoTime() - start);
        Duration bound = context.config().barrierTimeout();
        BackgroundCheckpoint ticket = new BackgroundCheckpoint(pause, bound.plus(bound),
                "node " + context.nodeId() + ": checkpoint " + generation + " in " + directory);
        Exception cutFailure = failure;
        RowSnapshot[] snapshot = rows;
        NodeState saved = states;
        long rowsSince = since;
        Thread writer = new Thread(() -> write(directory, generation, base, rowsSince, snapshot, saved, cutFailure, start,
                pause, ticket), "adaps-checkpoint-" + context.nodeId());
        writer.setDaemon(true);
        writer.start();
        previous = ticket;
        return ticket;
    }

    /**
     * Per table, the rows this node owns that are homed elsewhere: the placement a warm restore
     * puts back. Taken at the cut, from the store (an increment's snapshot holds only changed rows);
     * without relocation every row is at its home, so the pause pays for no scan.
     */
    private int[][] placement() {
        int[][] placed = new int[context.tables().size()][];
        boolean moves = context.config().isCluster() && context.config().technique().relocates();
        for (Table table : context.tables()) {
            if (!moves) {
                placed[table.id()] = new int[0];
                continue;
            }
            TableStore store = context.store(table.id());
            IntArrayList rows = new IntArrayList();
            for (long row = 0; row < table.rows(); row++) {
                if (store.owns(row) && context.config().home(table, row) != context.nodeId()) {
                    rows.add((int) row);
                }
            }
            placed[table.id()] = rows.toIntArray();
        }
        return placed;
    }

    /** The last checkpoint completed, or {@code null}. */
    CheckpointResult last() {
        return last;
    }

    /**
     * The background part: this node's files, then publishing (node 0) or waiting for it. The
     * checkpoint is full if {@code base} is 0, else an increment of checkpoint {@code base}; this
     * node's rows are those changed since checkpoint {@code since}, or every one it owns (0).
     */
    private void write(Path dir, long generation, long base, long since, RowSnapshot[] rows, NodeState states,
                       Exception cutFailure, long start, Duration pause, BackgroundCheckpoint ticket) {
        int node = context.nodeId();
        long bytes = 0;
        try {
            Exception failure = cutFailure;
            if (failure == null) {
                try {
                    bytes = CheckpointWriter.write(dir, generation, node, since, context.tables(), table -> rows[table],
                            states);
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                LOG.warn("node {}: writing checkpoint {} in {} failed: {}", node, generation, dir, failure.toString());
                markFailed(dir, generation, failure);
                throw new CheckpointException("node " + node + ": checkpoint " + generation + " in " + dir + " failed: "
                        + failure.getMessage(), failure);
            }
            Path manifest = node == 0 ? publish(dir, generation, base) : awaitPublished(dir, generation);
            CheckpointResult result = new CheckpointResult(manifest, generation, bytes, pause,
                    Duration.ofNanos(context.clock().nanoTime() - start));
            last = result;
            LOG.info("node {}: checkpoint {} in {} ({}): {} bytes written here, training paused {} ms, durable after {} ms",
                    node, generation, dir, base == 0 ? "full" : "increment of " + base, bytes, pause.toMillis(),
                    result.duration().toMillis());
            ticket.complete(result);
        } catch (CheckpointException e) {
            ticket.fail(e);
        } catch (RuntimeException e) {
            ticket.fail(new CheckpointException("node " + node + ": checkpoint " + generation + " in " + dir + " failed: "
                    + e, e));
        }
    }

    /** Node 0: waits for every node's part, then publishes; gives the checkpoint up if a node failed. */
    private Path publish(Path dir, long generation, long base) {
        long deadline = context.clock().nanoTime() + context.config().barrierTimeout().toNanos();
        int nodes = context.clusterSize();
        int parts;
        while ((parts = CheckpointFiles.parts(dir, generation, nodes)) == CheckpointFiles.PARTS_MISSING) {
            String failed = failedPeer(dir, generation);
            if (failed != null) {
                giveUp(dir, generation, failed);
                throw new CheckpointException("node 0: checkpoint " + generation + " in " + dir + " failed: " + failed);
            }
            pollOrGiveUp(deadline, dir, generation, "not every node wrote its files within "
                    + context.config().barrierTimeout());
        }
        if (parts != CheckpointFiles.ALL_PARTS) {
            String reason = "node " + parts + " could not write its files: " + CheckpointFiles.reason(dir, generation, parts);
            giveUp(dir, generation, reason);
            throw new CheckpointException("node 0: checkpoint " + generation + " in " + dir + " failed: " + reason);
        }
        try {
            return CheckpointPublisher.publish(dir, generation, base, nodes, schema, context.tables(), kept);
        } catch (IOException | RuntimeException e) {
            String reason = "node 0 could not publish it: " + e.getMessage();
            giveUp(dir, generation, reason);
            throw new CheckpointException("node 0: checkpoint " + generation + " in " + dir + " failed: " + reason, e);
        }
    }

    /** The other nodes: waits until node 0 published the checkpoint, or gave it up. */
    private Path awaitPublished(Path dir, long generation) {
        long deadline = context.clock().nanoTime() + context.config().barrierTimeout().toNanos();
        Path manifest = dir.resolve(CheckpointFiles.manifest(generation));
        while (!Files.exists(manifest)) {
            if (CheckpointFiles.givenUp(dir, generation)) {
                throw new CheckpointException("node " + context.nodeId() + ": checkpoint " + generation + " in " + dir
                        + " failed: " + CheckpointFiles.reason(dir, generation, -1));
            }
            PeerFailedException nodeZero = context.peers().failure(0);
            if (nodeZero != null && !Files.exists(manifest)) { // it may have published, then left
                throw new CheckpointException("node " + context.nodeId() + ": checkpoint " + generation + " in " + dir
                        + " failed: node 0, which publishes it, failed: " + nodeZero.getMessage(), nodeZero);
            }
            if (context.clock().nanoTime() - deadline > 0) {
                throw new CheckpointException("manifest=" + manifest + " (expected node 0 to publish checkpoint "
                        + generation + " within " + context.config().barrierTimeout() + ")");
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return manifest;
    }

    /** Why a node that has not written its part never will: it failed or left; {@code null} if none did. */
    private String failedPeer(Path dir, long generation) {
        for (int peer = 1; peer < context.clusterSize(); peer++) {
            PeerFailedException failure = context.peers().failure(peer);
            if (failure != null && !CheckpointFiles.partWritten(dir, generation, peer)) {
                return "node " + peer + " failed before it wrote its files: " + failure.getMessage();
            }
        }
        return null;
    }

    private void pollOrGiveUp(long deadline, Path dir, long generation, String reason) {
        if (context.clock().nanoTime() - deadline > 0) {
            giveUp(dir, generation, reason);
            throw new CheckpointException("node 0: checkpoint " + generation + " in " + dir + " failed: " + reason);
        }
        LockSupport.parkNanos(POLL_NANOS);
    }

    private void giveUp(Path dir, long generation, String reason) {
        try {
            CheckpointFiles.giveUp(dir, generation, reason);
        } catch (IOException e) {
            LOG.warn("node 0: could not mark checkpoint {} in {} given up: {}", generation, dir, e.toString());
        }
    }

    private void markFailed(Path dir, long generation, Exception failure) {
        try {
            CheckpointFiles.markFailed(dir, generation, context.nodeId(), String.valueOf(failure.getMessage()));
        } catch (IOException e) {
            LOG.warn("node {}: could not mark checkpoint {} in {} failed: {}", context.nodeId(), generation, dir,
                    e.toString());
        }
    }

    /** Waits for the checkpoint this node is writing, if any, to be complete or failed: the node is closing. */
    synchronized void awaitWritten() {
        awaitPrevious();
    }

    /** Waits for this node's previous checkpoint to be complete, whatever its outcome (its ticket reports it). */
    private void awaitPrevious() {
        if (previous != null) {
            try {
                previous.await();
            } catch (CheckpointException e) {
                LOG.debug("node {}: the previous checkpoint failed: {}", context.nodeId(), e.getMessage());
            }
            previous = null;
        }
    }

    /**
     * The next checkpoint in {@code dir}: full (0) or an increment of the newest there; full too
     * if the newest's chain cannot be read (a new chain starts rather than build on a broken one).
     */
    private long baseOfNext(Path dir) {
        try {
            return CheckpointChain.baseOfNext(dir, schema, fullEvery);
        } catch (CheckpointException e) {
            LOG.warn("node {}: the newest checkpoint in {} cannot be built on, so the next one is full: {}",
                    context.nodeId(), dir, e.getMessage());
            return 0;
        }
    }

    /** The directory as {@link #versions} knows it. */
    private static Path key(Path dir) {
        return dir.toAbsolutePath().normalize();
    }

    /** Waits until no row is on its way to this node (no new moves start: placements are paused). */
    private void settle() {
        BoundedWait wait = BoundedWait.forPolling(context.clock()).start(context.config().operationTimeout().toNanos());
        while (relocator.incomingRows() > 0) {
            context.checkOpen();
            if (!wait.idle()) {
                throw new ClusterException("node " + context.nodeId() + ": " + relocator.incomingRows() + " rows still on "
                        + "their way here after " + context.config().operationTimeout() + "; no checkpoint taken");
            }
        }
    }

    /**
     * {@code dir}, created if missing, once it is a writable directory.
     *
     * @throws IllegalArgumentException if it is not
     */
    private static Path writableDirectory(Path dir) {
        if (dir == null) {
            throw new IllegalArgumentException("dir=null (expected a directory for the checkpoint)");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException("dir=" + dir + " (expected a directory that can be created: " + e + ")", e);
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("dir=" + dir + " (expected a writable directory)");
        }
        return dir;
    }
}
