package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.adaps.testing.ChiSquare;

class UniformKeysTest {
    @Test
    void probabilitiesAreExactInsideTheRangeAndZeroOutside() {
        UniformKeys keys = new UniformKeys(5, 15);
        assertThat(keys.size()).isEqualTo(10);
        for (long key = 5; key < 15; key++) {
            assertThat(keys.probability(key)).isEqualTo(0.1);
        }
        assertThat(keys.probability(4)).isZero();
        assertThat(keys.probability(15)).isZero();
        assertThat(keys.probability(-1)).isZero();
        assertThat(new UniformKeys(0, 1).probability(0)).isEqualTo(1.0);
    }

    @Test
    void drawsFitTheUniformDistribution() {
        double[] tenth = new double[ChiSquare.BINS];
        Arrays.fill(tenth, 0.1);
        UniformKeys keys = new UniformKeys(5, 15);
        assertThat(ChiSquare.statistic(keys, 1, 100_000, key -> (int) (key - 5), tenth))
                .isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void drawsFromAHugeRangeFitTheUniformDistributionInTenBins() {
        double[] tenth = new double[ChiSquare.BINS];
        Arrays.fill(tenth, 0.1);
        long from = 3_000_000_000L;
        long to = from + 10_000_000_000_000L;
        long binWidth = (to - from) / ChiSquare.BINS;
        UniformKeys keys = new UniformKeys(from, to);
        assertThat(keys.size()).isEqualTo(10_000_000_000_000L);
        assertThat(ChiSquare.statistic(keys, 2, 100_000,
                key -> key >= from && key < to ? (int) ((key - from) / binWidth) : -1, tenth))
                .isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void aSingleKeyIsAlwaysDrawn() {
        UniformKeys keys = new UniformKeys(7, 8);
        SplittableRandom random = new SplittableRandom(3);
        for (int d = 0; d < 1000; d++) {
            assertThat(keys.draw(random)).isEqualTo(7);
        }
    }

    @Test
    void rejectsANegativeOrEmptyRange() {
        assertThatThrownBy(() -> new UniformKeys(-1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("from=-1 (expected >= 0)");
        assertThatThrownBy(() -> new UniformKeys(5, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("from=5, to=5 (expected from < to)");
        assertThatThrownBy(() -> new UniformKeys(5, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("from=5, to=4 (expected from < to)");
    }
}
