package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;

/**
 * The distinct rows and columns of a range of entries, each once, in the order of their first
 * entry: the keys a training thread signals intent for, per intent group of its
 * {@link IntentSchedule}.
 *
 * <p>Duplicates are found with a stamp per row and per column (the number of the collection that
 * saw it last), so a collection costs one pass over its entries and clears nothing. Belongs to one
 * thread; allocates nothing after construction.
 */
final class ChunkKeys {
    private final int[] rowStamp;
    private final int[] colStamp;
    private final long[] rows;
    private final long[] cols;
    private final int maxEntries;
    private int rowCount;
    private int colCount;
    /** The number of the current collection; stamps of earlier ones are smaller. */
    private int stamp;

    /**
     * Room for the keys of up to {@code maxEntries} entries of a {@code numRows x numCols} matrix.
     *
     * @throws IllegalArgumentException if a size is not positive
     */
    ChunkKeys(int numRows, int numCols, int maxEntries) {
        checkPositive(numRows, "numRows");
        checkPositive(numCols, "numCols");
        this.maxEntries = checkPositive(maxEntries, "maxEntries");
        this.rowStamp = new int[numRows];
        this.colStamp = new int[numCols];
        this.rows = new long[Math.min(numRows, maxEntries)];
        this.cols = new long[Math.min(numCols, maxEntries)];
    }

    /**
     * Collects the distinct rows and columns of entries {@code [from, to)} of {@code data},
     * replacing those of the previous collection.
     *
     * @throws IllegalArgumentException if the range is not within the data, holds more than the
     *                                  entries this was made for, or the data is larger than the matrix
     */
    void collect(MfData data, int from, int to) {
        checkNotNull(data, "data");
        if (from < 0 || from > to || to > data.size() || to - from > maxEntries) {
            throw new IllegalArgumentException("from=" + from + ", to=" + to + " (expected 0 <= from <= to <= "
                    + data.size() + " and at most " + maxEntries + " entries)");
        }
        if (data.numRows() > rowStamp.length || data.numCols() > colStamp.length) {
            throw new IllegalArgumentException("data=" + data + " (expected at most " + rowStamp.length + " x "
                    + colStamp.length + ")");
        }
        if (stamp == Integer.MAX_VALUE) {
            Arrays.fill(rowStamp, 0);
            Arrays.fill(colStamp, 0);
            stamp = 0;
        }
        int current = ++stamp;
        int[] entryRows = data.rows();
        int[] entryCols = data.cols();
        int nextRow = 0;
        int nextCol = 0;
        for (int i = from; i < to; i++) {
            int row = entryRows[i];
            if (rowStamp[row] != current) {
                rowStamp[row] = current;
                rows[nextRow++] = row;
            }
            int col = entryCols[i];
            if (colStamp[col] != current) {
                colStamp[col] = current;
                cols[nextCol++] = col;
            }
        }
        rowCount = nextRow;
        colCount = nextCol;
    }

    /** The rows collected last, in {@code [0, rowCount())}; shared and reused, do not modify. */
    long[] rows() {
        return rows;
    }

    /** The number of rows collected last. */
    int rowCount() {
        return rowCount;
    }

    /** The columns collected last, in {@code [0, colCount())}; shared and reused, do not modify. */
    long[] cols() {
        return cols;
    }

    /** The number of columns collected last. */
    int colCount() {
        return colCount;
    }
}
