package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.SplittableRandom;

/**
 * Frequent-word sub-sampling of Mikolov et al. 2013, "Distributed Representations of Words and
 * Phrases and their Compositionality" (NIPS 2013): each occurrence of a word with corpus frequency
 * {@code f = count / totalWords} is kept with probability {@code min(1, sqrt(t / f) + t / f)}.
 *
 * <p>That is the rule of the original word2vec C code, {@code (sqrt(f / t) + 1) * t / f}; the
 * paper prints the discard probability {@code 1 - sqrt(t / f)}, which the code replaced. Words with
 * {@code f <= t} (about) are always kept, and a word as frequent as "the" loses most occurrences,
 * which speeds training and improves rare words' vectors. A threshold of 0 keeps everything, as in
 * the C code.
 *
 * <p>The probabilities are computed once; the randomness comes from the caller's
 * {@link SplittableRandom}, so every worker passes its own seeded random and a run is reproducible.
 */
public final class Subsampler {
    /**
     * The default threshold {@code t}: the paper suggests about 1e-5 for corpora of billions of
     * words, the C code defaults to 1e-3; 1e-4 lies between, for corpora of a few million words.
     */
    public static final double DEFAULT_THRESHOLD = 1e-4;

    private final double[] keepProbabilities;

    /**
     * Sub-sampling of the words of {@code vocabulary} with threshold {@code t}.
     *
     * @param threshold {@code t}, finite and {@code >= 0}; 0 keeps every word
     * @throws IllegalArgumentException if {@code threshold} is negative or not finite
     */
    public Subsampler(Vocabulary vocabulary, double threshold) {
        checkNotNull(vocabulary, "vocabulary");
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold=" + threshold + " (expected a finite value >= 0)");
        }
        keepProbabilities = new double[vocabulary.size()];
        for (int id = 0; id < keepProbabilities.length; id++) {
            keepProbabilities[id] = keepProbability(vocabulary.count(id), vocabulary.totalWords(), threshold);
        }
    }

    /** {@code min(1, sqrt(t / f) + t / f)} with {@code f = count / totalWords}; 1 if {@code t} is 0. */
    static double keepProbability(long count, long totalWords, double threshold) {
        if (threshold == 0) {
            return 1;
        }
        double ratio = threshold * totalWords / count;
        return Math.min(1, Math.sqrt(ratio) + ratio);
    }

    /**
     * The probability that an occurrence of the word with {@code id} is kept.
     *
     * @throws IllegalArgumentException unless {@code 0 <= id < vocabulary.size()}
     */
    public double keepProbability(int id) {
        if (id < 0 || id >= keepProbabilities.length) {
            throw new IllegalArgumentException("id=" + id + " (expected 0.." + (keepProbabilities.length - 1) + ")");
        }
        return keepProbabilities[id];
    }

    /**
     * Writes the word ids of {@code sentence} that survive sub-sampling, in order, to {@code out}
     * from {@code outOffset}, and returns how many they are; {@code sentence} is not modified.
     * Allocates nothing, so training threads call it for every sentence of every epoch.
     *
     * @throws ArrayIndexOutOfBoundsException if an id is outside the vocabulary or {@code out} has
     *                                        no room for the kept ids
     */
    public int sample(int[] sentence, SplittableRandom random, int[] out, int outOffset) {
        int size = 0;
        for (int id : sentence) {
            double p = keepProbabilities[id];
            if (p >= 1 || random.nextDouble() < p) {
                out[outOffset + size++] = id;
            }
        }
        return size;
    }
}
