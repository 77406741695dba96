package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class SyntheticMatrixTest {
    private static final SyntheticMatrix.Spec SPEC = new SyntheticMatrix.Spec(2_000, 1_000, 100_000, 8, 0.1, 1.1, 42);

    @Test
    void isDeterminedByItsSeed() {
        MfData first = new SyntheticMatrix(SPEC).sample();
        MfData again = new SyntheticMatrix(SPEC).sample();
        assertThat(again.rows()).isEqualTo(first.rows());
        assertThat(again.cols()).isEqualTo(first.cols());
        assertThat(again.values()).isEqualTo(first.values());

        SyntheticMatrix.Spec otherSeed = new SyntheticMatrix.Spec(2_000, 1_000, 100_000, 8, 0.1, 1.1, 43);
        MfData other = new SyntheticMatrix(otherSeed).sample();
        assertThat(other.rows()).isNotEqualTo(first.rows());
        assertThat(other.values()).isNotEqualTo(first.values());
    }

    @Test
    void entriesAreTheTrueValuePlusNoiseOfTheGivenStandardDeviation() {
        SyntheticMatrix matrix = new SyntheticMatrix(SPEC);
        MfData data = matrix.sample();
        double sum = 0;
        double sumOfSquares = 0;
        for (int i = 0; i < data.size(); i++) {
            double residual = data.values()[i] - matrix.trueValue(data.rows()[i], data.cols()[i]);
            sum += residual;
            sumOfSquares += residual * residual;
        }
        int n = data.size();
        // The standard error of a sample standard deviation is about sigma / sqrt(2n) = 0.0002 here.
        assertThat(Math.sqrt(sumOfSquares / n - (sum / n) * (sum / n))).isCloseTo(0.1, offset(0.002));
        assertThat(sum / n).isCloseTo(0, offset(0.002));

        // With factor components of variance 1/trueRank, a true value has variance 1/trueRank too
        // (averaged over the whole matrix, as the entries' skew would weigh a few rows heavily).
        double signal = 0;
        for (int r = 0; r < SPEC.rows(); r++) {
            for (int c = 0; c < SPEC.cols(); c++) {
                float truth = matrix.trueValue(r, c);
                signal += truth * truth;
            }
        }
        assertThat(signal / ((double) SPEC.rows() * SPEC.cols())).isCloseTo(1.0 / 8, offset(0.01));
    }

    @Test
    void rowsAndColumnsAreZipfSkewedAndSpreadOverTheIds() {
        MfData data = new SyntheticMatrix(SPEC).sample();
        int[] rowCounts = new int[SPEC.rows()];
        for (int row : data.rows()) {
            rowCounts[row]++;
        }
        int[] sorted = rowCounts.clone();
        Arrays.sort(sorted);
        ZipfSampler law = new ZipfSampler(SPEC.rows(), SPEC.zipfExponent());
        // The most frequent row holds its zipf share (about 13%), the tenth most frequent about 10^1.1 times less.
        int n = data.size();
        assertThat((double) sorted[sorted.length - 1] / n).isCloseTo(law.probability(0), offset(0.005));
        assertThat((double) sorted[sorted.length - 10] / n).isCloseTo(law.probability(9), offset(0.002));
        // Hot rows are scattered: the most frequent one is not simply row 0.
        int hottest = 0;
        for (int r = 1; r < rowCounts.length; r++) {
            hottest = rowCounts[r] > rowCounts[hottest] ? r : hottest;
        }
        assertThat(hottest).isNotZero();
        int[] colCounts = new int[SPEC.cols()];
        for (int col : data.cols()) {
            colCounts[col]++;
        }
        assertThat((double) Arrays.stream(colCounts).max().orElseThrow() / n)
                .isCloseTo(new ZipfSampler(SPEC.cols(), SPEC.zipfExponent()).probability(0), offset(0.005));
    }

    @Test
    void refusesBadSpecs() {
        assertThatThrownBy(() -> new SyntheticMatrix.Spec(0, 10, 10, 2, 0.1, 1, 1)).hasMessage("rows=0 (expected > 0)");
        assertThatThrownBy(() -> new SyntheticMatrix.Spec(10, 10, 10, 0, 0.1, 1, 1)).hasMessage("trueRank=0 (expected > 0)");
        assertThatThrownBy(() -> new SyntheticMatrix.Spec(10, 10, 10, 2, -1, 1, 1))
                .hasMessage("noise=-1.0 (expected a finite value >= 0)");
        assertThatThrownBy(() -> new SyntheticMatrix.Spec(1 << 30, 10, 10, 4, 0.1, 1, 1))
                .hasMessage("rows=1073741824, cols=10, trueRank=4 (expected max(rows, cols) * trueRank < 2^31 true factor components)");
        assertThatThrownBy(() -> new SyntheticMatrix(SPEC).trueValue(2_000, 0))
                .hasMessage("row=2000, col=0 (expected 0..1999 and 0..999)");
    }
}
