package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class StepScalesTest {
    /**
     * 1,000 entries over 201 rows and 3 columns: row 0 holds 200 (more than 1/128, so the intent
     * plan shares it), rows 1..200 four each; columns 0 and 1 share the entries, column 2 has none.
     */
    private static MfData data() {
        int size = 1000;
        int[] rows = new int[size];
        int[] cols = new int[size];
        for (int i = 0; i < size; i++) {
            rows[i] = i < 200 ? 0 : 1 + (i - 200) / 4;
            cols[i] = i % 2;
        }
        float[] values = new float[size];
        Arrays.fill(values, 1f);
        return new MfData(201, 3, rows, cols, values);
    }

    @Test
    void dampsTheSharedRowsAndTheHotColumnsByTheNodeCount() {
        MfData train = data();
        for (int nodes = 2; nodes <= 4; nodes++) {
            StepScales scales = StepScales.sharedHotParameters(train, BlockPartition.sharingHotRows(train, nodes));
            assertThat(scales.damps()).isTrue();
            assertThat(scales.row(0)).isEqualTo(1f / nodes);
            for (int row = 1; row < 201; row++) {
                assertThat(scales.row(row)).as("row %d of %d nodes", row, nodes).isEqualTo(1f);
            }
            assertThat(scales.col(0)).isEqualTo(1f / nodes);
            assertThat(scales.col(1)).isEqualTo(1f / nodes);
            assertThat(scales.col(2)).as("a column without entries").isEqualTo(1f);
            assertThat(scales.dampedRows()).isEqualTo(1);
            assertThat(scales.dampedCols()).isEqualTo(2);
            assertThat(scales).hasToString("1 rows and 2 columns step 1/" + nodes);
        }
    }

    @Test
    void onlyColumnsAboveTheShareAreDamped() {
        // 16,384 entries: a column needs more than 2 to be above 1/8192 of them.
        int size = 16_384;
        int[] rows = new int[size];
        int[] cols = new int[size];
        for (int i = 0; i < size; i++) {
            rows[i] = i % 1000;
            cols[i] = i < 3 ? 1 : i < 5 ? 2 : 0;
        }
        MfData train = new MfData(1000, 3, rows, cols, new float[size]);
        StepScales scales = StepScales.sharedHotParameters(train, BlockPartition.sharingHotRows(train, 2));
        assertThat(scales.col(0)).isEqualTo(0.5f);
        assertThat(scales.col(1)).as("3 entries").isEqualTo(0.5f);
        assertThat(scales.col(2)).as("2 entries").isEqualTo(1f);
        assertThat(scales.dampedRows()).as("no row above 1/128 of the entries").isZero();
    }

    @Test
    void aSingleNodeTakesFullSteps() {
        MfData train = data();
        assertThat(StepScales.sharedHotParameters(train, BlockPartition.sharingHotRows(train, 1)))
                .isSameAs(StepScales.NONE);
        assertThat(StepScales.NONE.damps()).isFalse();
    }
}
