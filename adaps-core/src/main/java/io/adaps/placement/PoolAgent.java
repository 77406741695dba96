package io.adaps.placement;

import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.keys.RowKey;
import io.adaps.sampling.SamplePool;

/**
 * The manager's sampling duty: draws the next generation of every pool that needs one (a worker
 * wakes the manager when it finds it missing), in the background. Under a technique that signals
 * intent it tells {@link ActiveKeys} which keys enter and leave the pools, so that the node keeps
 * intent on every entry of the two current generations: the next generation is placed while the
 * current one is handed out. Manager thread.
 */
final class PoolAgent implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(PoolAgent.class);

    private final int node;
    private final SamplePool[] pools;
    private final SamplePool.Listener[] listeners;

    /**
     * @param pools  per table its pool, or {@code null}
     * @param active where pool keys count as active, or {@code null} if intent places nothing
     */
    PoolAgent(int node, SamplePool[] pools, ActiveKeys active) {
        this.node = node;
        this.pools = pools;
        this.listeners = new SamplePool.Listener[pools.length];
        for (int table = 0; table < pools.length; table++) {
            if (pools[table] != null) {
                listeners[table] = active == null ? SamplePool.IGNORE : poolIntent(table, active);
                // The first two generations were drawn with the node; no worker runs yet.
                pools[table].forEachEntry(listeners[table]::entered);
            }
        }
    }

    private static SamplePool.Listener poolIntent(int table, ActiveKeys active) {
        return new SamplePool.Listener() {
            @Override
            public void entered(long row) {
                active.poolEntered(RowKey.of(table, row));
            }

            @Override
            public void left(long row) {
                active.poolLeft(RowKey.of(table, row));
            }
        };
    }

    @Override
    public int doWork() {
        int work = 0;
        for (int table = 0; table < pools.length; table++) {
            SamplePool pool = pools[table];
            if (pool != null && pool.needsRefill()) {
                try {
                    // At most two: the generation in use (if it was late) and the next one.
                    if (pool.refill(listeners[table])) {
                        pool.refill(listeners[table]);
                    }
                    work++;
                } catch (IllegalStateException e) {
                    // A distribution that drew outside its table: the workers' fallback draws
                    // refuse the sample with the same error; the manager's other work goes on.
                    LOG.warn("node {}: sampling pool of table {} not refilled: {}", node, table, e.getMessage());
                }
            }
        }
        return work;
    }

    @Override
    public String roleName() {
        return "sampling-pools";
    }
}
