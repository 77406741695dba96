package io.adaps.sampling;

import java.util.SplittableRandom;

import io.adaps.api.KeyDistribution;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.store.TableStore;

/**
 * How a node draws the rows of a sample when a worker prepares it ({@link io.adaps.api.TableView#prepareSample});
 * one per sampled table and node, shared by the node's workers, so implementations are stateless
 * or thread-safe and take the worker's own random source. Which rows are drawn is decided here,
 * once, at prepare time; the pull then reads them wherever they are, like any other pull, so a row
 * that moved between prepare and pull is still read correctly (only the locality a scheme aimed
 * for may be lost).
 *
 * <p>The schemes follow NuPS (Renz-Wieland, Gemulla, Kaoudi, Markl, "NuPS: A Parameter Server for
 * Machine Learning with Non-Uniform Parameter Access", SIGMOD 2022); {@link SamplingScheme} is the
 * contract, the implementations say how they keep it.
 */
public interface Sampler {
    /**
     * Draws {@code n} rows into {@code rows[0 .. n)} with {@code random}.
     *
     * @return the scheme's extra count: for {@link SamplingScheme#LOCAL} the redraws of remote rows,
     *         for {@link SamplingScheme#POOL} the fallback draws; 0 otherwise
     * @throws IllegalStateException if the distribution drew a row outside the table
     */
    int draw(SplittableRandom random, long[] rows, int n);

    /**
     * The sampler of {@code table} under {@code scheme}.
     *
     * @param pool   the node's pool of the table (scheme POOL), else ignored
     * @param refill asks the node's manager to refill the pool in the background; {@code null} if
     *               the node has none (one node, or {@link io.adaps.api.Technique#STATIC}): the
     *               worker whose sample finds the next generation missing then refills inline
     */
    static Sampler of(SamplingScheme scheme, Table table, TableStore store, int clusterSize, SamplePool pool,
                      Runnable refill) {
        KeyDistribution distribution = table.spec().sampling();
        return switch (scheme) {
            case NAIVE, PRELOCALIZE -> new IndependentSampler(distribution, table);
            // On one node every row is local: LOCAL is then exactly the distribution.
            case LOCAL -> clusterSize == 1 ? new IndependentSampler(distribution, table)
                    : new LocalSampler(distribution, table, store);
            case POOL -> new PoolSampler(pool, refill);
        };
    }

    /** A draw from {@code distribution}, checked to be a row of {@code table}. */
    static long drawRow(KeyDistribution distribution, Table table, SplittableRandom random) {
        long row = distribution.draw(random);
        if (row < 0 || row >= table.rows()) {
            throw new IllegalStateException("distribution " + distribution + " drew row " + row + " (expected 0.."
                    + (table.rows() - 1) + ", a row of table '" + table.name() + "')");
        }
        return row;
    }
}
