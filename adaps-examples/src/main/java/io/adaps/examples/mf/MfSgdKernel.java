package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;
import static io.adaps.examples.Checks.checkPositiveFinite;

import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.Checks;
import io.adaps.examples.FloatVectors;

/**
 * The work of SGD matrix factorization for one training thread, on AdaPS tables, in batches of
 * entries.
 *
 * <p>For entry {@code (r, c, v)} with row factor {@code u} and column factor {@code w}, the error
 * is {@code e = v - u . w} and the loss {@code e^2 + reg * (|u|^2 + |w|^2)}; a step moves
 * {@code u += lr * (e * w - reg * u)} and {@code w += lr * (e * u - reg * w)}, both computed from the
 * old values.
 *
 * <p>An entry whose row and column this node holds (owns, or has a fetched replica of) is stepped
 * where the node stores them ({@link TableView#updateInPlace}, one call for the batch's entries
 * tried in place): Hogwild as on plain arrays, except
 * that each step holds the two rows' locks, so concurrent steps and pushes add up instead of
 * overwriting each other, and a replica's change goes to its owner with the next synchronization.
 * On a single node with one thread that is every entry. The entries of a batch that are not all
 * here (a row at another node, one on its way, a replica not fetched yet), or whose row another
 * thread was writing at that moment, are stepped on copies: the batch pulls their distinct rows and
 * columns with one multi-row pull per table, runs their steps in order on the copies (so an entry
 * sees the steps of the entries before it, as in sequential SGD), and pushes what they changed as
 * updates to the additive tables. On a cluster such a batch costs one round trip per peer instead
 * of several per entry, and the other threads' and nodes' steps on the same rows become visible at
 * the next batch. Within a batch the entries stepped in place go first, then those on copies,
 * each in their order.
 *
 * <p>Entries whose row and column are both frequent go to the copies without trying in place: a
 * copy costs once per distinct row and batch, an in-place step two locks per entry, so where a
 * batch names the same rows over and over (zipf-1.5 data: both the hottest rows and columns) the
 * copies cost less. Frequent means expected at least twice per batch, which the step scales tell
 * ({@link StepScales}: a parameter stepped at scale {@code s} holds more than
 * {@code REFERENCE_SHARE / s} of the entries).
 *
 * <p>Belongs to the thread of its worker; the buffers are allocated once, so training allocates
 * nothing.
 */
public final class MfSgdKernel {
    /**
     * The most batches an evaluation may pull before it waits ({@link #squaredErrors(MfData, int,
     * int, int)}): one pull per table and batch, as in training, up to this many in flight at once.
     * The MF example's initial evaluation uses them all; see {@code MfRun.INITIAL_BATCHES_IN_FLIGHT}
     * for why no more. The evaluation's row batches hold this many batches' rows.
     */
    public static final int MAX_BATCHES_IN_FLIGHT = 16;
    /**
     * The most distinct rows of a table an evaluation's window holds: its batches end early rather
     * than pass it, so that a large table's window takes at most this many values per table.
     */
    static final int EVALUATION_ROWS = 1 << 16;

    private final Worker worker;
    private final TableView rowFactors;
    private final TableView colFactors;
    private final RowBatch rowBatch;
    private final RowBatch colBatch;
    /** An evaluation's rows and columns of up to {@link #MAX_BATCHES_IN_FLIGHT} batches, and its pulls' tickets. */
    private final RowBatch evaluationRows;
    private final RowBatch evaluationCols;
    private final long[] evaluationTickets = new long[2 * MAX_BATCHES_IN_FLIGHT];
    /** The most rows those batches may hold before a window takes another batch. */
    private final int evaluationRowRoom;
    private final int evaluationColRoom;
    /** Entries of the current batch that were not stepped in place, by index. */
    private final int[] copies;
    /** The current batch's entries tried in place, by index, with their rows and columns. */
    private final int[] pairEntries;
    private final long[] pairRows;
    private final long[] pairCols;
    /** Of those, the pairs not done (indexes into them); and the entries that go to the copies at once. */
    private final int[] notDone;
    private final int[] repeated;
    private final InPlaceStep inPlace = new InPlaceStep();
    private final int batchSize;
    private final int rank;
    private final float learningRate;
    private final float regularization;
    /** A scaled step size at or below this belongs to a parameter expected at least twice per batch. */
    private final float repeatedRate;

