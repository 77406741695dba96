package io.adaps.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.CheckpointException;
import io.adaps.api.CheckpointResult;
import io.adaps.api.ClusterException;
import io.adaps.checkpoint.CheckpointFiles;
import io.adaps.checkpoint.CheckpointPublisher;
import io.adaps.checkpoint.CheckpointWriter;
import io.adaps.context.NodeContext;
import io.adaps.placement.AdaptiveManager;
import io.adaps.relocation.Relocator;
import io.adaps.store.TableStore;
import io.adaps.util.BoundedWait;
import io.adaps.worker.Workers;

/**
 * The collective checkpoint protocol of one node ({@link io.adaps.api.AdaPS#checkpoint}): makes
 * the cut consistent, then has the files written and published.
 *
 * <pre>
 *   every node                                        node 0
 *   pause placements (no new relocation or replica)
 *   wait until no row is on its way here
 *   one synchronization round: replicas' updates reach their owners
 *   ---------------------------- barrier 1: the cut; every row has one owner holding every update
 *   write the rows it owns + its workers, then its part file
 *   ---------------------------- barrier 2: every node's files are durable
 *                                                     gather the parts, write the manifest,
 *                                                     rename it into place, remove old checkpoints
 *   ---------------------------- barrier 3: published (or not: every node then throws)
 *   resume placements
 * </pre>
 * The application's workers are between operations throughout (the contract of
 * {@code checkpoint}, as of {@code barrier}); rounds that run meanwhile carry no deltas, so owned
 * rows stand still while they are written. A node whose writing fails still takes part in the
 * barriers, so that every node learns of it instead of waiting for the barrier timeout.
 */
final class NodeCheckpoints {
    private static final Logger LOG = LoggerFactory.getLogger(NodeCheckpoints.class);

    private final NodeContext context;
    private final Workers workers;
    private final ClusterBarrier barrier;
    /** {@code null} on a node without a manager. */
    private final AdaptiveManager manager;
    /** {@code null} on a cluster of one. */
    private final Relocator relocator;
    private final TableStore[] stores;
    private final String schema;
    private final int kept;
    private volatile CheckpointResult last;

    NodeCheckpoints(NodeContext context, Workers workers, ClusterBarrier barrier, AdaptiveManager manager,
                    Relocator relocator, int kept) {
        this.context = context;
        this.workers = workers;
        this.barrier = barrier;
        this.manager = manager;
        this.relocator = relocator;
        this.stores = new TableStore[context.tables().size()];
        for (int table = 0; table < stores.length; table++) {
            stores[table] = context.store(table);
        }
        this.schema = Schema.describeTables(context.tables());
        this.kept = kept;
    }

    /** One thread per node at a time, the one that calls {@code barrier()}. */
    synchronized CheckpointResult checkpoint(Path dir) {
        Path directory = writableDirectory(dir);
        long start = context.clock().nanoTime();
        boolean cluster = context.config().isCluster();
        if (manager != null) {
            manager.pausePlacements();
        }
        try {
            Exception failure = null;
            if (cluster) {
                try {
                    settle();
                    if (manager != null && manager.replicasHeld() > 0) {
                        manager.awaitRound();
                    }
                } catch (ClusterException e) {
                    failure = e; // still through the barriers, so that the others learn of it
                }
                barrier.await();
            }
            long generation = CheckpointFiles.nextGeneration(directory);
            long bytes = 0;
            if (failure == null) {
                try {
                    bytes = CheckpointWriter.write(directory, generation, context.nodeId(), context.tables(), stores,
                            workers.saved(context.nodeId()));
                } catch (IOException | RuntimeException e) {
                    failure = e;
                    LOG.warn("node {}: writing checkpoint {} in {} failed: {}", context.nodeId(), generation, directory,
                            e.toString());
                }
            }
            if (cluster) {
                barrier.await();
            }
            if (context.nodeId() == 0) {
                try {
                    CheckpointPublisher.publish(directory, generation, context.clusterSize(), schema, context.tables(),
                            kept);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("node 0: publishing checkpoint {} in {} failed: {}", generation, directory, e.toString());
                    failure = failure == null ? e : failure;
                }
            }
            if (cluster) {
                barrier.await();
            }
            Path manifest = directory.resolve(CheckpointFiles.manifest(generation));
            if (failure != null) {
                throw new CheckpointException("node " + context.nodeId() + ": checkpoint " + generation + " in " + directory
                        + " failed: " + failure.getMessage(), failure);
            }
            if (!Files.exists(manifest)) {
                throw new CheckpointException("manifest=" + manifest + " (expected node 0 to publish checkpoint "
                        + generation + "; a node could not write its files or node 0 its manifest: see their logs)");
            }
            Duration pause = Duration.ofNanos(context.clock().nanoTime() - start);
            LOG.info("node {}: checkpoint {} in {}: {} bytes written here, {} ms", context.nodeId(), generation, directory,
                    bytes, pause.toMillis());
            last = new CheckpointResult(manifest, generation, bytes, pause);
            return last;
        } finally {
            if (manager != null) {
                manager.resumePlacements();
            }
        }
    }

    /** The last checkpoint completed, or {@code null}. */
    CheckpointResult last() {
        return last;
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
