package io.adaps.examples.w2v;

/**
 * The logistic function {@code s(x) = 1 / (1 + e^-x)} and its logarithm, for the inner loop of
 * skip-gram training, where the exact forms (an {@code exp}, and a {@code log} for the loss) would
 * cost more than the dot products they follow.
 *
 * <p>Like the original word2vec's {@code expTable}, both come from tables, but with linear
 * interpolation between {@value #PER_UNIT} points per unit on {@code [-}{@value #RANGE}{@code ,
 * }{@value #RANGE}{@code ]} (error below {@code 1e-6}) instead of a step function, and exact values
 * outside the range instead of clipping, so that the training loss is the true loss and the
 * gradient check of the kernel holds.
 */
final class Sigmoid {
    /** Arguments in {@code (-RANGE, RANGE)} are interpolated; the others are computed exactly. */
    static final float RANGE = 8f;
    private static final int PER_UNIT = 256;
    private static final int POINTS = (int) (2 * RANGE * PER_UNIT) + 1;
    private static final float[] SIGMOID = new float[POINTS];
    private static final float[] LOG_SIGMOID = new float[POINTS];

    static {
        for (int i = 0; i < POINTS; i++) {
            double x = -RANGE + (double) i / PER_UNIT;
            SIGMOID[i] = (float) exactSigmoid(x);
            LOG_SIGMOID[i] = (float) exactLogSigmoid(x);
        }
    }

    private Sigmoid() {
    }

    /** {@code 1 / (1 + e^-x)}. */
    static float sigmoid(float x) {
        if (!(x > -RANGE && x < RANGE)) {
            return (float) exactSigmoid(x);
        }
        return interpolate(SIGMOID, x);
    }

    /** {@code log(1 / (1 + e^-x)) = -log(1 + e^-x)}, always {@code <= 0}. */
    static float logSigmoid(float x) {
        if (!(x > -RANGE && x < RANGE)) {
            return (float) exactLogSigmoid(x);
        }
        return interpolate(LOG_SIGMOID, x);
    }

    private static float interpolate(float[] table, float x) {
        float position = (x + RANGE) * PER_UNIT;
        // An x just below RANGE can round up to the last point.
        int i = Math.min((int) position, POINTS - 2);
        float fraction = position - i;
        return table[i] + fraction * (table[i + 1] - table[i]);
    }

    static double exactSigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    /** Written so that neither large nor very negative arguments overflow or lose digits. */
    static double exactLogSigmoid(double x) {
        return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
    }
}
