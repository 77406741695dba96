package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import io.adaps.examples.RandomShares;
import io.adaps.examples.SpeedShares;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BlockPartitionTest {
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, 1.1, 3);

    @Test
    void balanceGivesTheHeaviestIdsFirstToTheLightestPart() {
        // Loads 9, 7, 5, 4, 3, 3 go to parts 0, 1 (0 < 9), 1 (7 < 9), 0 (9 < 12), 1 (12 < 13), 0 (13 < 15).
        int[] parts = BlockPartition.balance(new long[] {3, 9, 4, 7, 5, 3}, 2);
        assertThat(parts).containsExactly(1, 0, 0, 1, 1, 0);
        // Ids without load spread over the parts too.
        assertThat(BlockPartition.balance(new long[] {0, 0, 0, 0}, 3)).containsExactly(0, 1, 2, 0);
        assertThat(BlockPartition.balance(new long[] {5}, 4)).containsExactly(0);
    }

    @Test
    void idsStayAtHomeWhereTheHomesAreEven() {
        assertThat(BlockPartition.nearHomes(new long[] {3, 3, 3, 3, 0}, SpeedShares.even(2), id -> id % 2))
                .containsExactly(0, 1, 0, 1, 0);
        assertThat(BlockPartition.nearHomes(new long[] {5}, SpeedShares.even(4), id -> 3)).containsExactly(3);
    }

    @Test
    void theHeaviestIdsThatFitTheirHomesExcessMoveToTheLightestPart() {
        // All at home 0, targets 16 and 15 of 31: 9 goes (excess 15), 7 stays (excess 6), 5 goes (excess 6),
        // 4, 3 and 3 stay (excess 1); ids without load stay home.
        assertThat(BlockPartition.nearHomes(new long[] {3, 9, 4, 7, 5, 3, 0}, SpeedShares.even(2), id -> 0))
                .containsExactly(0, 1, 0, 0, 1, 0, 0);
        // Three parts, share 7 of 21: the lightest part (the lowest of equal load) takes each id
        // that fits its room: 6 and 6 go, 5 stays (excess 2), 2 would overfill part 1 (6 of 7).
        assertThat(BlockPartition.nearHomes(new long[] {6, 6, 5, 2, 1, 1}, SpeedShares.even(3), id -> 0))
                .containsExactly(1, 2, 0, 0, 1, 2);
        assertThatThrownBy(() -> BlockPartition.nearHomes(new long[] {1, 1}, SpeedShares.even(2), id -> id - 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("home(0)=-1 (expected 0..1)");
    }

    @Test
    void targetsAreTheSharesOfTheTotalInWholeUnitsByLargestRemainders() {
        assertThat(BlockPartition.targets(31, SpeedShares.even(2))).containsExactly(16, 15);
        assertThat(BlockPartition.targets(21, SpeedShares.even(3))).containsExactly(7, 7, 7);
        // The last of even shares of 3 is a hair larger (it takes in the rounding to 2^-20): it gets the unit left.
        assertThat(BlockPartition.targets(22, SpeedShares.even(3))).containsExactly(7, 7, 8);
        assertThat(BlockPartition.targets(10, new double[] {0.25, 0.75})).containsExactly(3, 7);
        assertThat(BlockPartition.targets(0, SpeedShares.even(4))).containsExactly(0, 0, 0, 0);
    }

    @Test
    void idsMoveFromHomeUntilEachPartHasItsShare() {
        // All at home 0, targets 8 and 23 (7.75 and 23.25 by largest remainders): 9, 7 and 5 go to part 1
        // (part 0's excess 23, then 14, then 7), 4, 3 and 3 stay (excess 2).
        assertThat(BlockPartition.nearHomes(new long[] {3, 9, 4, 7, 5, 3, 0}, new double[] {0.25, 0.75}, id -> 0))
                .containsExactly(0, 1, 0, 1, 1, 0, 0);
    }

    @Test
    void sharedRowsAndBalancedRowsFollowTheShares() {
        MfData sampled = new SyntheticMatrix(SPEC).sample();
        float[] numbers = new float[sampled.size()];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = i;
        }
        MfData data = new MfData(SPEC.rows(), SPEC.cols(), sampled.rows(), sampled.cols(), numbers);
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 10; trial++) {
            int nodes = 2 + random.nextInt(3);
            double[] shares = RandomShares.of(random, nodes);
            BlockPartition partition = BlockPartition.sharingHotRows(data, shares, row -> row % nodes);
            int[] dealt = new int[data.size()];
            for (int node = 0; node < nodes; node++) {
                MfData shard = partition.shard(data, node);
                // Whole rows move, each under 1/128 of the entries: the shares are met to within two.
                assertThat((double) shard.size()).as("seed %d, shares %s, node %d", seed, Arrays.toString(shares),
                        node).isCloseTo(shares[node] * data.size(), within(2.0 * data.size() / 128));
                for (float number : shard.values()) {
                    dealt[(int) number]++;
                }
            }
            assertThat(dealt).as("seed %d: every entry dealt once", seed).containsOnly(1);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void rowsOfSkewedDataMoveFromHomeOnlyAsFarAsTheBalanceNeeds(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int parts = 2 + random.nextInt(3);
        ZipfSampler zipf = new ZipfSampler(2_000, 1.1);
        long[] loads = new long[2_000];
        for (int i = 0; i < 100_000; i++) {
            loads[zipf.sample(random)]++;
        }
        int[] homes = random.ints(loads.length, 0, parts).toArray();
        // Home 0 gets a head start, so that something must move.
        for (int id = 0; id < loads.length; id += 3) {
            homes[id] = 0;
        }
        int[] partOf = BlockPartition.nearHomes(loads, SpeedShares.even(parts), id -> homes[id]);
        long[] homeLoads = new long[parts];
        long[] partLoads = new long[parts];
        long moved = 0;
        long total = 0;
        for (int id = 0; id < loads.length; id++) {
            homeLoads[homes[id]] += loads[id];
            partLoads[partOf[id]] += loads[id];
            moved += partOf[id] == homes[id] ? 0 : loads[id];
            total += loads[id];
        }
        long[] targets = BlockPartition.targets(total, SpeedShares.even(parts));
        long excess = 0;
        for (int part = 0; part < parts; part++) {
            excess += Math.max(0, homeLoads[part] - targets[part]);
            // Ids of load 1 are plenty: every part ends within a few entries of the share.
            assertThat(partLoads[part]).as("seed %d, part %d of %d", seed, part, parts)
                    .isBetween(total / parts - parts, total / parts + 1);
        }
        assertThat(moved).as("seed %d: entries moved, the homes' excess", seed).isEqualTo(excess);
    }

    @Test
    void rowsAndColumnsOfSkewedDataSplitIntoNearlyEqualEntries() {
        MfData train = new SyntheticMatrix(SPEC).sample();
        BlockPartition partition = BlockPartition.balanced(train, 3);
        long[] nodeEntries = new long[3];
        long[] blockEntries = new long[3];
        for (int i = 0; i < train.size(); i++) {
            nodeEntries[partition.nodeOfRow(train.rows()[i])]++;
            blockEntries[partition.blockOfCol(train.cols()[i])]++;
        }
        // Greedy balancing is off by at most the lightest id it placed last; here a few entries.
        for (int part = 0; part < 3; part++) {
            assertThat(nodeEntries[part]).isBetween(9_900L, 10_100L);
            assertThat(blockEntries[part]).isBetween(9_900L, 10_100L);
        }
        assertThat(partition.parts()).isEqualTo(3);
    }

    @Test
    void shardsSplitTheEntriesByRowOwner() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        BlockPartition partition = BlockPartition.balanced(data, 3);
        float[] all = new float[data.size()];
        int next = 0;
        for (int node = 0; node < 3; node++) {
            MfData shard = partition.shard(data, node);
            long[] rows = partition.rowsOf(node);
            assertThat(rows).isSorted();
            for (long row : rows) {
                assertThat(partition.nodeOfRow((int) row)).isEqualTo(node);
            }
            for (int i = 0; i < shard.size(); i++) {
                assertThat(partition.nodeOfRow(shard.rows()[i])).isEqualTo(node);
                all[next++] = shard.values()[i];
            }
        }
        assertThat(next).isEqualTo(data.size());
        float[] expected = data.values().clone();
        Arrays.sort(expected);
        Arrays.sort(all);
        assertThat(all).containsExactly(expected);
        assertThat(partition.rowsOf(0).length + partition.rowsOf(1).length + partition.rowsOf(2).length)
                .isEqualTo(SPEC.rows());
    }

    @Test
    void theHottestRowsAreSharedAndTheirEntriesDealtToEveryNode() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        BlockPartition partition = BlockPartition.sharingHotRows(data, SpeedShares.even(3), row -> row % 3);
        long[] rowEntries = new long[SPEC.rows()];
        for (int row : data.rows()) {
            rowEntries[row]++;
        }
        int shared = 0;
        for (int row = 0; row < SPEC.rows(); row++) {
            boolean hot = rowEntries[row] > BlockPartition.HOT_ROW_SHARE * data.size();
            assertThat(partition.nodeOfRow(row) == BlockPartition.SHARED).as("row %d", row).isEqualTo(hot);
            shared += hot ? 1 : 0;
        }
        // Zipf 1.1 over 300 rows: the hottest holds about a sixth of the entries.
        assertThat(shared).isBetween(5, 40);
        long[] sharedEntries = new long[3];
        int total = 0;
        for (int node = 0; node < 3; node++) {
            MfData shard = partition.shard(data, node);
            total += shard.size();
            // The other rows are balanced as before, over the entries of the rows kept whole.
            assertThat(shard.size()).isBetween(9_850, 10_150);
            for (int row : shard.rows()) {
                sharedEntries[node] += partition.nodeOfRow(row) == BlockPartition.SHARED ? 1 : 0;
            }
            for (long row : partition.rowsOf(node)) {
                assertThat(partition.nodeOfRow((int) row)).isEqualTo(node);
            }
        }
        assertThat(total).isEqualTo(data.size());
        // The shared rows' entries are dealt by even shares (ShareDeal): a third each, within a few per row.
        long all = sharedEntries[0] + sharedEntries[1] + sharedEntries[2];
        for (long entries : sharedEntries) {
            assertThat(entries).isBetween(all / 3 - 60, all / 3 + 60);
        }
        assertThat(BlockPartition.sharingHotRows(data, SpeedShares.even(1), row -> 0).shard(data, 0).values())
                .containsExactly(data.values());
    }

    @Test
    void theBlockedSchedulesPartitionKeepsEveryRowWhole() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        BlockPartition partition = BlockPartition.balanced(data, 3);
        for (int row = 0; row < SPEC.rows(); row++) {
            assertThat(partition.nodeOfRow(row)).isBetween(0, 2);
        }
    }

    @Test
    void refusesBadArguments() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        assertThatThrownBy(() -> BlockPartition.balanced(data, 0))
                .hasMessage("nodes=0 (expected > 0)");
        assertThatThrownBy(() -> BlockPartition.sharingHotRows(data, new double[] {0.5, 0.6}, row -> 0))
                .hasMessage("shares=[0.5, 0.6] (expected a sum of 1)");
        assertThatThrownBy(() -> BlockPartition.sharingHotRows(data, SpeedShares.even(2), row -> row % 3))
                .hasMessage("home(2)=2 (expected 0..1)");
        BlockPartition partition = BlockPartition.balanced(data, 2);
        assertThatThrownBy(() -> partition.shard(data, 2)).hasMessage("node=2 (expected 0..1)");
        assertThatThrownBy(() -> partition.rowsOf(-1)).hasMessage("node=-1 (expected 0..1)");
        MfData other = new MfData(5, 200, new int[1], new int[1], new float[1]);
        assertThatThrownBy(() -> partition.shard(other, 0))
                .hasMessage("data=MfData[5 x 200, 1 entries] (expected a 300 x 200 matrix, the size of the "
                        + "partitioned one)");
    }
}
