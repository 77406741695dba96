package io.adaps.keys;

/**
 * A row of a table packed into one {@code long}, the form every internal set, map and queue of rows
 * uses:
 * <pre>
 *   63                32 31                 0
 *   +------------------+--------------------+
 *   | table id (u32)   | row (u32)          |
 *   +------------------+--------------------+
 * </pre>
 * A table has fewer than 2^31 rows ({@link io.adaps.api.TableSpec#MAX_ROWS}), so the row always
 * fits. Unlike a global key (the table's first key plus the row), a row key does not depend on
 * the sizes of the tables declared before.
 */
public final class RowKey {
    private static final long ROW_BITS = 0xFFFF_FFFFL;

    private RowKey() {
    }

    /** The row key of {@code row} of table {@code table}. */
    public static long of(int table, long row) {
        return (long) table << 32 | row;
    }

    /** The table id of a row key. */
    public static int table(long key) {
        return (int) (key >>> 32);
    }

    /** The row of a row key. */
    public static long row(long key) {
        return key & ROW_BITS;
    }
}
