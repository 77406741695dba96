package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositiveFinite;

import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * The per-entry work of SGD matrix factorization for one training thread, on AdaPS tables.
 *
 * <p>For entry {@code (r, c, v)} with row factor {@code u} and column factor {@code w}, the error
 * is {@code e = v - u . w} and the loss {@code e^2 + reg * (|u|^2 + |w|^2)}; a step moves
 * {@code u += lr * (e * w - reg * u)} and {@code w += lr * (e * u - reg * w)}, both computed from the
 * pulled (old) values. The steps are pushed as updates to additive tables rather than written
 * back, so concurrent steps on the same row from other threads (or, later, other nodes) add up
 * instead of overwriting each other: Hogwild without lost updates.
 *
 * <p>Belongs to the thread of its worker. The four {@code rank}-sized buffers are allocated once,
 * so a step allocates nothing.
 */
public final class MfSgdKernel {
    private final TableView rowFactors;
    private final TableView colFactors;
    private final float learningRate;
    private final float regularization;
    private final float[] u;
    private final float[] w;
    private final float[] du;
    private final float[] dw;

    /**
     * A kernel on {@code worker}'s views of the two factor tables.
     *
     * @throws IllegalArgumentException if a table is unknown, the tables' value lengths differ, or a
     *                                  rate is out of range
     */
    public MfSgdKernel(Worker worker, String rowTable, String colTable, float learningRate, float regularization) {
        checkNotNull(worker, "worker");
        this.rowFactors = worker.table(rowTable);
        this.colFactors = worker.table(colTable);
        int rank = rowFactors.table().valueLength();
        if (colFactors.table().valueLength() != rank) {
            throw new IllegalArgumentException("valueLength=" + colFactors.table().valueLength() + " of table '"
                    + colTable + "' (expected " + rank + ", the value length of table '" + rowTable + "')");
        }
        this.learningRate = checkPositiveFinite(learningRate, "learningRate");
        this.regularization = ExampleChecks.checkNonNegativeFinite(regularization, "regularization");
        this.u = new float[rank];
        this.w = new float[rank];
        this.du = new float[rank];
        this.dw = new float[rank];
    }

    /** One SGD step on entry {@code (row, col, value)}; returns the squared error before the step. */
    public float step(int row, int col, float value) {
        float error = value - pullAndPredict(row, col);
        float lr = learningRate;
        float reg = regularization;
        for (int i = 0; i < u.length; i++) {
            du[i] = lr * (error * w[i] - reg * u[i]);
            dw[i] = lr * (error * u[i] - reg * w[i]);
        }
        rowFactors.push(row, du, 0);
        colFactors.push(col, dw, 0);
        return error * error;
    }

    /** The squared error of the current model on entry {@code (row, col, value)}; changes nothing. */
    public float squaredError(int row, int col, float value) {
        float error = value - pullAndPredict(row, col);
        return error * error;
    }

    private float pullAndPredict(int row, int col) {
        rowFactors.pull(row, u, 0);
        colFactors.pull(col, w, 0);
        float dot = 0;
        for (int i = 0; i < u.length; i++) {
            dot += u[i] * w[i];
        }
        return dot;
    }
}
