package io.adaps.directory;

import java.util.Arrays;

/**
 * Where this node last learned that each row is held: a hint that lets requests skip the home
 * node. A stale entry costs a forwarding hop, never correctness (the node that no longer holds a
 * row passes the request on), so entries are plain racy ints: written by any thread, read by
 * workers without synchronization. One {@code int} per row per table.
 */
public final class LocationCache {
    /** No location known. */
    public static final int UNKNOWN = -1;
    private final int[][] nodes;

    /** An empty cache for tables of the given row counts. */
    public LocationCache(long[] rowsPerTable) {
        nodes = new int[rowsPerTable.length][];
        for (int t = 0; t < rowsPerTable.length; t++) {
            nodes[t] = new int[Math.toIntExact(rowsPerTable[t])];
            Arrays.fill(nodes[t], UNKNOWN);
        }
    }

    /** The node last known to hold {@code row} of table {@code table}, or {@link #UNKNOWN}. */
    public int get(int table, long row) {
        return nodes[table][(int) row];
    }

    /** Records that {@code node} holds {@code row} of table {@code table} (or forgets, with {@link #UNKNOWN}). */
    public void put(int table, long row, int node) {
        nodes[table][(int) row] = node;
    }
}
