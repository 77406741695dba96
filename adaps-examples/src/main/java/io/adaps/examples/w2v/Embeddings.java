package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import io.adaps.examples.FloatVectors;

/**
 * Word vectors for evaluation, compared by cosine similarity: a copy of the input table with each
 * row's inverse length, for nearest neighbours and for the rank of one word among another's
 * neighbours. Cosines with a zero vector are 0.
 */
final class Embeddings {
    private final float[] vectors;
    private final int dim;
    private final int words;
    private final float[] inverseNorms;

    /** The {@code vectors.length / dim} rows of {@code vectors} (kept, not copied). */
    Embeddings(float[] vectors, int dim) {
        this.vectors = checkNotNull(vectors, "vectors");
        this.dim = checkPositive(dim, "dim");
        if (vectors.length % dim != 0) {
            throw new IllegalArgumentException("vectors.length=" + vectors.length + " (expected a multiple of dim="
                    + dim + ")");
        }
        this.words = vectors.length / dim;
        this.inverseNorms = new float[words];
        for (int w = 0; w < words; w++) {
            float norm = (float) Math.sqrt(FloatVectors.dot(vectors, w * dim, vectors, w * dim, dim));
            inverseNorms[w] = norm == 0 ? 0 : 1 / norm;
        }
    }

    /** The words (rows). */
    int words() {
        return words;
    }

    /** Writes the cosine of word {@code word} with every word to {@code cosines}, {@link #words()} long. */
    void cosines(int word, float[] cosines) {
        int offset = word * dim;
        for (int w = 0; w < words; w++) {
            cosines[w] = FloatVectors.dot(vectors, offset, vectors, w * dim, dim) * inverseNorms[word] * inverseNorms[w];
        }
    }

    /** The {@code k} words nearest to {@code word} by cosine, nearest first, {@code word} itself left out. */
    int[] nearest(int word, int k) {
        float[] cosines = new float[words];
        cosines(word, cosines);
        int[] best = new int[Math.min(k, words - 1)];
        int found = 0;
        for (int w = 0; w < words; w++) {
            if (w == word) {
                continue;
            }
            // Insertion into the sorted best list: k is a handful.
            int at = found < best.length ? found++ : best.length;
            while (at > 0 && cosines[best[at - 1]] < cosines[w]) {
                if (at < best.length) {
                    best[at] = best[at - 1];
                }
                at--;
            }
            if (at < best.length) {
                best[at] = w;
            }
        }
        return best;
    }

    /**
     * Where word {@code other} ranks among the neighbours of the word whose {@code cosines} are
     * given (from {@link #cosines}), compared with the words not {@code excluded}: the fraction of
     * them that are farther away, ties counting half; 1 if {@code other} is nearer than all of
     * them, about 0.5 for random vectors. {@code NaN} if no word is compared. Exclude
     * {@code other} itself (and usually the word) to compare it only with the rest.
     */
    double percentile(float[] cosines, int other, boolean[] excluded) {
        float target = cosines[other];
        double farther = 0;
        int compared = 0;
        for (int w = 0; w < words; w++) {
            if (!excluded[w]) {
                compared++;
                if (cosines[w] < target) {
                    farther++;
                } else if (cosines[w] == target) {
                    farther += 0.5;
                }
            }
        }
        return farther / compared;
    }
}
