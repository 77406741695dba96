package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkPositive;
import static io.adaps.examples.Checks.checkPositiveFinite;

/**
 * The settings of skip-gram training with negative sampling, as in the original word2vec.
 *
 * @param window       the largest distance of a context word from its center word; each center
 *                     word uses a window drawn uniformly from {@code 1..window} (the "dynamic
 *                     window", which weighs near context words more)
 * @param negatives    negative samples per (center, context) pair
 * @param learningRate the rate at the start; it falls linearly with the words processed to
 *                     {@value #MIN_RATE_FRACTION} of it at the end of the last epoch
 * @param epochs       passes over the training sentences, over which the rate falls
 */
record SgnsSettings(int window, int negatives, float learningRate, int epochs) {
    /** The smallest rate, as a fraction of the starting rate (word2vec's floor). */
    static final float MIN_RATE_FRACTION = 1e-4f;

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    SgnsSettings {
        checkPositive(window, "window");
        checkPositive(negatives, "negatives");
        checkPositiveFinite(learningRate, "learningRate");
        checkPositive(epochs, "epochs");
    }

    /** The rate after {@code done} of {@code total} words: linear decay with a floor. */
    float rate(long done, long total) {
        return learningRate * Math.max(MIN_RATE_FRACTION, 1f - (float) ((double) done / (total + 1)));
    }
}
