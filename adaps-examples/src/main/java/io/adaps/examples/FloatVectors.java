package io.adaps.examples;

/**
 * Arithmetic on float vectors stored at offsets of packed arrays, shared by the examples' kernels
 * (and the plain baselines that the benchmarks compare them with).
 */
public final class FloatVectors {
    private FloatVectors() {
    }

    /**
     * The dot product of {@code length} floats of {@code a} from {@code aOffset} and of {@code b}
     * from {@code bOffset}, summed in four interleaved partial sums.
     *
     * <p>Why four: C2 (Java 17) keeps a float sum in order in one register, since reordering float
     * additions changes the result, so a plain loop is a chain of {@code length} dependent
     * additions, each waiting for the one before. Four chains run side by side; the result differs
     * from the sequential sum by rounding only. The word2vec kernel spent a quarter of its time in
     * the sequential sum (async-profiler).
     */
    public static float dot(float[] a, int aOffset, float[] b, int bOffset, int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int k = 0;
        for (; k + 3 < length; k += 4) {
            s0 += a[aOffset + k] * b[bOffset + k];
            s1 += a[aOffset + k + 1] * b[bOffset + k + 1];
            s2 += a[aOffset + k + 2] * b[bOffset + k + 2];
            s3 += a[aOffset + k + 3] * b[bOffset + k + 3];
        }
        for (; k < length; k++) {
            s0 += a[aOffset + k] * b[bOffset + k];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
