package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.adaps.testing.ChiSquare;

class AliasTableTest {
    private static final int DRAWS = 200_000;

    /** The probability of each key that the tables imply: see the class comment of AliasTable. */
    static double[] implied(AliasTable table) {
        int n = table.keys();
        double[] mass = new double[n];
        for (int column = 0; column < n; column++) {
            mass[column] += table.threshold(column);
            mass[table.alias(column)] += 1 - table.threshold(column);
        }
        for (int key = 0; key < n; key++) {
            mass[key] /= n;
        }
        return mass;
    }

    private static double chiSquare(AliasTable table, long seed) {
        double[] binProbability = new double[ChiSquare.BINS];
        int[] binOf = new int[table.keys()];
        Arrays.fill(binOf, -1);
        int bin = 0;
        for (int key = 0; key < table.keys(); key++) {
            if (table.probability(key) > 0) {
                binOf[key] = bin;
                binProbability[bin++] = table.probability(key);
            }
        }
        assertThat(bin).isEqualTo(ChiSquare.BINS);
        return ChiSquare.statistic(table, seed, DRAWS, key -> binOf[(int) key], binProbability);
    }

    @Test
    void probabilitiesAreTheNormalizedWeights() {
        AliasTable table = AliasTable.ofWeights(new double[] {1, 0, 3, 4});
        assertThat(table.keys()).isEqualTo(4);
        assertThat(table.size()).isEqualTo(3);
        assertThat(table.probability(0)).isEqualTo(0.125);
        assertThat(table.probability(1)).isZero();
        assertThat(table.probability(2)).isEqualTo(0.375);
        assertThat(table.probability(3)).isEqualTo(0.5);
        assertThat(table.probability(-1)).isZero();
        assertThat(table.probability(4)).isZero();
        assertThat(implied(table)).containsExactly(new double[] {0.125, 0, 0.375, 0.5}, within(1e-15));
    }

    @Test
    void hugeWeightsDoNotOverflowTheSum() {
        AliasTable table = AliasTable.ofWeights(new double[] {Double.MAX_VALUE, Double.MAX_VALUE, 0});
        assertThat(table.probability(0)).isEqualTo(0.5);
        assertThat(table.probability(1)).isEqualTo(0.5);
        assertThat(table.probability(2)).isZero();
    }

