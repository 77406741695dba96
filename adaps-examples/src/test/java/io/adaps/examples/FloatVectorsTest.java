package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class FloatVectorsTest {
    @Test
    void dotIsTheDotProductAtTheOffsets() {
        float[] a = {9, 1, 2, 3};
        float[] b = {4, 5, 6, 9, 9};
        assertThat(FloatVectors.dot(a, 1, b, 0, 3)).isEqualTo(1 * 4 + 2 * 5 + 3 * 6);
        assertThat(FloatVectors.dot(a, 0, b, 0, 0)).isZero();
    }

    /** Every length, including those that leave a tail after the groups of four, at random offsets. */
    @Test
    void dotMatchesTheExactSumUpToRounding() {
        for (int seed = 0; seed < 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int length = random.nextInt(140);
            int aOffset = random.nextInt(5);
            int bOffset = random.nextInt(5);
            float[] a = new float[aOffset + length];
            float[] b = new float[bOffset + length];
            double exact = 0;
            double magnitude = 0;
            for (int k = 0; k < length; k++) {
                a[aOffset + k] = (float) random.nextDouble(-1, 1);
                b[bOffset + k] = (float) random.nextDouble(-1, 1);
                exact += (double) a[aOffset + k] * b[bOffset + k];
                magnitude += Math.abs((double) a[aOffset + k] * b[bOffset + k]);
            }
            assertThat((double) FloatVectors.dot(a, aOffset, b, bOffset, length))
                    .as("seed %d, length %d", seed, length)
                    .isCloseTo(exact, offset(1e-6 * (1 + magnitude)));
        }
    }
}
