package io.adaps.api;

/**
 * A declared table as laid out in a node's key space: its rows are the contiguous keys
 * {@code [firstKey, firstKey + rows)}. Tables are numbered and laid out in declaration order.
 * Immutable.
 */
public final class Table {
    private final TableSpec spec;
    private final int id;
    private final long firstKey;

    Table(TableSpec spec, int id, long firstKey) {
        this.spec = spec;
        this.id = id;
        this.firstKey = firstKey;
    }

    /** The declaration. */
    public TableSpec spec() {
        return spec;
    }

    /** Position in declaration order, from 0. */
    public int id() {
        return id;
    }

    /** The table's name. */
    public String name() {
        return spec.name();
    }

    /** Rows in the table. */
    public long rows() {
        return spec.rows();
    }

    /** Floats per row. */
    public int valueLength() {
        return spec.valueLength();
    }

    /** The key of row 0. */
    public long firstKey() {
        return firstKey;
    }

    /** One past the key of the last row. */
    public long endKey() {
        return firstKey + spec.rows();
    }

    /**
     * The key of {@code row}.
     *
     * @throws IllegalArgumentException if {@code row} is not in {@code [0, rows)}
     */
    public long key(long row) {
        checkRow(row);
        return firstKey + row;
    }

    /** Whether {@code key} is one of this table's keys. */
    public boolean containsKey(long key) {
        return key >= firstKey && key - firstKey < spec.rows();
    }

    /**
     * Throws unless {@code row} is in {@code [0, rows)}.
     *
     * @throws IllegalArgumentException naming the row and the table
     */
    public void checkRow(long row) {
        if (row < 0 || row >= spec.rows()) {
            throw rowOutOfRange(row);
        }
    }

    // Out of line, so that checkRow stays small enough to inline everywhere.
    private IllegalArgumentException rowOutOfRange(long row) {
        return new IllegalArgumentException("row=" + row + " (expected 0.." + (spec.rows() - 1)
                + " in table '" + spec.name() + "')");
    }

    @Override
    public String toString() {
        return "Table[" + spec.name() + ", id=" + id + ", keys=[" + firstKey + ", " + endKey() + "), valueLength="
                + spec.valueLength() + "]";
    }
}
