package io.adaps.checkpoint;

import java.util.ArrayList;
import java.util.List;

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
    /** The rows copied, ascending. */
    private final IntArrayList rows;
    private final List<float[]> chunks = new ArrayList<>();

    /** A snapshot that copies {@code rows}, keeping those still owned when copied. */
    private RowSnapshot(Table table, int stride, IntArrayList rows) {
        this.table = table;
        this.stride = stride;
        this.rows = rows;
        this.rowsPerChunk = Math.max(1, Math.min(CHUNK_FLOATS / stride, rows.size()));
    }

    /** Copies every row of {@code table} owned in {@code store}, in row order. */
    public static RowSnapshot of(Table table, TableStore store) {
        return of(table, store, null, false);
    }

    /**
     * Copies the rows of {@code table} owned in {@code store}, in row order: every one, or with
     * {@code changedOnly} those whose version ({@link TableStore#ownedVersion}) differs from
     * {@code versions[row]}; records the version of each row copied in {@code versions} unless it
     * is {@code null}.
     */
    static RowSnapshot of(Table table, TableStore store, long[] versions, boolean changedOnly) {
        IntArrayList selected = new IntArrayList();
        for (long row = 0; row < table.rows(); row++) {
            long version = store.ownedVersion(row);
            if (version >= 0 && !(changedOnly && version == versions[(int) row])) {
                selected.add((int) row);
            }
        }
        RowSnapshot snapshot = new RowSnapshot(table, store.stride(), selected);
        float[] chunk = null;
        int copied = 0;
        for (int i = 0; i < selected.size(); i++) {
            int row = selected.getInt(i);
            int at = copied % snapshot.rowsPerChunk;
            if (chunk == null) {
                chunk = new float[snapshot.rowsPerChunk * snapshot.stride];
            }
            long version = store.copyOwned(row, chunk, at * snapshot.stride);
            if (version < 0) {
                continue; // no longer owned here, so not this node's to save (at the cut no row moves)
            }
            if (at == 0) {
                snapshot.chunks.add(chunk);
            }
            selected.set(copied++, row);
            if (versions != null) {
                versions[row] = version;
            }
            if (at + 1 == snapshot.rowsPerChunk) {
                chunk = null; // full: the next row starts a chunk
            }
        }
        selected.size(copied);
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

    /** The row id of the {@code i}-th row copied. */
    long row(int i) {
        return rows.getInt(i);
    }

    /** Copies the value and rule state of the {@code i}-th row copied to {@code dst}. */
    void copy(int i, float[] dst) {
        System.arraycopy(chunks.get(i / rowsPerChunk), (i % rowsPerChunk) * stride, dst, 0, stride);
    }
}
