package io.adaps.keys;

import java.util.List;
import java.util.stream.Collectors;

import io.adaps.api.Table;

/**
 * Maps global keys to tables. Tables occupy consecutive key ranges in declaration order, so the
 * table of a key is the last one whose first key is not above it; models declare a handful of
 * tables, so a backwards scan beats a binary search.
 */
public final class KeySpace {
    private final Table[] tables;
    private final long[] firstKeys;
    private final long endKey;

    /** The key space of {@code tables}, laid out in this order. */
    public KeySpace(List<Table> tables) {
        this.tables = tables.toArray(new Table[0]);
        this.firstKeys = new long[this.tables.length];
        for (int t = 0; t < this.tables.length; t++) {
            firstKeys[t] = this.tables[t].firstKey();
        }
        this.endKey = this.tables[this.tables.length - 1].endKey();
    }

    /**
     * The table holding {@code key}.
     *
     * @throws IllegalArgumentException if {@code key} is outside the key space
     */
    public Table tableOf(long key) {
        if (key < 0 || key >= endKey) {
            throw keyOutOfRange(key);
        }
        int t = firstKeys.length - 1;
        while (key < firstKeys[t]) {
            t--;
        }
        return tables[t];
    }

    // Out of line, so that tableOf stays small enough to inline everywhere.
    private IllegalArgumentException keyOutOfRange(long key) {
        return new IllegalArgumentException("key=" + key + " (expected 0.." + (endKey - 1) + ", the keys of tables "
                + describe() + ")");
    }

    /** One past the last key. */
    public long endKey() {
        return endKey;
    }

    private String describe() {
        return List.of(tables).stream()
                .map(t -> t.name() + "=[" + t.firstKey() + ", " + t.endKey() + ")")
                .collect(Collectors.joining(", "));
    }
}
