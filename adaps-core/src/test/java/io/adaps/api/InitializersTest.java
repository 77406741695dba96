package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class InitializersTest {
    private static float[] values(Initializer initializer, long row, int length) {
        float[] dst = new float[length + 2];
        initializer.initialize(row, dst, 1, length);
        return dst;
    }

    @Test
    void seededInitializersDependOnlyOnSeedRowAndComponent() {
        Initializer a = Initializers.normal(0f, 1f, 5);
        assertThat(values(a, 17, 8)).containsExactly(values(Initializers.normal(0f, 1f, 5), 17, 8));
        assertThat(values(a, 17, 8)).isNotEqualTo(values(a, 18, 8));
        assertThat(values(a, 17, 8)).isNotEqualTo(values(Initializers.normal(0f, 1f, 6), 17, 8));
        float[] shortRow = values(a, 17, 3);
        float[] longRow = values(a, 17, 8);
        for (int i = 1; i <= 3; i++) {
            assertThat(shortRow[i]).isEqualTo(longRow[i]);
        }
    }

    @Test
    void writesOnlyItsRange() {
        float[] dst = values(Initializers.uniform(5f, 6f, 1), 0, 4);
        assertThat(dst[0]).isZero();
        assertThat(dst[5]).isZero();
    }

    @Test
    void uniformStaysInRangeAndNormalHasItsMoments() {
        Initializer uniform = Initializers.uniform(-2f, 3f, 11);
        Initializer normal = Initializers.normal(1f, 0.5f, 12);
        int rows = 20_000;
        double sum = 0;
        double squares = 0;
        double uniformSum = 0;
        for (long row = 0; row < rows; row++) {
            float[] u = values(uniform, row, 4);
            float[] n = values(normal, row, 4);
            for (int i = 1; i <= 4; i++) {
                assertThat(u[i]).isBetween(-2f, 3f);
                uniformSum += u[i];
                sum += n[i];
                squares += (n[i] - 1.0) * (n[i] - 1.0);
            }
        }
        int samples = rows * 4;
        // Standard errors: uniform mean 5/sqrt(12*80000) ~ 0.005, normal mean 0.5/sqrt(80000) ~ 0.0018.
        assertThat(uniformSum / samples).isCloseTo(0.5, within(0.03));
        assertThat(sum / samples).isCloseTo(1.0, within(0.01));
        assertThat(Math.sqrt(squares / samples)).isCloseTo(0.5, within(0.01));
    }
}