    /**
     * A kernel on {@code worker}'s views of the two factor tables.
     *
     * @param batchSize entries per batch, > 0
     * @throws IllegalArgumentException if a table is unknown, the tables' value lengths differ, or a
     *                                  rate or the batch size is out of range
     */
    public MfSgdKernel(Worker worker, String rowTable, String colTable, float learningRate, float regularization,
                       int batchSize) {
        checkNotNull(worker, "worker");
        this.rowFactors = worker.table(rowTable);
        this.colFactors = worker.table(colTable);
        this.rank = rowFactors.table().valueLength();
        if (colFactors.table().valueLength() != rank) {
            throw new IllegalArgumentException("valueLength=" + colFactors.table().valueLength() + " of table '"
                    + colTable + "' (expected " + rank + ", the value length of table '" + rowTable + "')");
        }
        this.learningRate = checkPositiveFinite(learningRate, "learningRate");
        this.regularization = Checks.checkNonNegativeFinite(regularization, "regularization");
        this.batchSize = checkPositive(batchSize, "batchSize");
        this.repeatedRate = (float) (learningRate * batchSize * StepScales.REFERENCE_SHARE / 2);
        this.worker = worker;
        this.copies = new int[batchSize];
        this.pairEntries = new int[batchSize];
        this.pairRows = new long[batchSize];
        this.pairCols = new long[batchSize];
        this.notDone = new int[batchSize];
        this.repeated = new int[batchSize];
        this.rowBatch = new RowBatch(rowFactors, (int) Math.min(batchSize, rowFactors.table().rows()));
        this.colBatch = new RowBatch(colFactors, (int) Math.min(batchSize, colFactors.table().rows()));
        this.evaluationRows = RowBatch.forReads(rowFactors, evaluationCapacity(batchSize, rowFactors));
        this.evaluationCols = RowBatch.forReads(colFactors, evaluationCapacity(batchSize, colFactors));
        this.evaluationRowRoom = evaluationRoom(batchSize, rowFactors);
        this.evaluationColRoom = evaluationRoom(batchSize, colFactors);
    }

    /**
     * Runs the SGD steps of entries {@code [from, to)} of {@code data}, in order, and returns once
     * every update is applied.
     *
     * @return the sum over the entries of the squared error before each entry's step
     * @throws IllegalArgumentException if the range is not within the data
     */
    public double train(MfData data, int from, int to) {
        return train(data, from, to, StepScales.NONE);
    }

    /**
     * As {@link #train(MfData, int, int)}, with the step size of each entry's row and column
     * multiplied by its scale in {@code scales}.
     */
    double train(MfData data, int from, int to, StepScales scales) {
        checkEntries(data, from, to);
        checkNotNull(scales, "scales");
        boolean damps = scales.damps();
        int[] rows = data.rows();
        int[] cols = data.cols();
        float[] values = data.values();
        inPlace.entries(rows, cols, values, scales, damps);
        double sum = 0;
        for (int start = from; start < to; start += batchSize) {
            int end = Math.min(to, start + batchSize);
            int pairs = 0;
            int repeatedCount = 0;
            for (int i = start; i < end; i++) {
                if (damps && rowRate(scales, damps, rows[i]) <= repeatedRate
                        && colRate(scales, damps, cols[i]) <= repeatedRate) {
                    repeated[repeatedCount++] = i;
                } else {
                    pairEntries[pairs] = i;
                    pairRows[pairs] = rows[i];
                    pairCols[pairs] = cols[i];
                    pairs++;
                }
            }
            inPlace.sum = sum;
            int missed = pairs == 0 ? 0
                    : rowFactors.updateInPlace(pairRows, 0, colFactors, pairCols, 0, pairs, inPlace, notDone);
            sum = inPlace.sum;
            int copied = mergeCopies(repeatedCount, missed);
            if (copied > 0) {
                sum += trainOnCopies(rows, cols, values, copied, damps, scales);
            }
        }
        worker.waitAll();
        return sum;
    }

