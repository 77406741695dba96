package io.adaps.node;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.ClusterException;
import io.adaps.api.NodeMetrics;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.Table;
import io.adaps.api.Worker;
import io.adaps.context.NodeContext;
import io.adaps.placement.AdaptiveManager;
import io.adaps.relocation.Relocator;
import io.adaps.sampling.SamplePool;
import io.adaps.worker.Workers;

/**
 * A running node as the application sees it: a facade over the parts the {@link NodeBootstrap}
 * wired. It holds the rows it is home of, runs its workers' operations (locally on the calling
 * thread, remotely through the transport) and serves other nodes' requests on transport threads.
 * A node without peers is a cluster of one.
 *
 * <p>Every row starts at its home node (see {@link io.adaps.api.Partitioning}), as in the classic
 * parameter server (Li et al., "Scaling Distributed Machine Learning with the Parameter Server",
 * OSDI 2014), update rules run wherever the row is held, and rows move between nodes through the
 * {@link Relocator} as the {@link AdaptiveManager} (or the application) decides.
 */
public final class LocalNode implements AdaPS {
    private static final Logger LOG = LoggerFactory.getLogger(LocalNode.class);

    private final NodeContext context;
    private final Workers workers;
    private final ClusterBarrier barrier;
    /** {@code null} on a node without a manager. */
    private final AdaptiveManager manager;
    /** {@code null} on a cluster of one. */
    private final Relocator relocator;
    /** Per table its sampling pool, or {@code null}. */
    private final SamplePool[] pools;
    private final NodeCheckpoints checkpoints;
    private final CheckpointSchedule schedule;
    /** {@code null} for a node that started fresh. */
    private final RestoredCheckpoint restored;

    LocalNode(NodeContext context, Workers workers, ClusterBarrier barrier, AdaptiveManager manager, Relocator relocator,
              SamplePool[] pools, NodeCheckpoints checkpoints, CheckpointSchedule schedule,
              RestoredCheckpoint restored) {
        this.context = context;
        this.workers = workers;
        this.barrier = barrier;
        this.manager = manager;
        this.relocator = relocator;
        this.pools = pools;
        this.checkpoints = checkpoints;
        this.schedule = schedule;
        this.restored = restored;
    }

    /** The parts of the node shared by its components (for tests that look inside a node). */
    NodeContext context() {
        return context;
    }

    /** The relocator, or {@code null} on a cluster of one (for tests that look inside a node). */
    Relocator relocator() {
        return relocator;
    }

    @Override
    public int nodeId() {
        return context.nodeId();
    }

    @Override
    public int clusterSize() {
        return context.clusterSize();
    }

    @Override
    public List<Table> tables() {
        return context.tables();
    }

    @Override
    public Table table(String name) {
        return context.table(name);
    }

    @Override
    public long keys() {
        return context.keys().endKey();
    }

    @Override
    public Worker worker() {
        context.checkOpen();
        return workers.create(true);
    }

    @Override
    public Worker unclockedWorker() {
        context.checkOpen();
        return workers.create(false);
    }

    /**
     * Also takes a periodic checkpoint when one is due (see {@link CheckpointSchedule}): the cut
     * and the copy of the rows here, the files in the background.
     */
    @Override
    public void barrier() {
        context.checkOpen();
        if (!context.config().isCluster()) {
            if (schedule.takeIfDue()) {
                checkpoints.checkpointAsync(schedule.dir());
            }
            return;
        }
        barrier.await();
        long passed = barrier.passed();
        if (manager != null && manager.replicasHeld() > 0) {
            // Every node's updates reached the owners before it entered the barrier (waitSync),
            // so one more round makes this node's replicas converge to the owners' values.
            try {
                manager.awaitRound();
            } catch (ClusterException e) {
                if (barrier.obstacle(passed) != null) {
                    throw e;
                }
                // An owner that passed the barrier and left: its rows are gone with it.
                LOG.debug("node {}: refresh after barrier {}: {}", nodeId(), passed, e.getMessage());
            }
        }
        if (barrier.checkpointAt(passed)) {
            checkpoints.checkpointAsync(schedule.dir());
        }
    }

    @Override
    public CheckpointResult checkpoint(Path dir) {
        context.checkOpen();
        return checkpoints.checkpoint(dir);
    }

    @Override
    public CheckpointTicket checkpointAsync(Path dir) {
        context.checkOpen();
        return checkpoints.checkpointAsync(dir);
    }

    @Override
    public Optional<CheckpointResult> lastCheckpoint() {
        return Optional.ofNullable(checkpoints.last());
    }

    @Override
    public Optional<RestoredCheckpoint> restoredFrom() {
        return Optional.ofNullable(restored);
    }

    @Override
    public NodeMetrics metrics() {
        return NodeMetricsReader.read(context, workers, relocator, manager, pools);
    }

    @Override
    public boolean isClosed() {
        return context.isClosed();
    }

    @Override
    public void close() {
        if (!context.isClosed()) {
            checkpoints.awaitWritten(); // before leaving: node 0 publishes only once every node wrote its part
        }
        synchronized (this) {
            if (context.isClosed()) {
                return;
            }
            context.markClosed();
        }
        if (manager != null) {
            manager.close();
        }
        context.peers().leave(barrier.passed());
        LOG.info("node {} closed", nodeId());
        if (LOG.isDebugEnabled()) {
            LOG.debug("node {} at close: {}", nodeId(), metrics().describe());
        }
    }

    @Override
    public String toString() {
        return "AdaPS[node " + nodeId() + " of " + clusterSize() + "]";
    }
}
