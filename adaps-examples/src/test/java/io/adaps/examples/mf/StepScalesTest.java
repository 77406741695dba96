package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StepScalesTest {
    @Test
    void parametersAboveTheReferenceCountStepByItOverTheirCount() {
        // 16,384 entries over 16,362 rows and 10,000 columns: the reference count is 4 (1/4096 of the
        // entries, above the means of about 1 and 1.6). Row 0 holds 16 entries, row 1 5, row 2 4, the
        // others 1; column 0 holds 8, column 1 5, the others 1 or 2.
        int size = 16_384;
        int[] rows = new int[size];
        int[] cols = new int[size];
        for (int i = 0; i < size; i++) {
            rows[i] = i < 16 ? 0 : i < 21 ? 1 : i < 25 ? 2 : 3 + (i - 25);
            cols[i] = i < 8 ? 0 : i < 13 ? 1 : 2 + (i - 13) % 9998;
        }
        StepScales scales = StepScales.byFrequency(new MfData(3 + size - 25, 10_000, rows, cols, new float[size]));

        assertThat(scales.damps()).isTrue();
        assertThat(scales.row(0)).isEqualTo(4f / 16);
        assertThat(scales.row(1)).isEqualTo(4f / 5);
        assertThat(scales.row(2)).as("at the reference count").isEqualTo(1f);
        assertThat(scales.row(3)).isEqualTo(1f);
        assertThat(scales.col(0)).isEqualTo(4f / 8);
        assertThat(scales.col(1)).isEqualTo(4f / 5);
        assertThat(scales.col(2)).isEqualTo(1f);
        assertThat(scales).hasToString("steps of 2 rows and 2 columns above 1/4096 of the entries and the mean "
                + "scaled by their frequency");
    }

    @Test
    void onASmallMatrixOnlyParametersAboveTheMeanAreScaled() {
        // 1,000 entries over 10 rows and 4 columns: every parameter holds far more than 1/4096 of them.
        // Row 0 holds 500, the others 55 or 56 (mean 100); column 0 holds 700, the others 100 (mean 250).
        int size = 1000;
        int[] rows = new int[size];
        int[] cols = new int[size];
        for (int i = 0; i < size; i++) {
            rows[i] = i < 500 ? 0 : 1 + (i - 500) % 9;
            cols[i] = i < 700 ? 0 : 1 + (i - 700) % 3;
        }
        StepScales scales = StepScales.byFrequency(new MfData(10, 4, rows, cols, new float[size]));

        assertThat(scales.row(0)).isEqualTo(100f / 500);
        for (int row = 1; row < 10; row++) {
            assertThat(scales.row(row)).as("row %d", row).isEqualTo(1f);
        }
        assertThat(scales.col(0)).isEqualTo(250f / 700);
        for (int col = 1; col < 4; col++) {
            assertThat(scales.col(col)).as("column %d", col).isEqualTo(1f);
        }
    }

    @Test
    void dataWithoutAFrequentParameterTakeFullSteps() {
        // 4,096 entries on distinct rows and columns: each holds 1, the reference count.
        int size = 4096;
        int[] ids = new int[size];
        for (int i = 0; i < size; i++) {
            ids[i] = i;
        }
        StepScales scales = StepScales.byFrequency(new MfData(size, size, ids, ids.clone(), new float[size]));

        assertThat(scales).isSameAs(StepScales.NONE).hasToString("full steps");
        assertThat(scales.damps()).isFalse();
    }

    @Test
    void refusesNoData() {
        assertThatThrownBy(() -> StepScales.byFrequency(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("train=null (expected a value)");
    }
}
