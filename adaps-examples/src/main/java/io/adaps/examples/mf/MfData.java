package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.SplittableRandom;

import io.adaps.examples.Checks;
import io.adaps.examples.ShareDeal;

/**
 * The known entries of a ratings matrix of {@code numRows x numCols}: entry {@code i} is
 * {@code (rows[i], cols[i], values[i])} with 0-based ids.
 *
 * <p>Entries live in three parallel primitive arrays, so training loops read them without boxing
 * or pointer chasing. The arrays are shared, not copied: {@link #rows()}, {@link #cols()} and
 * {@link #values()} return them for fast loops, and callers must not modify them. Derived data
 * sets ({@link #shuffled}, {@link #split}, {@link #part}) are new arrays.
 */
public final class MfData {
    private final int numRows;
    private final int numCols;
    private final int[] rows;
    private final int[] cols;
    private final float[] values;

    /**
     * Wraps the entries (taking ownership of the arrays) after checking every one.
     *
     * @throws IllegalArgumentException if a size is not positive, the arrays differ in length, an id
     *                                  is out of range or a value is not finite
     */
    public MfData(int numRows, int numCols, int[] rows, int[] cols, float[] values) {
        this.numRows = checkPositive(numRows, "numRows");
        this.numCols = checkPositive(numCols, "numCols");
        this.rows = checkNotNull(rows, "rows");
        this.cols = checkNotNull(cols, "cols");
        this.values = checkNotNull(values, "values");
        if (cols.length != rows.length || values.length != rows.length) {
            throw new IllegalArgumentException("rows.length=" + rows.length + ", cols.length=" + cols.length
                    + ", values.length=" + values.length + " (expected equal lengths)");
        }
        for (int i = 0; i < rows.length; i++) {
            checkId(rows, i, numRows, "rows");
            checkId(cols, i, numCols, "cols");
            if (!Float.isFinite(values[i])) {
                throw new IllegalArgumentException("values[" + i + "]=" + values[i] + " (expected a finite value)");
            }
        }
    }

    private static void checkId(int[] ids, int i, int bound, String name) {
        if (ids[i] < 0 || ids[i] >= bound) {
            throw new IllegalArgumentException(name + "[" + i + "]=" + ids[i] + " (expected 0.." + (bound - 1) + ")");
        }
    }

    /** Rows of the matrix (not all need entries). */
    public int numRows() {
        return numRows;
    }

    /** Columns of the matrix (not all need entries). */
    public int numCols() {
        return numCols;
    }

    /** Entries. */
    public int size() {
        return rows.length;
    }

    /** The row id of each entry; shared, do not modify. */
    public int[] rows() {
        return rows;
    }

    /** The column id of each entry; shared, do not modify. */
    public int[] cols() {
        return cols;
    }

    /** The value of each entry; shared, do not modify. */
    public float[] values() {
        return values;
    }

    /** The same entries in a random order determined by {@code seed}. */
    public MfData shuffled(long seed) {
        return select(permutation(size(), seed), 0, size());
    }

    /**
     * Shuffles the entries with {@code seed} and cuts them into a test set of
     * {@code round(size * testFraction)} entries and a training set of the rest; both keep the
     * shuffled order, so training on them needs no further shuffle.
     *
     * @param testFraction in {@code (0, 1)}
     * @throws IllegalArgumentException if {@code testFraction} is not in {@code (0, 1)}
     */
    public Split split(double testFraction, long seed) {
        Checks.checkOpenFraction(testFraction, "testFraction");
        int[] order = permutation(size(), seed);
        int testSize = (int) Math.round(size() * testFraction);
        return new Split(select(order, testSize, size()), select(order, 0, testSize));
    }

    /**
     * Part {@code part} of {@code parts} contiguous, nearly equal parts of the entries, in order:
     * entries {@code [part * size / parts, (part + 1) * size / parts)}. Every node of a cluster takes
     * its own part of the same (shuffled) entries.
     *
     * @throws IllegalArgumentException unless {@code 0 <= part < parts}
     */
    public MfData part(int part, int parts) {
        checkPositive(parts, "parts");
        if (part < 0 || part >= parts) {
            throw new IllegalArgumentException("part=" + part + " (expected 0.." + (parts - 1) + ")");
        }
        return range((int) ((long) part * size() / parts), (int) ((long) (part + 1) * size() / parts));
    }

    /**
     * Part {@code part} of contiguous parts of the entries in the proportions of {@code shares}
     * (one per part, summing to 1; {@link ShareDeal#check}), in order: from the entry at the sum of
     * the shares before it times the size, rounded, to the next part's start; the last part ends
     * with the last entry.
     *
     * @throws IllegalArgumentException unless {@code 0 <= part < shares.length}, or if the shares
     *                                  are not shares
     */
    public MfData part(int part, double[] shares) {
        checkNotNull(shares, "shares");
        if (part < 0 || part >= shares.length) {
            throw new IllegalArgumentException("part=" + part + " (expected 0.." + (shares.length - 1) + ")");
        }
        ShareDeal.check(shares, part);
        double before = 0;
        for (int i = 0; i < part; i++) {
            before += shares[i];
        }
        int from = (int) Math.round(before * size());
        int to = part == shares.length - 1 ? size() : (int) Math.round((before + shares[part]) * size());
        return range(from, Math.max(from, to));
    }

    private MfData range(int from, int to) {
        return new MfData(numRows, numCols, Arrays.copyOfRange(rows, from, to), Arrays.copyOfRange(cols, from, to),
                Arrays.copyOfRange(values, from, to));
    }

    /** A seeded Fisher-Yates permutation of {@code 0 .. n - 1}. */
    static int[] permutation(int n, long seed) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** The entries {@code order[from .. to)} of this, in that order. */
    MfData select(int[] order, int from, int to) {
        int n = to - from;
        int[] r = new int[n];
        int[] c = new int[n];
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            int e = order[from + i];
            r[i] = rows[e];
            c[i] = cols[e];
            v[i] = values[e];
        }
        return new MfData(numRows, numCols, r, c, v);
    }

    @Override
    public String toString() {
        return "MfData[" + numRows + " x " + numCols + ", " + size() + " entries]";
    }

    /**
     * A training and a test set of the same matrix.
     *
     * @param train the entries to train on
     * @param test  the held-out entries to evaluate on
     */
    public record Split(MfData train, MfData test) {
    }
}
