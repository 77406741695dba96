package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class MfDataTest {
    /** Entry i is (i % 7, i % 5, i), so the value identifies the entry. */
    private static MfData numbered(int n) {
        int[] rows = new int[n];
        int[] cols = new int[n];
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i % 7;
            cols[i] = i % 5;
            values[i] = i;
        }
        return new MfData(7, 5, rows, cols, values);
    }

    private static List<Integer> entryIds(MfData data) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            int id = (int) data.values()[i];
            assertThat(data.rows()[i]).isEqualTo(id % 7);
            assertThat(data.cols()[i]).isEqualTo(id % 5);
            ids.add(id);
        }
        return ids;
    }

    @Test
    void shuffleKeepsEveryEntryAndDependsOnlyOnTheSeed() {
        MfData data = numbered(1_000);
        List<Integer> shuffled = entryIds(data.shuffled(5));
        assertThat(shuffled).containsExactlyInAnyOrderElementsOf(entryIds(data));
        assertThat(shuffled).isNotEqualTo(entryIds(data));
        assertThat(entryIds(data.shuffled(5))).isEqualTo(shuffled);
        assertThat(entryIds(data.shuffled(6))).isNotEqualTo(shuffled);
    }

    @Test
    void splitPartitionsTheEntriesByTheFraction() {
        MfData data = numbered(1_000);
        MfData.Split split = data.split(0.1, 9);
        assertThat(split.test().size()).isEqualTo(100);
        assertThat(split.train().size()).isEqualTo(900);
        List<Integer> all = new ArrayList<>(entryIds(split.train()));
        all.addAll(entryIds(split.test()));
        assertThat(all).containsExactlyInAnyOrderElementsOf(entryIds(data));
        assertThat(split.train().numRows()).isEqualTo(7);
        assertThat(split.test().numCols()).isEqualTo(5);
        assertThat(entryIds(data.split(0.1, 9).test())).isEqualTo(entryIds(split.test()));
    }

    @Test
    void partsCutTheEntriesIntoContiguousNearlyEqualPiecesInOrder() {
        MfData data = numbered(10);
        List<Integer> joined = new ArrayList<>();
        int[] sizes = new int[3];
        for (int part = 0; part < 3; part++) {
            MfData piece = data.part(part, 3);
            sizes[part] = piece.size();
            joined.addAll(entryIds(piece));
            assertThat(piece.numRows()).isEqualTo(7);
            assertThat(piece.numCols()).isEqualTo(5);
        }
        assertThat(sizes).containsExactly(3, 3, 4);
        assertThat(joined).isEqualTo(entryIds(data));
        assertThat(entryIds(data.part(0, 1))).isEqualTo(entryIds(data));
        assertThat(numbered(2).part(0, 3).size()).isZero();
        assertThatThrownBy(() -> data.part(3, 3)).hasMessage("part=3 (expected 0..2)");
        assertThatThrownBy(() -> data.part(-1, 3)).hasMessage("part=-1 (expected 0..2)");
        assertThatThrownBy(() -> data.part(0, 0)).hasMessage("parts=0 (expected > 0)");
    }

    @Test
    void partsByShareCutTheEntriesInTheSharesProportionsInOrder() {
        MfData data = numbered(1000);
        double[] shares = {0.125, 0.5, 0.375};
        List<Integer> joined = new ArrayList<>();
        int[] sizes = new int[3];
        for (int part = 0; part < 3; part++) {
            MfData piece = data.part(part, shares);
            sizes[part] = piece.size();
            joined.addAll(entryIds(piece));
        }
        assertThat(sizes).containsExactly(125, 500, 375);
        assertThat(joined).isEqualTo(entryIds(data));
        assertThat(entryIds(data.part(1, new double[] {0, 1}))).isEqualTo(entryIds(data));
        assertThat(data.part(0, new double[] {0, 1}).size()).isZero();
        assertThatThrownBy(() -> data.part(2, new double[] {0.5, 0.5})).hasMessage("part=2 (expected 0..1)");
        assertThatThrownBy(() -> data.part(0, new double[] {0.5, 0.6}))
                .hasMessage("shares=[0.5, 0.6] (expected a sum of 1)");
    }

    @Test
    void refusesInconsistentEntries() {
        assertThatThrownBy(() -> new MfData(0, 5, new int[0], new int[0], new float[0]))
                .hasMessage("numRows=0 (expected > 0)");
        assertThatThrownBy(() -> new MfData(3, 5, new int[2], new int[1], new float[2]))
                .hasMessage("rows.length=2, cols.length=1, values.length=2 (expected equal lengths)");
        assertThatThrownBy(() -> new MfData(3, 5, new int[] {0, 3}, new int[2], new float[2]))
                .hasMessage("rows[1]=3 (expected 0..2)");
        assertThatThrownBy(() -> new MfData(3, 5, new int[2], new int[] {-1, 0}, new float[2]))
                .hasMessage("cols[0]=-1 (expected 0..4)");
        assertThatThrownBy(() -> new MfData(3, 5, new int[1], new int[1], new float[] {Float.NaN}))
                .hasMessage("values[0]=NaN (expected a finite value)");
        assertThatThrownBy(() -> numbered(10).split(1.0, 1))
                .hasMessage("testFraction=1.0 (expected a value in (0, 1))");
    }
}
