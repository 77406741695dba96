package io.adaps.sampling;

import io.adaps.api.AliasTable;
import io.adaps.api.KeyDistribution;
import io.adaps.testing.ChiSquare;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.SamplingScheme;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.cluster.TestCluster;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;

/** Tables, distributions and nodes shared by the sampling tests. */
final class SamplingSetup {
    static final int ROWS = 1000;
    static final int VALUE_LENGTH = 3;
    private static final AtomicInteger PORTS = new AtomicInteger(1);

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

    /** {@code nodes} in-JVM nodes with {@code scheme}, {@code technique}, range partitioning and the tables. */
    static TestCluster cluster(int nodes, SamplingScheme scheme, Technique technique, TableSpec... tables)
            throws InterruptedException {
        return cluster(nodes, b -> b.sampling(scheme).technique(technique), tables);
    }

    static TestCluster cluster(int nodes, UnaryOperator<AdaPS.Builder> settings, TableSpec... tables)
            throws InterruptedException {
        InJvmNetwork network = new InJvmNetwork();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            addresses.add("injvm:" + PORTS.getAndIncrement());
        }
        return new TestCluster(nodes, addresses, node -> new InJvmTransport(network), b -> {
            settings.apply(b).partitioning(Partitioning.RANGE);
            for (TableSpec table : tables) {
                b.table(table);
            }
            return b;
        });
    }
}
