package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

import org.junit.jupiter.api.Test;

class SgnsKernelTest {
    private static final int DIM = 7;
    private static final float LR = 1e-3f;

    @Test
    void sigmoidAndLogSigmoidMatchTheExactFunctions() {
        for (float x = -12f; x <= 12f; x += 0.0137f) {
            assertThat((double) Sigmoid.sigmoid(x)).as("s(%s)", x).isCloseTo(Sigmoid.exactSigmoid(x), offset(1e-6));
            assertThat((double) Sigmoid.logSigmoid(x)).as("log s(%s)", x)
                    .isCloseTo(Sigmoid.exactLogSigmoid(x), offset(2e-6));
        }
        // Just below the end of the table, where (x + RANGE) * PER_UNIT rounds to the last point.
        assertThat((double) Sigmoid.sigmoid(Math.nextDown(Sigmoid.RANGE))).isCloseTo(Sigmoid.exactSigmoid(8), offset(1e-6));
        assertThat(Sigmoid.exactLogSigmoid(-800)).isEqualTo(-800.0);
        assertThat(Sigmoid.exactLogSigmoid(800)).isEqualTo(-0.0);
    }

    @Test
    void aStepMovesEveryVectorAgainstItsGradientByFiniteDifferences() {
        SplittableRandom random = new SplittableRandom(5);
        // Rows 0 and 1 of `in`; output rows 0 (context) and 2, 3, 4 (negatives) of five.
        float[] in = randomVectors(2, random);
        float[] out = randomVectors(5, random);
        int inOffset = DIM;
        int[] negatives = {2 * DIM, 3 * DIM, 4 * DIM};
        double[] inGradient = new double[in.length];
        double[] outGradient = new double[out.length];
        for (int i = 0; i < in.length; i++) {
            inGradient[i] = derivative(in, i, () -> SgnsKernel.loss(in, inOffset, out, 0, negatives, 3, DIM));
        }
        for (int i = 0; i < out.length; i++) {
            outGradient[i] = derivative(out, i, () -> SgnsKernel.loss(in, inOffset, out, 0, negatives, 3, DIM));
        }
        double lossBefore = SgnsKernel.loss(in, inOffset, out, 0, negatives, 3, DIM);
        float[] inBefore = in.clone();
        float[] outBefore = out.clone();

        double reported = new SgnsKernel(DIM).step(in, inOffset, out, 0, negatives, 3, LR);

        assertThat(reported).isCloseTo(lossBefore, offset(1e-5));
        for (int i = 0; i < in.length; i++) {
            assertThat((double) in[i] - inBefore[i]).as("step of in[%d]", i).isCloseTo(-LR * inGradient[i], offset(2e-6));
        }
        for (int i = 0; i < out.length; i++) {
            assertThat((double) out[i] - outBefore[i]).as("step of out[%d]", i)
                    .isCloseTo(-LR * outGradient[i], offset(2e-6));
        }
        // Row 0 of `in` and row 1 of `out` take no part in the pair.
        assertThat(in).startsWith(Arrays.copyOf(inBefore, DIM));
        assertThat(Arrays.copyOfRange(out, DIM, 2 * DIM))
                .containsExactly(Arrays.copyOfRange(outBefore, DIM, 2 * DIM));
        assertThat(SgnsKernel.loss(in, inOffset, out, 0, negatives, 3, DIM)).isLessThan(lossBefore);
    }

    @Test
    void zeroOutputVectorsGiveLn2PerTarget() {
        float[] in = randomVectors(1, new SplittableRandom(9));
        float[] out = new float[3 * DIM];
        assertThat(SgnsKernel.loss(in, 0, out, 0, new int[] {DIM, 2 * DIM}, 2, DIM))
                .isCloseTo(3 * Math.log(2), offset(1e-6));
    }

    private static float[] randomVectors(int rows, SplittableRandom random) {
        float[] vectors = new float[rows * DIM];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = (float) (random.nextDouble() - 0.5);
        }
        return vectors;
    }

    /** The central difference of {@code loss} in component {@code i} of {@code values}, which it leaves as it was. */
    private static double derivative(float[] values, int i, DoubleSupplier loss) {
        float saved = values[i];
        float h = 1e-2f;
        values[i] = saved + h;
        double plus = loss.getAsDouble();
        values[i] = saved - h;
        double minus = loss.getAsDouble();
        values[i] = saved;
        return (plus - minus) / (2 * h);
    }
}
