package io.adaps.sampling;

import java.util.SplittableRandom;

import io.adaps.api.KeyDistribution;
import io.adaps.api.Table;

/**
 * {@link io.adaps.api.SamplingScheme#NAIVE} and {@link io.adaps.api.SamplingScheme#PRELOCALIZE}
 * (whose intent the worker signals after the draw): independent draws from the distribution,
 * exactly as requested.
 */
final class IndependentSampler implements Sampler {
    private final KeyDistribution distribution;
    private final Table table;

    IndependentSampler(KeyDistribution distribution, Table table) {
        this.distribution = distribution;
        this.table = table;
    }

    @Override
    public int draw(SplittableRandom random, long[] rows, int n) {
        for (int i = 0; i < n; i++) {
            rows[i] = Sampler.drawRow(distribution, table, random);
        }
        return 0;
    }
}
