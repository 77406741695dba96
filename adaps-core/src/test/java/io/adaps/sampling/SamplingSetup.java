package io.adaps.sampling;

import java.util.function.UnaryOperator;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.KeyDistribution;
import io.adaps.api.Partitioning;
import io.adaps.api.SamplingScheme;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.testing.ChiSquare;

/** Tables, distributions and node settings shared by the sampling tests. */
final class SamplingSetup {
    static final int ROWS = 1000;
    static final int VALUE_LENGTH = 3;

    private SamplingSetup() {
    }

    /** Word-like frequencies: unigram counts {@code ~ 1/(r+1)} raised to 0.75, over {@value #ROWS} rows. */
    static AliasTable skewed() {
        long[] counts = new long[ROWS];
        for (int r = 0; r < ROWS; r++) {
            counts[r] = 1_000_000L / (r + 1);
        }
        return AliasTable.unigram(counts, 0.75);
    }

    /** A sampled table of {@value #ROWS} rows, {@value #VALUE_LENGTH} floats each. */
    static TableSpec sampled(String name, KeyDistribution distribution) {
        return TableSpec.of(name, ROWS, VALUE_LENGTH).withSampling(distribution);
    }

    /** The bin of a row: its decile. */
    static int bin(long row) {
        return (int) (row * ChiSquare.BINS / ROWS);
    }

    /** The exact probability of each decile under {@code distribution}. */
    static double[] binProbabilities(KeyDistribution distribution) {
        double[] p = new double[ChiSquare.BINS];
        for (long row = 0; row < ROWS; row++) {
            p[bin(row)] += distribution.probability(row);
        }
        return p;
    }

    /** A node on its own with {@code scheme} and the tables. */
    static AdaPS single(SamplingScheme scheme, TableSpec... tables) {
        AdaPS.Builder builder = AdaPS.builder().sampling(scheme);
        for (TableSpec table : tables) {
            builder.table(table);
        }
        return builder.build();
    }

    /** The settings of a cluster node: {@code scheme}, {@code technique}, range partitioning and the tables. */
    static UnaryOperator<AdaPS.Builder> settings(SamplingScheme scheme, Technique technique, TableSpec... tables) {
        return settings(b -> b.sampling(scheme).technique(technique), tables);
    }

    /** {@code settings}, range partitioning and the tables. */
    static UnaryOperator<AdaPS.Builder> settings(UnaryOperator<AdaPS.Builder> settings, TableSpec... tables) {
        return b -> {
            settings.apply(b).partitioning(Partitioning.RANGE);
            for (TableSpec table : tables) {
                b.table(table);
            }
            return b;
        };
    }
}
