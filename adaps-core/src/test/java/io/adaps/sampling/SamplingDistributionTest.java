package io.adaps.sampling;

import static io.adaps.sampling.SamplingSetup.ROWS;
import static io.adaps.sampling.SamplingSetup.VALUE_LENGTH;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.KeyDistribution;
import io.adaps.api.SamplingMetrics;
import io.adaps.api.SamplingScheme;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.ChiSquare;
import io.adaps.testing.Concurrently;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/**
 * How closely each scheme's samples follow the requested distribution, through the public API on
 * one node and on two in-JVM nodes: Pearson's chi-square over the ten deciles of a skewed
 * (unigram^0.75) distribution over {@value SamplingSetup#ROWS} rows, against the 0.001 critical
 * value with 9 degrees of freedom ({@link ChiSquare#CRITICAL_9_DF}). Draws are seeded per node
 * and worker, so the single-node statistics repeat exactly; on a cluster, pool contents also
 * depend on timing (refills racing samples), the other schemes do not.
 */
class SamplingDistributionTest {
    private static final ClusterFixture IN_JVM = ClusterFixture.inJvm();
    private static final int N = 64;
    /** Samples of {@value #N}: 102,400 rows. */
    private static final int SAMPLES = 1600;

    /** Counts the deciles of the rows of {@code samples} samples pulled by {@code worker}. */
    private static long[] sampleDeciles(Worker worker, int samples) {
        TableView view = worker.table("w");
        long[] keys = new long[N];
        float[] values = new float[N * VALUE_LENGTH];
        long[] observed = new long[ChiSquare.BINS];
        for (int s = 0; s < samples; s++) {
            view.pullSample(view.prepareSample(N, worker.clock(), worker.clock() + 1), keys, values);
            for (long key : keys) {
                observed[SamplingSetup.bin(key)]++;
            }
            worker.advanceClock();
        }
        return observed;
    }

    private static double report(String what, long[] observed, double[] p, double scale) {
        double statistic = ChiSquare.statistic(observed, p);
        System.out.printf("%s: chi-square %.2f%s (9 df, critical %.3f at p=0.001)%n", what, statistic,
                scale == 1 ? "" : String.format(" / %.0f = %.2f", scale, statistic / scale), ChiSquare.CRITICAL_9_DF);
        return statistic / scale;
    }

    @ParameterizedTest
    @EnumSource(value = SamplingScheme.class, names = {"NAIVE", "PRELOCALIZE", "LOCAL"})
    void independentSchemesFollowTheDistributionOnOneNode(SamplingScheme scheme) {
        AliasTable distribution = SamplingSetup.skewed();
        try (AdaPS node = SamplingSetup.single(scheme, SamplingSetup.sampled("w", distribution))) {
            long[] observed = sampleDeciles(node.worker(), SAMPLES);
            assertThat(report(scheme + " on one node", observed, SamplingSetup.binProbabilities(distribution), 1))
                    .isLessThan(ChiSquare.CRITICAL_9_DF);
            assertThat(node.metrics().sampling().localRedraws()).as("redraws where everything is local").isZero();
        }
    }

