package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class ShareDealTest {
    @Test
    void everyStretchOfItemsIsDealtInTheSharesProportions() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 50; trial++) {
            int nodes = 1 + random.nextInt(5);
            double[] shares = RandomShares.of(random, nodes);
            long first = random.nextLong(0, 1L << 40);
            int items = 1 + random.nextInt(20_000);
            int[] dealt = new int[nodes];
            for (long i = first; i < first + items; i++) {
                dealt[ShareDeal.nodeOf(i, shares)]++;
            }
            for (int node = 0; node < nodes; node++) {
                // Low discrepancy: off by a few items whatever the stretch, not by its square root.
                assertThat((double) dealt[node]).as("seed %d, shares %s, items %d from %d, node %d", seed,
                        Arrays.toString(shares), items, first, node).isCloseTo(shares[node] * items, within(8.0));
            }
        }
    }

    @Test
    void positionsLieInTheUnitInterval() {
        for (long i : new long[] {0, 1, 2, 1_000_000, Integer.MAX_VALUE, 1L << 40}) {
            assertThat(ShareDeal.position(i)).as("item %d", i).isGreaterThanOrEqualTo(0).isLessThan(1);
        }
        assertThat(ShareDeal.nodeOf(7, new double[] {1})).isZero();
        // A node with no share gets nothing.
        for (long i = 0; i < 1000; i++) {
            assertThat(ShareDeal.nodeOf(i, new double[] {0.5, 0, 0.5})).isNotEqualTo(1);
        }
    }

    @Test
    void refusesWhatAreNotSharesOfTheNode() {
        assertThatThrownBy(() -> ShareDeal.check(new double[] {0.5, 0.5}, 2)).hasMessage("node=2 (expected 0..1)");
        assertThatThrownBy(() -> ShareDeal.check(new double[] {0.5, 0.6}, 0))
                .hasMessage("shares=[0.5, 0.6] (expected a sum of 1)");
        assertThatThrownBy(() -> ShareDeal.check(new double[] {1.5, -0.5}, 0))
                .hasMessage("shares[1]=-0.5 (expected >= 0)");
        assertThatThrownBy(() -> ShareDeal.check(new double[] {Double.NaN, 1}, 0))
                .hasMessage("shares[0]=NaN (expected >= 0)");
        assertThatThrownBy(() -> ShareDeal.check(null, 0)).isInstanceOf(NullPointerException.class);
    }
}
