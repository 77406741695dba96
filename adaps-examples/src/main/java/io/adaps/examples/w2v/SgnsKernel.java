package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;

import io.adaps.examples.FloatVectors;

/**
 * The arithmetic of skip-gram with negative sampling (SGNS; Mikolov, Sutskever, Chen, Corrado,
 * Dean, "Distributed Representations of Words and Phrases and their Compositionality", NIPS 2013)
 * on packed float arrays, for one training thread.
 *
 * <p>A pair is a center word with input vector {@code v}, a context word with output vector
 * {@code u}, and negatives with output vectors {@code n_1 .. n_k}. Its loss is
 * <pre>
 *   L = -log s(v . u) - sum_j log s(-v . n_j)        (s the logistic function)
 * </pre>
 * and a step of rate {@code lr} moves every vector against its gradient, as the original word2vec
 * code does: for each target {@code t} (the context word with label 1, then the negatives with
 * label 0) {@code g = lr * (label - s(v . t))}, {@code e += g * t} and {@code t += g * v} (with
 * {@code t} before its step); finally {@code v += e}. So every gradient is taken at the values
 * before the step (as long as the targets are distinct rows), which is what {@code SgnsKernelTest}
 * checks against finite differences.
 *
 * <p>Speed: each vector is copied into a scratch array first and back after its step. The loops
 * then index all their arrays alike, which is what the JIT (C2 of Java 17) needs to vectorize
 * them: with different offsets into arrays that might be the same it keeps them scalar, 3 to 4
 * times slower at 100 floats. Dot products are summed in four partial sums
 * ({@link FloatVectors#dot}). Allocates nothing.
 */
final class SgnsKernel {
    private final int dim;
    /** {@code v}: the input vector of the pair. */
    private final float[] input;
    /** {@code e}: the step of the input vector, summed over the targets of a pair. */
    private final float[] inputStep;
    /** {@code t}: the target's output vector. */
    private final float[] target;

    /** A kernel for vectors of {@code dim} floats. */
    SgnsKernel(int dim) {
        this.dim = checkPositive(dim, "dim");
        this.input = new float[dim];
        this.inputStep = new float[dim];
        this.target = new float[dim];
    }

    /**
     * One step on a pair, in place, returning its loss before the step: {@code v} is at
     * {@code inOffset} of {@code in}, {@code u} at {@code contextOffset} of {@code out}, and the
     * negatives at {@code negativeOffsets[0 .. negatives)} of {@code out}; {@code lr} is the rate.
     */
    double step(float[] in, int inOffset, float[] out, int contextOffset, int[] negativeOffsets, int negatives,
                float lr) {
        float[] v = input;
        float[] e = inputStep;
        System.arraycopy(in, inOffset, v, 0, dim);
        Arrays.fill(e, 0f);
        double loss = target(out, contextOffset, 1f, lr);
        for (int j = 0; j < negatives; j++) {
            loss += target(out, negativeOffsets[j], 0f, lr);
        }
        for (int k = 0; k < dim; k++) {
            v[k] += e[k];
        }
        System.arraycopy(v, 0, in, inOffset, dim);
        return loss;
    }

    /** The step of the target at {@code offset} with {@code label}; returns its part of the loss. */
    private double target(float[] out, int offset, float label, float lr) {
        float[] v = input;
        float[] e = inputStep;
        float[] t = target;
        System.arraycopy(out, offset, t, 0, dim);
        float f = FloatVectors.dot(v, 0, t, 0, dim);
        float g = lr * (label - Sigmoid.sigmoid(f));
        for (int k = 0; k < dim; k++) {
            float tk = t[k];
            e[k] += g * tk;
            t[k] = tk + g * v[k];
        }
        System.arraycopy(t, 0, out, offset, dim);
        return -Sigmoid.logSigmoid(label == 1f ? f : -f);
    }

    /**
     * The loss of a pair without a step: {@code -log s(v . u) - sum_j log s(-v . n_j)}, with the
     * vectors at the offsets as in {@link #step}.
     */
    static double loss(float[] in, int inOffset, float[] out, int contextOffset, int[] negativeOffsets,
                       int negatives, int dim) {
        double loss = -Sigmoid.logSigmoid(FloatVectors.dot(in, inOffset, out, contextOffset, dim));
        for (int j = 0; j < negatives; j++) {
            loss -= Sigmoid.logSigmoid(-FloatVectors.dot(in, inOffset, out, negativeOffsets[j], dim));
        }
        return loss;
    }
}
