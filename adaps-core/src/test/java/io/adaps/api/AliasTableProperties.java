package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * For random weight vectors (with zeros, ties and magnitudes from 1e-6 to 1e6), the probabilities
 * the alias tables imply, computed exactly from the thresholds and aliases, are the normalized
 * weights; a key of weight 0 is never reachable.
 */
class AliasTableProperties {
    /** Weights, at least one of them positive. */
    private static double[] weights(Gen gen) {
        double[] weights;
        do {
            weights = gen.list(1, 300, AliasTableProperties::weight).stream()
                    .mapToDouble(Double::doubleValue).toArray();
        } while (Arrays.stream(weights).noneMatch(x -> x > 0));
        return weights;
    }

    private static double weight(Gen gen) {
        return switch (gen.weightedIndex(2, 1, 6)) {
            case 0 -> 0.0;
            case 1 -> 1.0;
            default -> Math.pow(10, gen.doubleIn(-6, 6));
        };
    }

    @Test
    void impliedProbabilitiesAreTheNormalizedWeights() {
        Property.forAll(1_000, AliasTableProperties::weights,
                AliasTableProperties::impliedProbabilitiesAreTheNormalizedWeights);
    }

    private static void impliedProbabilitiesAreTheNormalizedWeights(double[] weights) {
        AliasTable table = AliasTable.ofWeights(weights);
        double sum = 0;
        long positive = 0;
        for (double w : weights) {
            sum += w;
            positive += w > 0 ? 1 : 0;
        }
        double[] implied = AliasTableTest.implied(table);
        for (int key = 0; key < weights.length; key++) {
            assertThat(implied[key]).isCloseTo(weights[key] / sum, within(1e-9));
            assertThat(table.probability(key)).isCloseTo(weights[key] / sum, within(1e-12));
            if (weights[key] == 0) {
                assertThat(table.threshold(key)).isZero();
                assertThat(implied[key]).isZero();
            }
            assertThat(table.threshold(key)).isBetween(0.0, 1.0);
        }
        assertThat(table.size()).isEqualTo(positive);
        assertThat(table.keys()).isEqualTo(weights.length);
    }
}
