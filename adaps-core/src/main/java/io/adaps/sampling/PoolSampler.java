package io.adaps.sampling;

import java.util.SplittableRandom;


/**
 * {@link io.adaps.api.SamplingScheme#POOL}: the node's {@link SamplePool} of the table, shared by
 * its workers. A sample claims consecutive tickets of the pool (one atomic add) and copies their
 * keys; see {@link SamplePool} for why every key is marginally distributed as requested and
 * handed out at most the reuse bound times.
 *
 * <p>Refills: when a sample finds the pool's next generation neither drawn nor being drawn, it
 * wakes the node's adaptive manager, which draws it in the background and moves the node's
 * intent from the keys that leave the pool to those that enter (so the manager keeps the pool's
 * keys local, and the next generation is placed before it is used). A node without a manager
 * (one node, or {@link io.adaps.api.Technique#STATIC}, where intent moves nothing) has the worker
 * that noticed draw it inline: {@code size} draws once per {@code size * reuse} keys handed out,
 * and only one worker at a time (the others go on; late generations become fallback draws).
 */
final class PoolSampler implements Sampler {
    private final SamplePool pool;
    /** Wakes the manager to refill the pool; {@code null} if the node has none. */
    private final Runnable refill;

    PoolSampler(SamplePool pool, Runnable refill) {
        this.pool = pool;
        this.refill = refill;
    }

    @Override
    public int draw(SplittableRandom random, long[] rows, int n) {
        long ticket = pool.claim(n);
        int fallbacks = pool.fill(ticket, random, rows, 0, n);
        if (pool.needsRefill(ticket + n - 1)) {
            if (refill != null) {
                refill.run();
            } else {
                pool.refill(SamplePool.IGNORE);
            }
        }
        return fallbacks;
    }
}
