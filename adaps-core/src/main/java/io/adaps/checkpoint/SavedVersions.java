package io.adaps.checkpoint;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import io.adaps.api.Table;
import io.adaps.store.TableStore;

/**
 * What one node saved in one directory's newest checkpoint, for the increment after it: per table
 * and row, the version of the row ({@link TableStore#ownedVersion}) as the node copied it. The
 * increment copies only the owned rows whose version differs now: the rows changed since.
 *
 * <h2>Why the versions tell every change, at no cost to training</h2>
 * A row's version is its slot's stamp (which install put it there: unique per store, new for
 * every install) and the slot's sequence number (even, +2 for every write). Both exist already
 * (replica refreshes send a value only when its version changed), and nothing is added to the
 * push path: every write to an owned row, value or rule state (Adagrad's accumulators change with
 * the value, under the same lock), advances the sequence, and reading it writes nothing. So, for a
 * row this node owns at the cut with version {@code v}: {@code v == saved[row]} means this node
 * copied the row at {@code v} into an earlier checkpoint of the chain and nothing wrote it since,
 * and every checkpoint between skipped it here or (with another version) copied it again, which
 * would have recorded that version. Hence the value in the chain is the value now. Whatever
 * happened in between gives another version:
 * <ul>
 *   <li>a row that moved here (relocation, or a replica promoted) was installed here: new stamp;
 *       a row that moved away and back too, so moved rows are always in the increment, from the
 *       node that owns them at the cut (conservative: an unchanged moved row is saved again);</li>
 *   <li>replicas' updates reach the owners in the synchronization round the cut runs, as
 *       writes to the owned rows ({@link TableStore#syncOwned}): their versions advance;</li>
 *   <li>a slot reused by another row holds another stamp; the copy itself writes nothing.</li>
 * </ul>
 * Versions are never negative, so {@link #NONE} never matches. A sequence repeats only after
 * 2^30 writes of one slot, so a row written exactly a multiple of 2^30 times between two
 * checkpoints would be taken for unchanged (as a refresh would take it); the next full
 * checkpoint ends that.
 *
 * <h2>Which checkpoint the versions belong to</h2>
 * They are the versions of checkpoint {@link #generation} only if that checkpoint got published,
 * which the cut cannot know yet. So the versions are recorded as the rows are copied, and the
 * next checkpoint trusts them only if its base, the directory's newest published checkpoint, is
 * that generation ({@link #changesSince}); otherwise (the checkpoint failed, this node did not
 * take part in the newest, a fresh start) it saves every row it owns, which is a valid increment
 * too. Costs 8 bytes per row and table per directory, on each node, only with increments. Used
 * by one thread at a time, the one that takes the cut.
 */
public final class SavedVersions {
    /** Of a row not saved by this node. */
    private static final long NONE = -1;

    /** Per table, per row: its version when this node last copied it, or {@link #NONE}. */
    private final long[][] versions;
    /** The checkpoint the versions were copied for, or 0 while none is known. */
    private long generation;

    public SavedVersions(List<Table> tables) {
        this.versions = new long[tables.size()][];
        for (Table table : tables) {
            versions[table.id()] = new long[Math.toIntExact(table.rows())];
            Arrays.fill(versions[table.id()], NONE);
        }
    }

    /**
     * The versions of the rows a node was just restored from checkpoint {@code generation} with:
     * the rows it owns hold that checkpoint's values (its whole chain's).
     */
    public static SavedVersions restored(long generation, List<Table> tables, IntFunction<TableStore> stores) {
        SavedVersions saved = new SavedVersions(tables);
        for (Table table : tables) {
            TableStore store = stores.apply(table.id());
            long[] rows = saved.versions[table.id()];
            for (int row = 0; row < rows.length; row++) {
                rows[row] = store.ownedVersion(row); // -1, NONE, if not owned here
            }
        }
        saved.generation = generation;
        return saved;
    }

    /**
     * What the rows of an increment of checkpoint {@code base} may be on this node: the changes
     * since {@code base} if these are its versions, else (0) every row it owns.
     */
    public long changesSince(long base) {
        return base != 0 && base == generation ? base : 0;
    }

    /**
     * Copies, for checkpoint {@code generation}, the owned rows of every table: those changed
     * since checkpoint {@code since} (see {@link #changesSince}), or every one if it is 0; the
     * versions copied are then those of {@code generation}.
     */
    public RowSnapshot[] take(long generation, long since, List<Table> tables, IntFunction<TableStore> stores) {
        this.generation = 0; // partly overwritten until every table is copied
        RowSnapshot[] rows = new RowSnapshot[tables.size()];
        for (Table table : tables) {
            rows[table.id()] = RowSnapshot.of(table, stores.apply(table.id()), versions[table.id()], since != 0);
        }
        this.generation = generation;
        return rows;
    }
}
