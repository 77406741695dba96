package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

class ZipfSamplerTest {
    private static final int SAMPLES = 400_000;

    @Test
    void frequenciesFollowTheZipfLawByChiSquare() {
        assertChiSquareFits(new ZipfSampler(1_000, 1.1), 7);
    }

    @Test
    void exponentZeroIsUniformByChiSquare() {
        assertChiSquareFits(new ZipfSampler(1_000, 0), 8);
    }

    /**
     * Pearson's chi-square test: the 60 most probable ranks one by one and the rest as one bucket,
     * against the critical value at p = 0.001 for 60 degrees of freedom (a seeded run, so the
     * result is fixed; a wrong distribution misses by orders of magnitude).
     */
    private static void assertChiSquareFits(ZipfSampler sampler, long seed) {
        int buckets = 61;
        long[] counts = new long[buckets];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < SAMPLES; i++) {
            counts[Math.min(sampler.sample(random), buckets - 1)]++;
        }
        double chiSquare = 0;
        double headProbability = 0;
        for (int k = 0; k < buckets; k++) {
            double p = k < buckets - 1 ? sampler.probability(k) : 1 - headProbability;
            headProbability += k < buckets - 1 ? p : 0;
            double expected = p * SAMPLES;
            chiSquare += (counts[k] - expected) * (counts[k] - expected) / expected;
        }
        assertThat(chiSquare).isLessThan(criticalChiSquare(buckets - 1, 3.090));
    }

    /** The Wilson-Hilferty approximation of the chi-square quantile whose standard normal quantile is {@code z}. */
    private static double criticalChiSquare(int degreesOfFreedom, double z) {
        double a = 2.0 / (9 * degreesOfFreedom);
        return degreesOfFreedom * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    @Test
    void theHeadIsAsMuchMoreFrequentAsTheExponentSays() {
        double exponent = 1.1;
        ZipfSampler sampler = new ZipfSampler(10_000, exponent);
        long[] counts = new long[10];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < SAMPLES; i++) {
            int rank = sampler.sample(random);
            if (rank < counts.length) {
                counts[rank]++;
            }
        }
        // count(0) / count(9) should be 10^1.1 = 12.6; its relative standard error is about
        // sqrt(1/count(0) + 1/count(9)), so allow five of those.
        double ratio = (double) counts[0] / counts[9];
        double relativeError = Math.sqrt(1.0 / counts[0] + 1.0 / counts[9]);
        double expectedRatio = Math.pow(10, exponent);
        assertThat(ratio).isCloseTo(expectedRatio, offset(5 * relativeError * expectedRatio));
        // The first rank alone takes about 1/H(10000, 1.1) = 15% of the draws, far above uniform.
        assertThat((double) counts[0] / SAMPLES).isCloseTo(sampler.probability(0), offset(0.005));
        assertThat(sampler.probability(0)).isGreaterThan(0.14);
    }

    record Law(int n, double exponent, long seed) {
    }

    @Test
    void probabilitiesSumToOneAndSamplesStayInRange() {
        Property.forAll(50, gen -> new Law(gen.intIn(1, 2_000), gen.doubleIn(0, 3), gen.longs()),
                ZipfSamplerTest::probabilitiesSumToOneAndSamplesStayInRange);
    }

    private static void probabilitiesSumToOneAndSamplesStayInRange(Law law) {
        int n = law.n();
        double exponent = law.exponent();
        ZipfSampler sampler = new ZipfSampler(n, exponent);
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += sampler.probability(k);
            if (k > 0) {
                assertThat(sampler.probability(k)).isLessThanOrEqualTo(sampler.probability(k - 1));
            }
        }
        assertThat(sum).isCloseTo(1.0, offset(1e-9));
        SplittableRandom random = new SplittableRandom(law.seed());
        for (int i = 0; i < 1_000; i++) {
            assertThat(sampler.sample(random)).isBetween(0, n - 1);
        }
    }

    @Test
    void refusesBadArguments() {
        assertThatThrownBy(() -> new ZipfSampler(0, 1)).hasMessage("n=0 (expected > 0)");
        assertThatThrownBy(() -> new ZipfSampler(5, -0.5)).hasMessage("exponent=-0.5 (expected a finite value >= 0)");
        assertThatThrownBy(() -> new ZipfSampler(5, Double.NaN)).hasMessage("exponent=NaN (expected a finite value >= 0)");
        assertThatThrownBy(() -> new ZipfSampler(5, 1).probability(5)).hasMessage("rank=5 (expected 0..4)");
    }
}
