package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * {@link ColumnBlocks} cuts each home's columns into nearly equal blocks in column order, walks the
 * homes from the node's own, and reorders nothing but the entries within each walk of each chunk of
 * the intent schedule, into the order a stable sort by their column's block gives (issue 13).
 */
class ColumnBlocksTest {
    /** Random entries, threads, batch size, walk length, nodes, the node and the homes of the columns. */
    private record Case(MfData data, int threads, int batchSize, int walkEntries, int nodes, int node, int[] homes) {
    }

    private static Case randomCase(Gen gen) {
        int numRows = gen.intIn(1, 40);
        int numCols = gen.intIn(1, 60);
        int size = gen.intIn(0, 600);
        int[] rows = new int[size];
        int[] cols = new int[size];
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            rows[i] = gen.intIn(0, numRows - 1);
            cols[i] = gen.intIn(0, numCols - 1);
            values[i] = i; // tells the entries apart
        }
        int nodes = gen.intIn(1, 12);
        int[] homes = new int[numCols];
        for (int col = 0; col < numCols; col++) {
            homes[col] = gen.intIn(0, nodes - 1);
        }
        return new Case(new MfData(numRows, numCols, rows, cols, values), gen.intIn(1, 4), gen.intIn(1, 50),
                gen.intIn(1, 200), nodes, gen.intIn(0, nodes - 1), homes);
    }

    @Test
    void blocksCutEachHomeInColumnOrderStartingWithTheNodesOwn() {
        Property.forAll(500, ColumnBlocksTest::randomCase, ColumnBlocksTest::blocksCutEachHomeInColumnOrder);
    }

    private static void blocksCutEachHomeInColumnOrder(Case c) {
        int numCols = c.data().numCols();
        int[] ranks = ColumnBlocks.blockRanks(numCols, c.nodes(), c.node(), col -> c.homes()[col]);
        int perHome = (ColumnBlocks.BLOCKS + c.nodes() - 1) / c.nodes();
        assertThat(perHome * c.nodes()).isGreaterThanOrEqualTo(ColumnBlocks.BLOCKS);
        int[][] counts = new int[c.nodes()][perHome];
        int[] lastRank = new int[c.nodes()];
        for (int col = 0; col < numCols; col++) {
            int home = c.homes()[col];
            int rank = ranks[col];
            assertThat(rank / perHome).as("walk position of column %d's home", col)
                    .isEqualTo(Math.floorMod(home - c.node(), c.nodes()));
            assertThat(rank).as("rank of column %d", col).isGreaterThanOrEqualTo(lastRank[home]);
            lastRank[home] = rank;
            counts[home][rank % perHome]++;
        }
        for (int home = 0; home < c.nodes(); home++) {
            int least = Integer.MAX_VALUE;
            int most = 0;
            for (int count : counts[home]) {
                least = Math.min(least, count);
                most = Math.max(most, count);
            }
            assertThat(most - least).as("block sizes of home %d", home).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void eachWalkOfEachChunkIsStablySortedByItsColumnsBlocks() {
        Property.forAll(500, ColumnBlocksTest::randomCase, ColumnBlocksTest::eachWalkIsStablySorted);
    }

    private static void eachWalkIsStablySorted(Case c) {
        MfData data = c.data();
        int[] ranks = ColumnBlocks.blockRanks(data.numCols(), c.nodes(), c.node(), col -> c.homes()[col]);
        IntentSchedule schedule = new IntentSchedule(data, c.threads(), c.batchSize());
        MfData ordered = ColumnBlocks.ordered(schedule, ranks, c.walkEntries());
        assertThat(ordered.size()).isEqualTo(data.size());
        assertThat(ordered.numRows()).isEqualTo(data.numRows());
        assertThat(ordered.numCols()).isEqualTo(data.numCols());
        IntentSchedule after = new IntentSchedule(ordered, c.threads(), c.batchSize());
        assertThat(after.chunkEntries()).isEqualTo(schedule.chunkEntries());
        for (int t = 0; t < c.threads(); t++) {
            for (int chunk = 0; chunk < schedule.chunks(t); chunk++) {
                int chunkEnd = schedule.chunkTo(t, chunk);
                for (int from = schedule.chunkFrom(t, chunk); from < chunkEnd; from += c.walkEntries()) {
                    assertStablySorted(data, ordered, ranks, from, Math.min(chunkEnd, from + c.walkEntries()));
                }
            }
        }
    }

    /** Entries {@code [from, to)} of {@code ordered} are those of {@code data} stably sorted by their column's rank. */
    private static void assertStablySorted(MfData data, MfData ordered, int[] ranks, int from, int to) {
        List<Integer> expected = new ArrayList<>();
        for (int i = from; i < to; i++) {
            expected.add(i);
        }
        expected.sort(Comparator.comparingInt(i -> ranks[data.cols()[i]])); // List.sort is stable
        for (int i = from; i < to; i++) {
            int original = expected.get(i - from);
            assertThat(ordered.values()[i]).as("entry %d", i).isEqualTo(data.values()[original]);
            assertThat(ordered.rows()[i]).isEqualTo(data.rows()[original]);
            assertThat(ordered.cols()[i]).isEqualTo(data.cols()[original]);
        }
    }

    @Test
    void oneNodeWalksContiguousColumnRanges() {
        int[] ranks = ColumnBlocks.blockRanks(20, 1, 0, col -> 0);
        assertThat(ranks).containsExactly(0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> ColumnBlocks.blockRanks(2, 2, 0, col -> col * 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("homeOf(1)=2 (expected 0..1)");
        assertThatThrownBy(() -> ColumnBlocks.blockRanks(2, 2, 2, col -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node=2 (expected 0..1)");
        assertThatThrownBy(() -> ColumnBlocks.blockRanks(0, 2, 0, col -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("numCols=0");
        MfData data = new MfData(2, 2, new int[] {0, 1}, new int[] {0, 1}, new float[] {1, 2});
        IntentSchedule schedule = new IntentSchedule(data, 1, 2);
        assertThatThrownBy(() -> ColumnBlocks.ordered(schedule, new int[] {0, 0}, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("walkEntries=0");
        assertThatThrownBy(() -> ColumnBlocks.ordered(schedule, new int[] {0}, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ranks.length=1 (expected 2, the columns of ");
        assertThatThrownBy(() -> ColumnBlocks.ordered(schedule, new int[] {0, -1}, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ranks[1]=-1 (expected >= 0)");
    }
}
