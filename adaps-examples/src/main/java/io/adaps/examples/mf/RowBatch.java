package io.adaps.examples.mf;

import java.util.Arrays;

import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * The distinct rows of one table that a batch of entries touches, for one training thread: their
 * values, pulled with one multi-row operation, and the updates accumulated for them, pushed with
 * one. A row that several entries of the batch share is pulled and pushed once, and every entry
 * sees the steps of the entries before it (sequential SGD on the local copy).
 *
 * <p>Updates are pushed asynchronously, so the network works while the next batch is collected
 * and pulled. A push's buffer must stay untouched until the push completes, so the update buffers
 * alternate between two sides, and a side is reused only after its previous push is complete
 * (which, one batch later, it almost always is).
 *
 * <p>A row's place in the batch is found through a direct index over the table's rows (4 bytes per
 * row, no hashing), sized for the matrices of this example. Belongs to the thread of its worker;
 * allocates nothing after construction.
 */
final class RowBatch {
    private static final int ABSENT = -1;

    private final TableView view;
    private final Worker worker;
    private final int valueLength;
    /** The batch slot of each row of the table, or {@link #ABSENT}. */
    private final int[] slotOfRow;
    private final long[] ids;
    /** The pulled values, changed by the batch's steps; row {@code slot} at {@code slot * valueLength}. */
    final float[] values;
    private final float[][] updateSides = new float[2][];
    private final long[] pushTickets = new long[2];
    /** Floats of each side that the last batch on it wrote. */
    private final int[] written = new int[2];
    private int side;
    /** The updates of the batch being collected, laid out like {@link #values}. */
    float[] updates;
    private int size;

    /** A batch of up to {@code capacity} distinct rows of {@code view}'s table. */
    RowBatch(TableView view, int capacity) {
        this.view = view;
        this.worker = view.worker();
        this.valueLength = view.table().valueLength();
        this.slotOfRow = new int[Math.toIntExact(view.table().rows())];
        Arrays.fill(slotOfRow, ABSENT);
        this.ids = new long[capacity];
        this.values = new float[capacity * valueLength];
        updateSides[0] = new float[capacity * valueLength];
        updateSides[1] = new float[capacity * valueLength];
        this.updates = updateSides[0];
    }

    /** Adds {@code row} to the batch unless it is in it already; returns its value's offset. */
    int add(int row) {
        int slot = slotOfRow[row];
        if (slot == ABSENT) {
            slot = size++;
            slotOfRow[row] = slot;
            ids[slot] = row;
        }
        return slot * valueLength;
    }

    /** The offset of {@code row}'s value, which must have been {@link #add added}. */
    int offset(int row) {
        return slotOfRow[row] * valueLength;
    }

    /** Starts pulling the batch's rows into {@link #values}; returns the ticket. */
    long pullAsync() {
        return view.pullAsync(ids, 0, size, values, 0);
    }

    /** Starts pushing {@link #updates} and switches to the other side's update buffer, emptied. */
    void pushAsync() {
        pushTickets[side] = view.pushAsync(ids, 0, size, updates, 0);
        written[side] = size * valueLength;
        side ^= 1;
        updates = updateSides[side];
        if (pushTickets[side] != 0) {
            worker.waitFor(pushTickets[side]);
            pushTickets[side] = 0;
            Arrays.fill(updates, 0, written[side], 0f);
        }
    }

    /** Empties the batch for the next entries. */
    void clear() {
        for (int slot = 0; slot < size; slot++) {
            slotOfRow[(int) ids[slot]] = ABSENT;
        }
        size = 0;
    }
}
