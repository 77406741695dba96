package io.adaps.api;

import io.adaps.util.SplitMix;

/** How the rows of each table are assigned to home nodes. */
public enum Partitioning {
    /**
     * Each table is cut into {@code nodes} contiguous ranges of {@code ceil(rows / nodes)} rows;
     * node {@code i} is home of the {@code i}-th (the default).
     */
    RANGE {
        @Override
        public int home(Table table, long row, int nodes) {
            long share = (table.rows() + nodes - 1) / nodes;
            return (int) (row / share);
        }
    },
    /** Rows are spread by a hash of (table id, row): no node gets a skewed range of hot rows. */
    HASH {
        @Override
        public int home(Table table, long row, int nodes) {
            return (int) Long.remainderUnsigned(SplitMix.hash(table.id(), row, 0), nodes);
        }
    };

    /**
     * The home node of {@code row} of {@code table} in a cluster of {@code nodes} nodes.
     *
     * @param row a valid row of the table
     */
    public abstract int home(Table table, long row, int nodes);
}
