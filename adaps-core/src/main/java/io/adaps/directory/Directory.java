package io.adaps.directory;

import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;

/**
 * The home node's record of the current owner of each row it is home of, with a relocation
 * counter that numbers the row's moves: each grant of the row to a new owner increments it, so
 * of two statements about a row's owner the one with the larger counter is the newer.
 *
 * <p>Rows start at their home and most never move, so only rows that have moved at least once
 * have an entry: {@code row -> counter << 32 | owner}. Rows are ints (a table has fewer than 2^31).
 *
 * <p>Not thread-safe: the node's relocation lock guards it.
 */
public final class Directory {
    private final int home;
    private final Int2LongOpenHashMap[] moved;

    /** An empty directory at node {@code home} for {@code tables} tables: every row is at its home. */
    public Directory(int home, int tables) {
        this.home = home;
        this.moved = new Int2LongOpenHashMap[tables];
        for (int t = 0; t < tables; t++) {
            moved[t] = new Int2LongOpenHashMap();
            moved[t].defaultReturnValue(home & 0xFFFF_FFFFL);
        }
    }

    /** The current owner of {@code row} of table {@code table}. */
    public int owner(int table, long row) {
        return (int) moved[table].get((int) row);
    }

    /** How often {@code row} of table {@code table} has been granted to a new owner. */
    public int counter(int table, long row) {
        return (int) (moved[table].get((int) row) >>> 32);
    }

    /** Records {@code owner} as the row's new owner; returns the row's new relocation counter. */
    public int grant(int table, long row, int owner) {
        int counter = counter(table, row) + 1;
        moved[table].put((int) row, (long) counter << 32 | (owner & 0xFFFF_FFFFL));
        return counter;
    }

    /** Rows of table {@code table} that have moved at least once. */
    public int movedRows(int table) {
        return moved[table].size();
    }

    /** The node this directory belongs to. */
    public int home() {
        return home;
    }
}
