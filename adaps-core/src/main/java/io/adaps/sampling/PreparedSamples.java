package io.adaps.sampling;

import io.adaps.api.TableView;

/**
 * One worker's prepared samples: the rows drawn for each handle until it is pulled. A ring of
 * {@link TableView#MAX_PREPARED_SAMPLES} slots indexed by the handle's low bits; handles count up
 * from 1, so a handle names one preparation and a slot's current handle tells whether a handle
 * given back is still prepared. Key arrays are kept per slot and grown, never shrunk: a worker
 * that prepares samples of similar sizes allocates nothing after warm-up. Owned by the worker's
 * thread.
 */
public final class PreparedSamples {
    private static final int SLOTS = TableView.MAX_PREPARED_SAMPLES;
    private static final int MASK = SLOTS - 1;

    private final long[] handles = new long[SLOTS];
    private final int[] tables = new int[SLOTS];
    private final int[] sizes = new int[SLOTS];
    private final long[][] keys = new long[SLOTS][];
    private long lastHandle;

    /**
     * Reserves the slot of the next handle for {@code n} rows of table {@code table}; its keys
     * are then written to {@link #keys(long)}.
     *
     * @throws IllegalStateException if that slot still holds a sample that was not pulled
     */
    public long reserve(int table, int n) {
        long handle = lastHandle + 1;
        int slot = (int) (handle & MASK);
        if (handles[slot] != 0) {
            throw new IllegalStateException("prepared samples=" + SLOTS + " not pulled, among them handle "
                    + handles[slot] + " (expected at most " + SLOTS + " prepared and not pulled)");
        }
        lastHandle = handle;
        handles[slot] = handle;
        tables[slot] = table;
        sizes[slot] = n;
        if (keys[slot] == null || keys[slot].length < n) {
            keys[slot] = new long[Math.max(n, keys[slot] == null ? 0 : keys[slot].length * 2)];
        }
        return handle;
    }

    /** The keys of a reserved handle, to be filled with its {@link #size(long)} rows. */
    public long[] keys(long handle) {
        return keys[(int) (handle & MASK)];
    }

    /** The rows of a prepared handle. */
    public int size(long handle) {
        return sizes[(int) (handle & MASK)];
    }

    /**
     * Checks that {@code handle} is prepared and not pulled, for table {@code table}.
     *
     * @throws IllegalArgumentException naming the handle otherwise
     */
    public void check(long handle, int table, String tableName) {
        int slot = (int) (handle & MASK);
        if (handle <= 0 || handles[slot] != handle) {
            throw new IllegalArgumentException("handle=" + handle + " (expected a prepared sample not yet pulled)");
        }
        if (tables[slot] != table) {
            throw new IllegalArgumentException("handle=" + handle + " (expected a sample of table '" + tableName
                    + "', it was prepared for another table)");
        }
    }

    /** Frees a handle's slot once it is pulled. */
    public void release(long handle) {
        handles[(int) (handle & MASK)] = 0;
    }
}
