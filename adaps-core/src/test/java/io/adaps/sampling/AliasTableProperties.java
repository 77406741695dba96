package io.adaps.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * For random weight vectors (with zeros, ties and magnitudes from 1e-6 to 1e6), the probabilities
 * the alias tables imply, computed exactly from the thresholds and aliases, are the normalized
 * weights; a key of weight 0 is never reachable.
 */
class AliasTableProperties {
    @Provide
    Arbitrary<double[]> weights() {
        Arbitrary<Double> weight = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(0.0)),
                Tuple.of(1, Arbitraries.just(1.0)),
                Tuple.of(6, Arbitraries.doubles().between(-6, 6).map(exponent -> Math.pow(10, exponent))));
        return weight.array(double[].class).ofMinSize(1).ofMaxSize(300)
                .filter(w -> Arrays.stream(w).anyMatch(x -> x > 0));
    }

    @Property
    void impliedProbabilitiesAreTheNormalizedWeights(@ForAll("weights") double[] weights) {
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