    /**
     * Puts in {@link #copies}, in order, the entries {@link #repeated}{@code [0 .. repeatedCount)}
     * and those of the pairs {@link #notDone}{@code [0 .. missed)}; returns their number.
     */
    private int mergeCopies(int repeatedCount, int missed) {
        int copied = 0;
        int r = 0;
        int m = 0;
        while (r < repeatedCount || m < missed) {
            if (m == missed || r < repeatedCount && repeated[r] < pairEntries[notDone[m]]) {
                copies[copied++] = repeated[r++];
            } else {
                copies[copied++] = pairEntries[notDone[m++]];
            }
        }
        return copied;
    }

    /** The step size of row {@code row}: the learning rate, times its scale if {@code scales} {@code damps}. */
    private float rowRate(StepScales scales, boolean damps, int row) {
        return damps ? learningRate * scales.row(row) : learningRate;
    }

    /** The step size of column {@code col}, as {@link #rowRate}. */
    private float colRate(StepScales scales, boolean damps, int col) {
        return damps ? learningRate * scales.col(col) : learningRate;
    }

    /**
     * Trains the entries {@link #copies}{@code [0 .. count)}, those not stepped in place, on copies:
     * pulls their distinct rows and columns, steps in order, pushes the steps.
     */
    private double trainOnCopies(int[] rows, int[] cols, float[] values, int count, boolean damps,
                                 StepScales scales) {
        for (int j = 0; j < count; j++) {
            rowBatch.add(rows[copies[j]]);
            colBatch.add(cols[copies[j]]);
        }
        pullBatches();
        rowBatch.keepPulledValues();
        colBatch.keepPulledValues();
        double sum = 0;
        for (int j = 0; j < count; j++) {
            int i = copies[j];
            sum += step(rowBatch.values, rowBatch.offset(rows[i]), colBatch.values, colBatch.offset(cols[i]),
                    values[i], rowRate(scales, damps, rows[i]), colRate(scales, damps, cols[i]));
        }
        rowBatch.pushSteps();
        colBatch.pushSteps();
        rowBatch.clear();
        colBatch.clear();
        return sum;
    }

    /**
     * The sum of the squared errors of the current model on entries {@code [from, to)} of
     * {@code data}; changes nothing.
     *
     * @throws IllegalArgumentException if the range is not within the data
     */
    public double squaredErrors(MfData data, int from, int to) {
        return squaredErrors(data, from, to, 1);
    }

    /**
     * As {@link #squaredErrors(MfData, int, int)}, with up to {@code batchesInFlight} batches' pulls
     * in flight at once: fewer waits for round trips where the rows are remote, in fewer and larger
     * frames.
     *
     * @throws IllegalArgumentException if the range is not within the data, or unless
     *                                  {@code 1 <= batchesInFlight <=} {@link #MAX_BATCHES_IN_FLIGHT}
     */
    public double squaredErrors(MfData data, int from, int to, int batchesInFlight) {
        checkEntries(data, from, to);
        checkBatchesInFlight(batchesInFlight);
        int[] rows = data.rows();
        int[] cols = data.cols();
        float[] values = data.values();
        float[] u = evaluationRows.values;
        float[] w = evaluationCols.values;
        double sum = 0;
        int windowEnd;
        for (int windowStart = from; windowStart < to; windowStart = windowEnd) {
            windowEnd = windowStart;
            int tickets = 0;
            // A window takes another batch while both row batches have room for all its entries' rows.
            while (windowEnd < to && tickets < 2 * batchesInFlight
                    && evaluationRows.size() <= evaluationRowRoom && evaluationCols.size() <= evaluationColRoom) {
                int end = Math.min(to, windowEnd + batchSize);
                for (int i = windowEnd; i < end; i++) {
                    evaluationRows.add(rows[i]);
                    evaluationCols.add(cols[i]);
                }
                evaluationTickets[tickets++] = evaluationRows.pullAsync();
                evaluationTickets[tickets++] = evaluationCols.pullAsync();
                windowEnd = end;
            }
            for (int t = 0; t < tickets; t++) {
                worker.waitFor(evaluationTickets[t]);
            }
            for (int i = windowStart; i < windowEnd; i++) {
                float error = values[i] - dot(u, evaluationRows.offset(rows[i]), w, evaluationCols.offset(cols[i]));
                sum += error * error;
            }
            evaluationRows.clear();
            evaluationCols.clear();
        }
        return sum;
    }

