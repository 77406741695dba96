package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;

/**
 * The distinct columns of a range of entries, each once, in the order of their first entry: the
 * columns a training thread signals intent for, per intent group of its {@link IntentSchedule}
 * (its rows go once per epoch, {@link IntentSchedule#shareRows}).
 *
 * <p>Duplicates are found with a stamp per column (the number of the collection that saw it
 * last), so a collection costs one pass over its entries and clears nothing. Belongs to one
 * thread; allocates nothing after construction.
 */
final class ChunkColumns {
    private final int[] stamps;
    private final long[] cols;
    private final int maxEntries;
    private int count;
    /** The number of the current collection; stamps of earlier ones are smaller. */
    private int stamp;

    /**
     * Room for the columns of up to {@code maxEntries} entries of a matrix of {@code numCols}
     * columns.
     *
     * @throws IllegalArgumentException if a size is not positive
     */
    ChunkColumns(int numCols, int maxEntries) {
        checkPositive(numCols, "numCols");
        this.maxEntries = checkPositive(maxEntries, "maxEntries");
        this.stamps = new int[numCols];
        this.cols = new long[Math.min(numCols, maxEntries)];
    }

    /**
     * Collects the distinct columns of entries {@code [from, to)} of {@code data}, replacing those
     * of the previous collection.
     *
     * @throws IllegalArgumentException if the range is not within the data, holds more than the
     *                                  entries this was made for, or the data has more columns
     */
    void collect(MfData data, int from, int to) {
        checkNotNull(data, "data");
        if (from < 0 || from > to || to > data.size() || to - from > maxEntries) {
            throw new IllegalArgumentException("from=" + from + ", to=" + to + " (expected 0 <= from <= to <= "
                    + data.size() + " and at most " + maxEntries + " entries)");
        }
        if (data.numCols() > stamps.length) {
            throw new IllegalArgumentException("data=" + data + " (expected at most " + stamps.length + " columns)");
        }
        if (stamp == Integer.MAX_VALUE) {
            Arrays.fill(stamps, 0);
            stamp = 0;
        }
        int current = ++stamp;
        int[] entryCols = data.cols();
        int next = 0;
        for (int i = from; i < to; i++) {
            int col = entryCols[i];
            if (stamps[col] != current) {
                stamps[col] = current;
                cols[next++] = col;
            }
        }
        count = next;
    }

    /** The most entries a collection may range over. */
    int maxEntries() {
        return maxEntries;
    }

    /** The columns collected last, in {@code [0, count())}; shared and reused, do not modify. */
    long[] cols() {
        return cols;
    }

    /** The number of columns collected last. */
    int count() {
        return count;
    }
}
