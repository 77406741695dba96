package io.adaps.checkpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

import io.adaps.api.Table;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * The rows of one table that a node owns, copied out of its store with their values and rule
 * state: what a checkpoint writes, taken while the rows stand still so that the files can be
 * written after training went on. Floats live in chunks of about 2^22 (16 MiB), so a snapshot is
 * not bounded by an array's size; the copy costs as much memory as the rows.
 */
public final class RowSnapshot {
    private static final int CHUNK_FLOATS = 1 << 22;

    private final Table table;
    private final int stride;
    private final int rowsPerChunk;
    private final IntArrayList rows = new IntArrayList();
    private final List<float[]> chunks = new ArrayList<>();

    private RowSnapshot(Table table, int stride, long expectedRows) {
        this.table = table;
        this.stride = stride;
        this.rowsPerChunk = (int) Math.max(1, Math.min(CHUNK_FLOATS / stride, expectedRows));
    }

    /** Copies every row of {@code table} owned in {@code store}, in row order. */
    public static RowSnapshot of(Table table, TableStore store) {
        long owned = 0;
        for (long row = 0; row < table.rows(); row++) {
            if (store.owns(row)) {
                owned++;
            }
        }
        RowSnapshot snapshot = new RowSnapshot(table, store.stride(), owned);
        float[] chunk = null;
        for (long row = 0; row < table.rows(); row++) {
            int at = snapshot.rows.size() % snapshot.rowsPerChunk;
            if (chunk == null) {
                chunk = new float[snapshot.rowsPerChunk * snapshot.stride];
            }
            if (store.copyOwned(row, chunk, at * snapshot.stride)) {
                if (at == 0) {
                    snapshot.chunks.add(chunk);
                }
                snapshot.rows.add((int) row);
                if (at + 1 == snapshot.rowsPerChunk) {
                    chunk = null; // full: the next row starts a chunk
                }
            }
        }
        return snapshot;
    }

    public Table table() {
        return table;
    }

    /** Floats per row: the value and the rule state. */
    public int stride() {
        return stride;
    }

    /** Rows copied. */
    public long size() {
        return rows.size();
    }

    /** The rows copied for which {@code which} holds, ascending. */
    public int[] rows(LongPredicate which) {
        IntArrayList matching = new IntArrayList();
        for (int i = 0; i < rows.size(); i++) {
            if (which.test(rows.getInt(i))) {
                matching.add(rows.getInt(i));
            }
        }
        return matching.toIntArray();
    }

    /** The row id of the {@code i}-th row copied. */
    long row(int i) {
        return rows.getInt(i);
    }

    /** Copies the value and rule state of the {@code i}-th row copied to {@code dst}. */
    void copy(int i, float[] dst) {
        System.arraycopy(chunks.get(i / rowsPerChunk), (i % rowsPerChunk) * stride, dst, 0, stride);
    }
}