    /**
     * The rows of {@code view}'s table that an evaluation's window holds: those of
     * {@link #MAX_BATCHES_IN_FLIGHT} batches, at most the table's and at least a batch's, and
     * {@link #EVALUATION_ROWS} unless a batch needs more.
     */
    private static int evaluationCapacity(int batchSize, TableView view) {
        long window = Math.min((long) batchSize * MAX_BATCHES_IN_FLIGHT, Math.max(EVALUATION_ROWS, batchSize));
        return (int) Math.min(window, view.table().rows());
    }

    /**
     * The most rows of {@code view}'s table an evaluation's window may hold before it takes another
     * batch: unbounded if the window holds the whole table, else its capacity less a batch (at least
     * 0, since a window smaller than the table holds at least a batch).
     */
    private static int evaluationRoom(int batchSize, TableView view) {
        int capacity = evaluationCapacity(batchSize, view);
        return capacity == view.table().rows() ? Integer.MAX_VALUE : capacity - batchSize;
    }

    /**
     * Checks that {@code 1 <= batchesInFlight <=} {@link #MAX_BATCHES_IN_FLIGHT}.
     *
     * @throws IllegalArgumentException naming the value otherwise
     */
    static int checkBatchesInFlight(int batchesInFlight) {
        if (batchesInFlight < 1 || batchesInFlight > MAX_BATCHES_IN_FLIGHT) {
            throw new IllegalArgumentException("batchesInFlight=" + batchesInFlight + " (expected 1 <= batchesInFlight <= "
                    + MAX_BATCHES_IN_FLIGHT + ")");
        }
        return batchesInFlight;
    }

    private static void checkEntries(MfData data, int from, int to) {
        checkNotNull(data, "data");
        if (from < 0 || from > to || to > data.size()) {
            throw new IllegalArgumentException("from=" + from + ", to=" + to + " (expected 0 <= from <= to <= "
                    + data.size() + ", the entries of " + data + ")");
        }
    }

    /** Pulls the rows and columns added to the batches. */
    private void pullBatches() {
        long rowTicket = rowBatch.pullAsync();
        long colTicket = colBatch.pullAsync();
        worker.waitFor(rowTicket);
        worker.waitFor(colTicket);
    }

    /**
     * One step on the row factor at {@code u[uo ..]} and the column factor at {@code w[wo ..]}, of
     * size {@code rowRate} for the row and {@code colRate} for the column; returns e^2.
     */
    private float step(float[] u, int uo, float[] w, int wo, float value, float rowRate, float colRate) {
        float error = value - dot(u, uo, w, wo);
        float reg = regularization;
        for (int k = 0; k < rank; k++) {
            float uk = u[uo + k];
            float wk = w[wo + k];
            u[uo + k] = uk + rowRate * (error * wk - reg * uk);
            w[wo + k] = wk + colRate * (error * uk - reg * wk);
        }
        return error * error;
    }

    /**
     * The step of the batch's pair {@code pair} ({@link #pairEntries}) on its row and column where the
     * node stores them, adding its squared error to {@link #sum}.
     */
    private final class InPlaceStep implements InPlacePairUpdate {
        private int[] rows;
        private int[] cols;
        private float[] values;
        private StepScales scales;
        private boolean damps;
        double sum;

        /** The entries that {@link #pairEntries} index. */
        void entries(int[] rows, int[] cols, float[] values, StepScales scales, boolean damps) {
            this.rows = rows;
            this.cols = cols;
            this.values = values;
            this.scales = scales;
            this.damps = damps;
        }

        @Override
        public void apply(int pair, float[] u, int uo, float[] w, int wo) {
            int entry = pairEntries[pair];
            sum += step(u, uo, w, wo, values[entry], rowRate(scales, damps, rows[entry]),
                    colRate(scales, damps, cols[entry]));
        }
    }

    private float dot(float[] u, int uo, float[] w, int wo) {
        return FloatVectors.dot(u, uo, w, wo, rank);
    }
}
