package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SpeedSharesTest {
    private static final double[] HALVES = {0.5, 0.5};

    @Test
    void sharesMoveHalfWayTowardsTheSpeeds() {
        // Equal halves, one node twice as fast: from 1/2 half way to 2/3.
        assertThat(SpeedShares.next(HALVES, new long[] {1000, 1000}, new double[] {1, 2}))
                .containsExactly(new double[] {7.0 / 12, 5.0 / 12}, within(1e-6));
        // Shares that match the speeds stay.
        assertThat(SpeedShares.next(new double[] {0.75, 0.25}, new long[] {3000, 1000}, new double[] {2, 2}))
                .containsExactly(0.75, 0.25);
        assertThat(SpeedShares.next(new double[] {1}, new long[] {5}, new double[] {3})).containsExactly(1.0);
    }

    @Test
    void sharesStayUnlessMovingThemShortensTheEpochByTheLeastGain() {
        // Busy 1 and b for equal halves: shares of the speeds save (b - 1) / (b + 1) of the epoch.
        // 4% and 20% apart save 2% and 9%, under 10%: they stay; 25% apart saves 11%: they move half way.
        assertThat(SpeedShares.next(HALVES, new long[] {1000, 1000}, new double[] {1, 1.04})).containsExactly(HALVES);
        assertThat(SpeedShares.next(HALVES, new long[] {1000, 1000}, new double[] {1, 1.2})).containsExactly(HALVES);
        assertThat(SpeedShares.next(HALVES, new long[] {1000, 1000}, new double[] {1, 1.25})[0])
                .isCloseTo(0.5 + (1.25 / 2.25 - 0.5) / 2, within(1e-6));
        // Back from where a passing difference left them, once the speeds are equal again.
        assertThat(SpeedShares.next(new double[] {0.5625, 0.4375}, new long[] {1125, 875}, new double[] {1, 0.7777})[0])
                .isCloseTo(0.53125, within(1e-3));
    }

    @Test
    void aLastingSlownessIsFollowedWithinAFewEpochs() {
        // The word2vec report's halves: 4.61 and 7.53 s for the same words.
        double[] rate = {1 / 4.61, 1 / 7.53};
        double[] shares = SpeedShares.even(2);
        for (int epoch = 0; epoch < 5; epoch++) {
            long[] trained = {Math.round(1e6 * shares[0]), Math.round(1e6 * shares[1])};
            shares = SpeedShares.next(shares, trained,
                    new double[] {trained[0] / rate[0] / 1e6, trained[1] / rate[1] / 1e6});
        }
        // Half way each epoch until shares of the speeds would save less than 10%: within a few percent of 62%.
        assertThat(shares[0]).isCloseTo(0.620, within(0.04));
    }

    @Test
    void withoutFiguresFromEveryNodeTheSharesStay() {
        double[] shares = {0.625, 0.375};
        assertThat(SpeedShares.next(shares, new long[] {10, 10}, new double[] {0, 2})).containsExactly(shares);
        assertThat(SpeedShares.next(SpeedShares.even(3), new long[] {0, 10, 10}, new double[] {1, 2, 1}))
                .containsExactly(SpeedShares.even(3));
        assertThat(SpeedShares.next(shares, new long[] {10, 10}, new double[] {Double.POSITIVE_INFINITY, 1}))
                .containsExactly(shares);
        assertThat(SpeedShares.next(shares, new long[] {10, 10}, new double[] {Double.NaN, 1})).containsExactly(shares);
    }

    @Test
    void aStalledNodeKeepsAQuarterOfAnEvenShare() {
        double[] shares = SpeedShares.even(4);
        for (int epoch = 0; epoch < 20; epoch++) {
            long[] trained = Arrays.stream(shares).mapToLong(share -> Math.round(1e6 * share)).toArray();
            // Nodes 1 and 3 take a million times as long.
            shares = SpeedShares.next(shares, trained, new double[] {1, 1e6, 1, 1e6});
        }
        // Half way each epoch towards the floor, until the floor would save less than 10%.
        double floor = SpeedShares.MIN_SHARE_OF_EVEN / 4;
        assertThat(shares[1]).isBetween(floor, floor * 1.1);
        assertThat(shares[3]).isBetween(floor, floor * 1.1);
        assertThat(shares[0]).isCloseTo(shares[2], within(1e-5)).isGreaterThan(0.4);
    }

    @Test
    void sharesSumToOneStayAboveTheFloorAFloatHoldsThemAndFasterNodesGetMore() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 1000; trial++) {
            int nodes = 1 + random.nextInt(16);
            double[] from = SpeedShares.even(nodes);
            long[] trained = random.longs(nodes, 1, 1_000_000).toArray();
            // Busy times over six orders of magnitude, so that some shares fall below the floor.
            double[] busy = random.doubles(nodes).map(u -> Math.pow(10, 6 * u - 3)).toArray();
            double[] shares = SpeedShares.next(from, trained, busy);
            String context = "seed " + seed + ", trained " + Arrays.toString(trained) + ", busy " + Arrays.toString(busy);
            assertThat(Arrays.stream(shares).sum()).as(context).isEqualTo(1.0);
            for (int i = 0; i < nodes; i++) {
                assertThat(shares[i]).as(context).isGreaterThanOrEqualTo(SpeedShares.MIN_SHARE_OF_EVEN / nodes - 1e-5);
                // A round of ClusterStats holds them as floats: exactly.
                assertThat((double) (float) shares[i]).as(context).isEqualTo(shares[i]);
            }
            // The same figures give the same shares, to the bit: every node computes them alike.
            assertThat(SpeedShares.next(from.clone(), trained.clone(), busy.clone())).as(context)
                    .containsExactly(shares);

            // From equal shares and equal units, a faster node never gets less.
            long[] equal = new long[nodes];
            Arrays.fill(equal, 1000);
            double[] fromEqual = SpeedShares.next(from, equal, busy);
            for (int i = 0; i < nodes; i++) {
                for (int j = 0; j < nodes; j++) {
                    if (busy[i] < busy[j]) {
                        // Up to the rounding to multiples of 2^-20 that the last node's share takes in.
                        assertThat(fromEqual[i]).as(context).isGreaterThanOrEqualTo(fromEqual[j] - 1e-5);
                    }
                }
            }
        }
    }

    @Test
    void evenSharesAreExactInAFloatAndSumToOne() {
        for (int nodes = 1; nodes <= 16; nodes++) {
            double[] shares = SpeedShares.even(nodes);
            assertThat(Arrays.stream(shares).sum()).isEqualTo(1.0);
            for (double share : shares) {
                assertThat(share).isCloseTo(1.0 / nodes, within(1e-5));
                assertThat((double) (float) share).isEqualTo(share);
            }
        }
        assertThat(SpeedShares.even(2)).containsExactly(0.5, 0.5);
    }

    @Test
    void describesTheSharesAsPercentages() {
        assertThat(SpeedShares.describe(new double[] {0.618, 0.382})).isEqualTo("61.8% / 38.2%");
    }

    @Test
    void refusesFiguresThatAreNotOnePerNode() {
        assertThatThrownBy(() -> SpeedShares.even(0)).hasMessage("nodes=0 (expected > 0)");
        assertThatThrownBy(() -> SpeedShares.next(new double[0], new long[0], new double[0]))
                .hasMessage("shares.length=0 (expected one share per node)");
        assertThatThrownBy(() -> SpeedShares.next(HALVES, new long[2], new double[1]))
                .hasMessage("trained.length=2, busySeconds.length=1 (expected 2, shares.length)");
        assertThatThrownBy(() -> SpeedShares.next(new double[] {0.5, 0.6}, new long[2], new double[2]))
                .hasMessage("shares=[0.5, 0.6] (expected a sum of 1)");
        assertThatThrownBy(() -> SpeedShares.next(HALVES, null, new double[2]))
                .isInstanceOf(NullPointerException.class);
    }
}
