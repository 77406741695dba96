package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SpeedSharesTest {
    @Test
    void sharesMoveHalfWayTowardsTheSpeeds() {
        // Equal halves, one node twice as fast: from 1/2 half way to 2/3.
        assertThat(SpeedShares.next(new long[] {1000, 1000}, new double[] {1, 2}))
                .containsExactly(new double[] {7.0 / 12, 5.0 / 12}, within(1e-12));
        // Shares that match the speeds stay.
        assertThat(SpeedShares.next(new long[] {3000, 1000}, new double[] {2, 2}))
                .containsExactly(new double[] {0.75, 0.25}, within(1e-12));
        assertThat(SpeedShares.next(new long[] {5}, new double[] {3})).containsExactly(1.0);
    }

    @Test
    void aLastingSlownessIsFollowedWithinAFewEpochs() {
        // The word2vec report's halves: 4.61 and 7.53 s for the same words.
        double[] rate = {1 / 4.61, 1 / 7.53};
        double[] shares = SpeedShares.even(2);
        for (int epoch = 0; epoch < 5; epoch++) {
            long[] trained = {Math.round(1e6 * shares[0]), Math.round(1e6 * shares[1])};
            shares = SpeedShares.next(trained, new double[] {trained[0] / rate[0] / 1e6, trained[1] / rate[1] / 1e6});
        }
        assertThat(shares[0]).isCloseTo(0.620, within(0.005));
    }

    @Test
    void withoutFiguresFromEveryNodeTheSharesAreEven() {
        assertThat(SpeedShares.next(new long[] {10, 10}, new double[] {0, 2})).containsExactly(0.5, 0.5);
        assertThat(SpeedShares.next(new long[] {0, 10, 10}, new double[] {1, 2, 1})).containsExactly(SpeedShares.even(3));
        assertThat(SpeedShares.next(new long[] {10, 10}, new double[] {Double.POSITIVE_INFINITY, 1}))
                .containsExactly(0.5, 0.5);
        assertThat(SpeedShares.next(new long[] {10, 10}, new double[] {Double.NaN, 1})).containsExactly(0.5, 0.5);
    }

    @Test
    void aStalledNodeKeepsAQuarterOfAnEvenShare() {
        double[] shares = SpeedShares.even(4);
        for (int epoch = 0; epoch < 20; epoch++) {
            long[] trained = Arrays.stream(shares).mapToLong(share -> Math.round(1e6 * share)).toArray();
            // Nodes 1 and 3 take a million times as long.
            shares = SpeedShares.next(trained, new double[] {1, 1e6, 1, 1e6});
        }
        assertThat(shares[1]).isCloseTo(SpeedShares.MIN_SHARE_OF_EVEN / 4, within(1e-6));
        assertThat(shares[3]).isCloseTo(SpeedShares.MIN_SHARE_OF_EVEN / 4, within(1e-6));
        assertThat(shares[0]).isCloseTo((1 - 2 * 0.0625) / 2, within(1e-6));
    }

    @Test
    void sharesSumToOneStayAboveTheFloorAndRankAsTheSpeedsOfEqualShares() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 1000; trial++) {
            int nodes = 1 + random.nextInt(16);
            long[] trained = random.longs(nodes, 1, 1_000_000).toArray();
            // Busy times over six orders of magnitude, so that some shares fall below the floor.
            double[] busy = random.doubles(nodes).map(u -> Math.pow(10, 6 * u - 3)).toArray();
            double[] shares = SpeedShares.next(trained, busy);
            String context = "seed " + seed + ", trained " + Arrays.toString(trained) + ", busy " + Arrays.toString(busy);
            assertThat(Arrays.stream(shares).sum()).as(context).isCloseTo(1.0, within(1e-9));
            for (int i = 0; i < nodes; i++) {
                assertThat(shares[i]).as(context).isGreaterThanOrEqualTo(SpeedShares.MIN_SHARE_OF_EVEN / nodes - 1e-15);
            }
            // The same figures give the same shares, to the bit: every node computes them alike.
            assertThat(SpeedShares.next(trained.clone(), busy.clone())).as(context).containsExactly(shares);

            // From equal shares, a faster node never gets less.
            long[] equal = new long[nodes];
            Arrays.fill(equal, 1000);
            double[] fromEqual = SpeedShares.next(equal, busy);
            for (int i = 0; i < nodes; i++) {
                for (int j = 0; j < nodes; j++) {
                    if (busy[i] < busy[j]) {
                        assertThat(fromEqual[i]).as(context).isGreaterThanOrEqualTo(fromEqual[j]);
                    }
                }
            }
        }
    }

    @Test
    void describesTheSharesAsPercentages() {
        assertThat(SpeedShares.describe(new double[] {0.618, 0.382})).isEqualTo("61.8% / 38.2%");
    }

    @Test
    void refusesFiguresThatAreNotOnePerNode() {
        assertThatThrownBy(() -> SpeedShares.even(0)).hasMessage("nodes=0 (expected > 0)");
        assertThatThrownBy(() -> SpeedShares.next(new long[0], new double[0]))
                .hasMessage("trained.length=0 (expected > 0)");
        assertThatThrownBy(() -> SpeedShares.next(new long[2], new double[1]))
                .hasMessage("busySeconds.length=1 (expected 2, trained.length)");
        assertThatThrownBy(() -> SpeedShares.next(null, new double[1])).isInstanceOf(NullPointerException.class);
    }
}
