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
 * {@link ColumnRuns} reorders nothing but the entries within each batch of each thread's share,
 * into the order a stable sort by their column's home gives (issue 13).
 */
class ColumnRunsTest {
    /** Random entries, thread and batch counts, nodes and homes of the columns. */
    private record Case(MfData data, int threads, int batchSize, int nodes, int[] homes) {
    }

    private static Case randomCase(Gen gen) {
        int numRows = gen.intIn(1, 40);
        int numCols = gen.intIn(1, 40);
        int size = gen.intIn(0, 400);
        int[] rows = new int[size];
        int[] cols = new int[size];
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            rows[i] = gen.intIn(0, numRows - 1);
            cols[i] = gen.intIn(0, numCols - 1);
            values[i] = i; // tells the entries apart
        }
        int nodes = gen.intIn(1, 4);
        int[] homes = new int[numCols];
        for (int col = 0; col < numCols; col++) {
            homes[col] = gen.intIn(0, nodes - 1);
        }
        return new Case(new MfData(numRows, numCols, rows, cols, values), gen.intIn(1, 4), gen.intIn(1, 50), nodes,
                homes);
    }

    @Test
    void eachBatchIsStablySortedByItsColumnsHomes() {
        Property.forAll(500, ColumnRunsTest::randomCase, ColumnRunsTest::eachBatchIsStablySortedByItsColumnsHomes);
    }

    private static void eachBatchIsStablySortedByItsColumnsHomes(Case c) {
        MfData data = c.data();
        MfData grouped = ColumnRuns.grouped(data, c.threads(), c.batchSize(), c.nodes(), col -> c.homes()[col]);
        if (c.nodes() == 1) {
            assertThat(grouped).isSameAs(data);
            return;
        }
        assertThat(grouped.size()).isEqualTo(data.size());
        assertThat(grouped.numRows()).isEqualTo(data.numRows());
        assertThat(grouped.numCols()).isEqualTo(data.numCols());
        for (int t = 0; t < c.threads(); t++) {
            int end = ShardPool.shareStart(t + 1, data.size(), c.threads());
            for (int from = ShardPool.shareStart(t, data.size(), c.threads()); from < end; from += c.batchSize()) {
                int to = Math.min(end, from + c.batchSize());
                List<Integer> expected = new ArrayList<>();
                for (int i = from; i < to; i++) {
                    expected.add(i);
                }
                expected.sort(Comparator.comparingInt(i -> c.homes()[data.cols()[i]])); // List.sort is stable
                for (int i = from; i < to; i++) {
                    int original = expected.get(i - from);
                    assertThat(grouped.values()[i]).as("entry %d", i).isEqualTo(data.values()[original]);
                    assertThat(grouped.rows()[i]).isEqualTo(data.rows()[original]);
                    assertThat(grouped.cols()[i]).isEqualTo(data.cols()[original]);
                }
            }
        }
    }

    @Test
    void aHomeOutOfRangeIsRefused() {
        MfData data = new MfData(2, 2, new int[] {0, 1}, new int[] {0, 1}, new float[] {1, 2});
        assertThatThrownBy(() -> ColumnRuns.grouped(data, 1, 2, 2, col -> col * 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("homeOf(1)=2 (expected 0..1)");
        assertThatThrownBy(() -> ColumnRuns.grouped(data, 0, 2, 2, col -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads=0");
    }
}
