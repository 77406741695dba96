package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * How many clocks every worker of the cluster ticks per epoch: the most chunks any thread of any
 * node has, agreed once at the start. Under a bounded consistency model a worker that finished its
 * share early and stopped ticking would hold the others at most {@code s} clocks ahead of it, and a
 * thread with one chunk more than the others would wait for them for ever; so every worker ticks up
 * to the agreed number at the end of its share (a few empty clocks, at most, on balanced shares),
 * and every epoch spans the same clocks on every worker. The agreed clocks are also the steps of
 * the epoch ({@link SteppedEpoch}), whose boundaries every thread of every node shares.
 *
 * <p>The agreement: each node sets its own row of the table {@value #TABLE} to its most chunks,
 * passes a barrier and reads every node's row. It writes rather than adds, so that a run resumed
 * from a checkpoint (which holds the table) agrees again.
 */
public final class EpochClocks {
    /** The table of the agreement: one row per node. */
    public static final String TABLE = "epoch.clocks";
    /** The most nodes the table has rows for. */
    public static final int MAX_NODES = 1024;

    private EpochClocks() {
    }

    /** The table every node must declare. */
    public static TableSpec spec() {
        return TableSpec.of(TABLE, MAX_NODES, 1).withConsistency(Consistency.asp());
    }

    /**
     * The most of every node's {@code local}: each node calls it once, from the same thread as its
     * barriers, before training.
     *
     * @throws IllegalArgumentException if {@code local} is negative
     */
    public static int agree(AdaPS node, int local) {
        checkNotNull(node, "node");
        if (local < 0) {
            throw new IllegalArgumentException("local=" + local + " (expected >= 0)");
        }
        if (node.clusterSize() > MAX_NODES) {
            throw new IllegalArgumentException("clusterSize=" + node.clusterSize() + " (expected <= " + MAX_NODES + ")");
        }
        // Unclocked: it never ticks, and must not hold the training workers back.
        try (Worker worker = node.unclockedWorker()) {
            TableView table = worker.table(TABLE);
            table.set(node.nodeId(), new float[] {local}, 0);
            node.barrier();
            long[] nodes = new long[node.clusterSize()];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = i;
            }
            float[] values = new float[nodes.length];
            table.pull(nodes, values);
            int most = local;
            for (float value : values) {
                most = Math.max(most, (int) value);
            }
            return most;
        }
    }
}