    /**
     * POOL's marginal: with one worker refilling inline and whole generations handed out, every
     * pool entry is handed out exactly {@code reuse} times, so each decile's count is
     * {@code reuse} times that of the generations' independent draws and the statistic is
     * {@code reuse} times theirs: divided by {@code reuse} it is the chi-square of independent
     * draws.
     */
    @Test
    void poolKeysFollowTheDistributionOnOneNode() {
        AliasTable distribution = SamplingSetup.skewed();
        try (AdaPS node = SamplingSetup.single(SamplingScheme.POOL, SamplingSetup.sampled("w", distribution))) {
            int generations = 10;
            int samples = generations * SamplingScheme.DEFAULT_POOL_SIZE * SamplingScheme.DEFAULT_POOL_REUSE / N;
            long[] observed = sampleDeciles(node.worker(), samples);
            SamplingMetrics metrics = node.metrics().sampling();
            assertThat(metrics.poolFallbackDraws()).isZero();
            assertThat(metrics.poolRefills()).isEqualTo(generations + 1);
            assertThat(report("POOL on one node", observed, SamplingSetup.binProbabilities(distribution),
                    SamplingScheme.DEFAULT_POOL_REUSE)).isLessThan(ChiSquare.CRITICAL_9_DF);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SamplingScheme.class, names = {"NAIVE", "PRELOCALIZE"})
    void independentSchemesFollowTheDistributionOnTwoNodes(SamplingScheme scheme) throws InterruptedException {
        AliasTable distribution = SamplingSetup.skewed();
        try (TestCluster cluster = IN_JVM.cluster(2, SamplingSetup.settings(scheme, Technique.ADAPTIVE,
                SamplingSetup.sampled("w", distribution)))) {
            long[][] observed = new long[2][];
            Concurrently.run(2, Duration.ofMinutes(2), t -> observed[t] = sampleDeciles(cluster.node(t).worker(), SAMPLES));
            for (int node = 0; node < 2; node++) {
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                assertThat(report(scheme + " on node " + node + " of 2 (" + Math.round(100 * metrics.localFractionAtPull())
                        + "% local at pull)", observed[node], SamplingSetup.binProbabilities(distribution), 1))
                        .isLessThan(ChiSquare.CRITICAL_9_DF);
            }
        }
    }

    /**
     * POOL on two nodes whose managers refill the pools in the background and keep intent on
     * their keys. Refills may be late, and late tickets become fallback draws that appear once:
     * then a decile count's variance is at most {@code reuse} times that of independent draws
     * (each draw contributes at most {@code reuse} times), so the statistic divided by
     * {@code reuse} is at most as large as independent draws' in distribution: the test at the
     * 0.001 critical value stays a test at level 0.001 or less.
     */
    @Test
    void poolKeysFollowTheDistributionOnTwoNodes() throws InterruptedException {
        AliasTable distribution = SamplingSetup.skewed();
        try (TestCluster cluster = IN_JVM.cluster(2,
                SamplingSetup.settings(SamplingScheme.POOL, Technique.ADAPTIVE, SamplingSetup.sampled("w", distribution)))) {
            long[][] observed = new long[2][];
            int samples = 10 * SamplingScheme.DEFAULT_POOL_SIZE * SamplingScheme.DEFAULT_POOL_REUSE / N;
            Concurrently.run(2, Duration.ofMinutes(2), t -> observed[t] = sampleDeciles(cluster.node(t).worker(), samples));
            for (int node = 0; node < 2; node++) {
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                assertThat(metrics.poolRefills()).as("refills by node %d's manager", node).isGreaterThan(2);
                assertThat(report("POOL on node " + node + " of 2 (" + metrics.poolFallbackDraws() + " fallback draws, "
                                + Math.round(100 * metrics.localFractionAtPull()) + "% local at pull)", observed[node],
                        SamplingSetup.binProbabilities(distribution), SamplingScheme.DEFAULT_POOL_REUSE))
                        .isLessThan(ChiSquare.CRITICAL_9_DF);
            }
        }
    }

    /** Draws distinct rows (counting up), so a row's count is how often one entry was handed out. */
    private static final class DistinctRows implements KeyDistribution {
        private final AtomicLong next = new AtomicLong();
        private final long rows;

        DistinctRows(long rows) {
            this.rows = rows;
        }

        @Override
        public long draw(SplittableRandom random) {
            long row = next.getAndIncrement();
            if (row >= rows) {
                throw new AssertionError("ran out of distinct rows");
            }
            return row;
        }

        @Override
        public double probability(long key) {
            return key >= 0 && key < rows ? 1.0 / rows : 0;
        }

        @Override
        public long size() {
            return rows;
        }
    }

    /**
     * The reuse bound through the whole node: two workers per node on two nodes sample at once
     * while the managers refill the pools; a row (each drawn once, by one pool or as a fallback)
     * is never handed out more than the bound.
     */
    @Test
    void poolEntriesAreNeverHandedOutMoreThanTheReuseBound() throws InterruptedException {
        int reuse = 3;
        int rows = 1 << 18;
        DistinctRows distribution = new DistinctRows(rows);
        try (TestCluster cluster = IN_JVM.cluster(2, SamplingSetup.settings(
                b -> b.sampling(SamplingScheme.POOL).samplePool(256, reuse).technique(Technique.ADAPTIVE),
                TableSpec.of("w", rows, 1).withSampling(distribution)))) {
            int samples = 1500;
            int n = 10;
            long[][] seen = new long[4][samples * n];
            Concurrently.run(4, Duration.ofMinutes(2), t -> {
                Worker worker = cluster.node(t % 2).worker();
                TableView view = worker.table("w");
                float[] values = new float[n];
                for (int s = 0; s < samples; s++) {
                    view.pullSample(view.prepareSample(n, worker.clock(), worker.clock() + 1), seen[t], s * n, values, 0);
                    worker.advanceClock();
                }
            });
            Long2IntOpenHashMap uses = new Long2IntOpenHashMap();
            for (long[] keys : seen) {
                for (long key : keys) {
                    uses.addTo(key, 1);
                }
            }
            int most = uses.values().intStream().max().getAsInt();
            long fallbacks = cluster.node(0).metrics().sampling().poolFallbackDraws()
                    + cluster.node(1).metrics().sampling().poolFallbackDraws();
            System.out.printf("POOL reuse bound %d: most uses of a row %d; %d distinct rows, %d fallback draws%n", reuse,
                    most, uses.size(), fallbacks);
            assertThat(most).isLessThanOrEqualTo(reuse);
            assertThat(uses.size()).as("distinct rows of %d handed out", 4 * samples * n)
                    .isLessThan(4 * samples * n);
        }
    }

    /**
     * LOCAL on two nodes under STATIC placement (rows stay at their range-partitioned homes: node
     * 0 holds rows 0..499, deciles 0-4; node 1 the rest), where the local mass {@code L} of each
     * node is known: the deciles follow the documented effective distribution (local rows scaled
     * by {@code (1 - (1 - L)^R) / L}, remote ones by {@code (1 - L)^(R - 1)}), and the measured
     * total-variation distance from the requested distribution matches
     * {@code (1 - L)(1 - (1 - L)^(R - 1))} (the scaling is constant within local and within remote
     * deciles, so the decile distance equals the row distance).
     */
    @Test
    void localFollowsItsEffectiveDistributionWithAKnownPlacement() throws InterruptedException {
        // Mildly skewed (weight 2000 - row), so that both nodes' local masses are moderate
        // (0.58 and 0.42) and the remote deciles still expect enough draws for the test.
        double[] weights = new double[ROWS];
        for (int r = 0; r < ROWS; r++) {
            weights[r] = 2000 - r;
        }
        AliasTable distribution = AliasTable.ofWeights(weights);
        int attempts = SamplingScheme.LOCAL_ATTEMPTS;
        try (TestCluster cluster = IN_JVM.cluster(2, SamplingSetup.settings(SamplingScheme.LOCAL, Technique.STATIC,
                SamplingSetup.sampled("w", distribution)))) {
            long[][] observed = new long[2][];
            Concurrently.run(2, Duration.ofMinutes(2), t -> observed[t] = sampleDeciles(cluster.node(t).worker(), SAMPLES));
            double[] p = SamplingSetup.binProbabilities(distribution);
            for (int node = 0; node < 2; node++) {
                double local = 0;
                for (int b = 0; b < ChiSquare.BINS; b++) {
                    local += isLocal(node, b) ? p[b] : 0;
                }
                double localFactor = (1 - Math.pow(1 - local, attempts)) / local;
                double remoteFactor = Math.pow(1 - local, attempts - 1);
                double[] q = new double[ChiSquare.BINS];
                for (int b = 0; b < ChiSquare.BINS; b++) {
                    q[b] = p[b] * (isLocal(node, b) ? localFactor : remoteFactor);
                }
                double expectedDistance = (1 - local) * (1 - Math.pow(1 - local, attempts - 1));
                long total = (long) SAMPLES * N;
                double measuredDistance = 0;
                for (int b = 0; b < ChiSquare.BINS; b++) {
                    measuredDistance += Math.abs((double) observed[node][b] / total - p[b]) / 2;
                }
                SamplingMetrics metrics = cluster.node(node).metrics().sampling();
                double statistic = report(String.format("LOCAL on node %d of 2, L=%.3f (%d redraws, %.1f%% local at pull)",
                        node, local, metrics.localRedraws(), 100 * metrics.localFractionAtPull()), observed[node], q, 1);
                System.out.printf("LOCAL on node %d: TV distance measured %.4f, formula %.4f%n", node, measuredDistance,
                        expectedDistance);
                assertThat(statistic).isLessThan(ChiSquare.CRITICAL_9_DF);
                assertThat(measuredDistance).isCloseTo(expectedDistance, org.assertj.core.data.Offset.offset(0.01));
                // Under STATIC every row is read where it was found: the local fraction at pull is
                // the local mass of q.
                assertThat(metrics.localFractionAtPull()).isCloseTo(local * localFactor,
                        org.assertj.core.data.Offset.offset(0.01));
            }
        }
    }

    private static boolean isLocal(int node, int decile) {
        return node == 0 ? decile < ChiSquare.BINS / 2 : decile >= ChiSquare.BINS / 2;
    }
}
