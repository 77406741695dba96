package io.adaps.examples.mf;

import java.util.function.IntUnaryOperator;

/** Home nodes of rows for tests of the plans that need no cluster. */
final class RowHomes {
    private RowHomes() {
    }

    /**
     * Row {@code r} at home on node {@code r mod nodes}: every node home of rows all over the
     * matrix, its hot ones and its cold ones, unlike a range partitioning of zipf-skewed ids.
     */
    static IntUnaryOperator striped(int nodes) {
        return row -> row % nodes;
    }
}
