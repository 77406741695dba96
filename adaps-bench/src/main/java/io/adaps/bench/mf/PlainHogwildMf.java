package io.adaps.bench.mf;

import static io.adaps.examples.Checks.checkPositive;

import io.adaps.api.Initializer;
import io.adaps.examples.FloatVectors;
import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfTables;
import io.adaps.examples.mf.ShardPool;

/**
 * The baseline of {@link MfEpochBenchmark}: classic Hogwild SGD matrix factorization on two flat
 * shared {@code float[]} arrays, with no library, no locks and no copies. Threads read the two
 * factor rows in place, compute the error and write the step straight back, racing with each
 * other exactly as in Recht et al., "Hogwild!" (NIPS 2011); updates may be lost, which Hogwild
 * accepts.
 *
 * <p>It starts from the same initial values as the AdaPS tables ({@link MfTables}) and applies the
 * same step as {@link io.adaps.examples.mf.MfSgdKernel}, so the two differ only in how parameters
 * are stored and accessed. Lives in the benchmark module because it is a yardstick, not library
 * code.
 */
public final class PlainHogwildMf {
    private final int rank;
    private final float learningRate;
    private final float regularization;
    private final float[] rowFactors;
    private final float[] colFactors;

    /**
     * A model for a {@code numRows x numCols} matrix initialized like {@link MfTables#startNode} with {@code seed}.
     *
     * @throws IllegalArgumentException if a size is not positive or a factor array would exceed 2^31 floats
     */
    public PlainHogwildMf(int numRows, int numCols, int rank, float learningRate, float regularization, long seed) {
        this.rank = checkPositive(rank, "rank");
        this.learningRate = learningRate;
        this.regularization = regularization;
        this.rowFactors = initialFactors(numRows, rank, MfTables.rowSpec(numRows, rank, seed).initializer());
        this.colFactors = initialFactors(numCols, rank, MfTables.colSpec(numCols, rank, seed).initializer());
    }

    private static float[] initialFactors(int rows, int rank, Initializer initializer) {
        checkPositive(rows, "rows");
        if ((long) rows * rank > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("rows=" + rows + ", rank=" + rank + " (expected rows * rank < 2^31)");
        }
        float[] factors = new float[rows * rank];
        for (int row = 0; row < rows; row++) {
            initializer.initialize(row, factors, row * rank, rank);
        }
        return factors;
    }

    /** One SGD step on entry {@code (row, col, value)} in place; returns the squared error before the step. */
    public float step(int row, int col, float value) {
        int u = row * rank;
        int w = col * rank;
        // The same sum as the AdaPS kernel's, so that the comparison is of the libraries' work.
        float error = value - FloatVectors.dot(rowFactors, u, colFactors, w, rank);
        float lr = learningRate;
        float reg = regularization;
        for (int i = 0; i < rank; i++) {
            float ui = rowFactors[u + i];
            float wi = colFactors[w + i];
            rowFactors[u + i] = ui + lr * (error * wi - reg * ui);
            colFactors[w + i] = wi + lr * (error * ui - reg * wi);
        }
        return error * error;
    }

    /**
     * One epoch over {@code train} on the threads of {@code pool}, each on a contiguous share, like
     * {@link io.adaps.examples.mf.MfTrainer#epoch}.
     *
     * @return the sum over the entries of the squared error before each entry's step
     */
    public double epoch(MfData train, ShardPool pool) {
        int[] rows = train.rows();
        int[] cols = train.cols();
        float[] values = train.values();
        return pool.run(train.size(), (thread, from, to) -> {
            double sum = 0;
            for (int i = from; i < to; i++) {
                sum += step(rows[i], cols[i], values[i]);
            }
            return sum;
        });
    }
}