    @Test
    void skewedDrawsFitTheWeights() {
        double[] weights = new double[10];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = 1 << i;
        }
        assertThat(chiSquare(AliasTable.ofWeights(weights), 11)).isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void drawsWithZeroWeightsFitTheWeightsAndNeverReturnAZeroWeightKey() {
        double[] weights = {0, 5, 0, 1, 2, 0, 7, 3, 3, 0, 9, 4, 0.5, 0, 6};
        AliasTable table = AliasTable.ofWeights(weights);
        assertThat(table.size()).isEqualTo(10);
        for (int key = 0; key < weights.length; key++) {
            if (weights[key] == 0) {
                assertThat(table.threshold(key)).isZero();
            }
        }
        // The chi-square binning fails on a draw of a zero-weight key: it has no bin.
        assertThat(chiSquare(table, 12)).isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void drawsFromManyRandomWeightsFitInTenBinsOfKeys() {
        SplittableRandom weightsRandom = new SplittableRandom(13);
        double[] weights = new double[10_000];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = weightsRandom.nextInt(4) == 0 ? 0 : weightsRandom.nextDouble() * (i % 100 + 1);
        }
        AliasTable table = AliasTable.ofWeights(weights);
        double[] binProbability = new double[ChiSquare.BINS];
        int width = weights.length / ChiSquare.BINS;
        for (int key = 0; key < weights.length; key++) {
            binProbability[key / width] += table.probability(key);
        }
        assertThat(ChiSquare.statistic(table, 14, DRAWS, key -> (int) (key / width), binProbability))
                .isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void theChiSquareTestRejectsDrawsFromAnotherDistribution() {
        double[] weights = {10, 11, 10, 10, 10, 10, 10, 10, 10, 9};
        AliasTable table = AliasTable.ofWeights(weights);
        double[] tenth = new double[ChiSquare.BINS];
        Arrays.fill(tenth, 0.1);
        assertThat(ChiSquare.statistic(table, 15, DRAWS, key -> (int) key, tenth))
                .isGreaterThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void aSingleKeyIsAlwaysDrawn() {
        AliasTable one = AliasTable.ofWeights(new double[] {0.3});
        AliasTable oneOfThree = AliasTable.ofWeights(new double[] {0, 0, 2});
        assertThat(one.size()).isEqualTo(1);
        assertThat(one.probability(0)).isEqualTo(1.0);
        assertThat(oneOfThree.size()).isEqualTo(1);
        assertThat(oneOfThree.probability(2)).isEqualTo(1.0);
        SplittableRandom random = new SplittableRandom(16);
        for (int d = 0; d < 1000; d++) {
            assertThat(one.draw(random)).isZero();
            assertThat(oneOfThree.draw(random)).isEqualTo(2);
        }
    }

    @Test
    void unigramRaisesCountsToThePower() {
        long[] counts = {100, 0, 1, 16, 1_000_000_000_000L};
        AliasTable table = AliasTable.unigram(counts, 0.75);
        double sum = 0;
        for (long count : counts) {
            sum += Math.pow(count, 0.75);
        }
        for (int key = 0; key < counts.length; key++) {
            assertThat(table.probability(key)).isCloseTo(Math.pow(counts[key], 0.75) / sum, within(1e-15));
        }
        assertThat(table.probability(1)).isZero();
        assertThat(table.size()).isEqualTo(4);
    }

    @Test
    void unigramPowersDoNotOverflow() {
        AliasTable table = AliasTable.unigram(new long[] {Long.MAX_VALUE, Long.MAX_VALUE / 2, 0}, 40);
        assertThat(table.probability(0)).isCloseTo(1 / (1 + Math.pow(0.5, 40)), within(1e-12));
        assertThat(table.probability(1)).isCloseTo(Math.pow(0.5, 40) / (1 + Math.pow(0.5, 40)), within(1e-12));
        assertThat(table.probability(2)).isZero();
    }

    @Test
    void unigramWithPowerZeroIsUniformOverTheSeenKeys() {
        AliasTable table = AliasTable.unigram(new long[] {3, 0, 50, 1}, 0);
        assertThat(table.probability(0)).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(table.probability(1)).isZero();
        assertThat(table.probability(2)).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(table.probability(3)).isCloseTo(1.0 / 3, within(1e-15));
    }

    @Test
    void rejectsInvalidWeights() {
        assertThatThrownBy(() -> AliasTable.ofWeights(null))
                .isInstanceOf(NullPointerException.class).hasMessage("weights=null (expected a value)");
        assertThatThrownBy(() -> AliasTable.ofWeights(new double[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("weights.length=0 (expected > 0)");
        assertThatThrownBy(() -> AliasTable.ofWeights(new double[] {1, -0.5}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights[1]=-0.5 (expected a finite value >= 0)");
        assertThatThrownBy(() -> AliasTable.ofWeights(new double[] {1, Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights[1]=NaN (expected a finite value >= 0)");
        assertThatThrownBy(() -> AliasTable.ofWeights(new double[] {Double.POSITIVE_INFINITY}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights[0]=Infinity (expected a finite value >= 0)");
        assertThatThrownBy(() -> AliasTable.ofWeights(new double[] {0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights=all 3 zero (expected a weight > 0)");
    }

    @Test
    void rejectsInvalidCountsAndPowers() {
        assertThatThrownBy(() -> AliasTable.unigram(null, 0.75))
                .isInstanceOf(NullPointerException.class).hasMessage("counts=null (expected a value)");
        assertThatThrownBy(() -> AliasTable.unigram(new long[0], 0.75))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("counts.length=0 (expected > 0)");
        assertThatThrownBy(() -> AliasTable.unigram(new long[] {4, -1}, 0.75))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("counts[1]=-1 (expected >= 0)");
        assertThatThrownBy(() -> AliasTable.unigram(new long[] {0, 0}, 0.75))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("counts=all 2 zero (expected a count > 0)");
        assertThatThrownBy(() -> AliasTable.unigram(new long[] {1}, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("power=NaN (expected a finite value)");
        assertThatThrownBy(() -> AliasTable.unigram(new long[] {1}, Double.NEGATIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("power=-Infinity (expected a finite value)");
    }
}
