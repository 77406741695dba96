package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;

import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;
import io.adaps.api.Table;

/**
 * Hogwild-style parallel SGD matrix factorization on an AdaPS node (Recht et al., "Hogwild!",
 * NIPS 2011; the update is that of Koren, Bell, Volinsky, "Matrix factorization techniques for
 * recommender systems", 2009).
 *
 * <p>An epoch splits the training entries into one contiguous share per thread (the entries are
 * expected in random order, see {@link MfData#split}) and each thread runs {@link MfSgdKernel#train}
 * on its share in batches, with no coordination beyond what the node does per parameter; an epoch
 * returns once every update is applied. Each thread has its own {@link io.adaps.api.Worker} and
 * kernel, created once and bound to a thread of a {@link ShardPool} that lives as long as the
 * trainer.
 *
 * <p>The trainer takes a node that is already running and the names of its two factor tables, so
 * the same code trains on one node or on one node of a cluster (there, on the node's part of the
 * entries, see {@link MfData#part}).
 */
public final class MfTrainer implements AutoCloseable {
    /** Entries a thread processes between two progress reports: coarse, so reporting costs nothing. */
    static final int PROGRESS_STEP = 1 << 16;
    /** Entries per batch of pulls and pushes, unless configured otherwise. */
    public static final int DEFAULT_BATCH = 1024;

    private final Table rowTable;
    private final Table colTable;
    private final MfSgdKernel[] kernels;
    private final ShardPool pool;

    /**
     * A trainer with {@code threads} training threads on {@code node} and batches of
     * {@value #DEFAULT_BATCH} entries.
     *
     * @see #MfTrainer(AdaPS, String, String, float, float, int, int)
     */
    public MfTrainer(AdaPS node, String rowTable, String colTable, float learningRate, float regularization,
                     int threads) {
        this(node, rowTable, colTable, learningRate, regularization, threads, DEFAULT_BATCH);
    }

    /**
     * A trainer with {@code threads} training threads on {@code node}.
     *
     * @param rowTable       name of the table of row factors
     * @param colTable       name of the table of column factors, of the same value length (the rank)
     * @param learningRate   SGD step size, finite and positive
     * @param regularization L2 regularization weight, finite and >= 0
     * @param batchSize      entries per batch of pulls and pushes (see {@link MfSgdKernel}), > 0
     * @throws IllegalArgumentException naming the first argument out of range or unknown table
     */
    public MfTrainer(AdaPS node, String rowTable, String colTable, float learningRate, float regularization,
                     int threads, int batchSize) {
        checkNotNull(node, "node");
        checkPositive(threads, "threads");
        this.rowTable = node.table(rowTable);
        this.colTable = node.table(colTable);
        this.kernels = new MfSgdKernel[threads];
        for (int t = 0; t < threads; t++) {
            kernels[t] = new MfSgdKernel(node.worker(), rowTable, colTable, learningRate, regularization, batchSize);
        }
        this.pool = new ShardPool(threads, "adaps-mf");
    }

    /**
     * Runs one epoch over {@code train}, in its order.
     *
     * @param progress receives, from the training threads, the number of entries done since their
     *                 last report, every {@value #PROGRESS_STEP} entries and at the end of a share;
     *                 it must be thread-safe
     * @return the sum over the entries of the squared error before each entry's step
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double epoch(MfData train, LongConsumer progress) {
        checkFits(train);
        checkNotNull(progress, "progress");
        return pool.run(train.size(), (thread, from, to) -> {
            MfSgdKernel kernel = kernels[thread];
            double sum = 0;
            for (int start = from; start < to; start += PROGRESS_STEP) {
                int end = Math.min(to, start + PROGRESS_STEP);
                sum += kernel.train(train, start, end);
                progress.accept(end - start);
            }
            return sum;
        });
    }

    /** {@link #epoch(MfData, LongConsumer)} without progress reports. */
    public double epoch(MfData train) {
        return epoch(train, done -> { });
    }

    /**
     * The root mean squared error of the current model on {@code data}, evaluated in parallel on the
     * training threads; {@code NaN} for no entries.
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double rmse(MfData data) {
        return Math.sqrt(squaredErrors(data) / data.size());
    }

    /**
     * The sum of the squared errors of the current model on {@code data}, evaluated in parallel on
     * the training threads. Nodes of a cluster add up their sums to get the cluster's RMSE.
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double squaredErrors(MfData data) {
        checkFits(data);
        return pool.run(data.size(), (thread, from, to) -> kernels[thread].squaredErrors(data, from, to));
    }

    private void checkFits(MfData data) {
        checkNotNull(data, "data");
        if (data.numRows() > rowTable.rows() || data.numCols() > colTable.rows()) {
            throw new IllegalArgumentException("data=" + data + " (expected at most " + rowTable.rows() + " x "
                    + colTable.rows() + ", the rows of tables '" + rowTable.name() + "' and '" + colTable.name()
                    + "')");
        }
    }

    /** Stops the training threads; the node stays open. Idempotent. */
    @Override
    public void close() {
        pool.close();
    }
}
