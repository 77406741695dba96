package io.adaps.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.adaps.api.Initializer;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRule;

/**
 * The parameters of one table that this node holds, owned or replicated.
 *
 * <p>A table's keys are dense, so the index from row to slot is a plain {@code int[]} with one
 * entry per row ({@value #ABSENT} for rows not held here): four bytes per row, no hashing, no
 * boxing. Index entries are published with release stores after the slot is initialized and read
 * with acquire loads, so a reader that finds a slot also sees its initial value. Values live in a
 * {@link SlotSlab}; see there for the locking that makes concurrent pulls and pushes safe, and for
 * how an access that races with its row leaving finds out.
 *
 * <p>Thread safety: every method may be called by any number of threads at once.
 * {@link #pull}, {@link #push} and {@link #set} never block each other on different rows and
 * return {@code false} for a row that is not (or no longer) held here; {@link #allocate},
 * {@link #install} and {@link #takeOut} are serialized internally.
 */
public final class TableStore {
    /** Index entry of a row that this node does not hold. */
    public static final int ABSENT = -1;
    private static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(int[].class);

    private final TableSpec spec;
    private final UpdateRule rule;
    private final Initializer initializer;
    private final int[] index;
    private final SlotKind[] kinds;
    private final SlotSlab slab;

    /** Creates an empty store for {@code spec}; no row is held until {@link #allocate} is called. */
    public TableStore(TableSpec spec) {
        this.spec = spec;
        this.rule = spec.updateRule();
        this.initializer = spec.initializer();
        int rows = Math.toIntExact(spec.rows());
        this.index = new int[rows];
        java.util.Arrays.fill(index, ABSENT);
        this.kinds = new SlotKind[rows];
        this.slab = new SlotSlab(spec.valueLength(), rule.stateLength(spec.valueLength()), rows);
    }

    /** The table this store holds parameters of. */
    public TableSpec spec() {
        return spec;
    }

    /** Floats per slot: the value and the update rule's state. */
    public int stride() {
        return slab.stride();
    }

    /**
     * Holds {@code row} here as {@code kind}, with the table's initial value and zero rule state.
     *
     * @throws IllegalStateException if the row is already held
     */
    public synchronized void allocate(long row, SlotKind kind) {
        install(row, kind, null, 0);
    }

    /**
     * Holds {@code row} here as {@code kind}, with the value and rule state (a whole
     * {@link #stride()}) at {@code src[srcOffset ..]}: a row that moved here.
     *
     * @throws IllegalStateException if the row is already held
     */
    public synchronized void install(long row, SlotKind kind, float[] src, int srcOffset) {
        int r = (int) row;
        if (index[r] != ABSENT) {
            throw new IllegalStateException("row=" + row + " of table '" + spec.name()
                    + "' is already held as " + kinds[r] + " (expected a row not held here)");
        }
        int slot = slab.allocate();
        slab.install(slot, r, initializer, src, srcOffset);
        kinds[r] = kind;
        INDEX.setRelease(index, r, slot);
    }

    /** Holds every row of the table here as {@code kind} (a node that starts with all parameters). */
    public synchronized void allocateAll(SlotKind kind) {
        for (long row = 0; row < index.length; row++) {
            allocate(row, kind);
        }
    }

    /**
     * Stops holding {@code row}, atomically with respect to concurrent accesses (which from then on
     * return {@code false}); copies its value and rule state (a whole {@link #stride()}) to
     * {@code dst} unless it is {@code null}. The slot is reused by later allocations.
     *
     * @return whether the row was held
     */
    public synchronized boolean takeOut(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        int slot = index[r];
        if (slot == ABSENT) {
            return false;
        }
        slab.takeOut(slot, r, dst, dstOffset);
        INDEX.setRelease(index, r, ABSENT);
        kinds[r] = null;
        slab.free(slot);
        return true;
    }

    /** Whether {@code row} is held here. */
    public boolean holds(long row) {
        return (int) INDEX.getAcquire(index, (int) row) != ABSENT;
    }

    /** How {@code row} is held here, or {@code null} if it is not. */
    public synchronized SlotKind kind(long row) {
        return kinds[(int) row];
    }

    /** Rows held here. */
    public int heldRows() {
        return slab.allocated();
    }

    /** The most slots this store has used at once; slot reuse keeps it from growing with churn. */
    public int slotHighWaterMark() {
        return slab.highWaterMark();
    }

    /**
     * Copies the value of {@code row} into {@code dst} at {@code dstOffset}, never torn.
     *
     * @return {@code false} if the row is not held here (then {@code dst} may have been overwritten)
     */
    public boolean pull(long row, float[] dst, int dstOffset) {
        int slot = (int) INDEX.getAcquire(index, (int) row);
        return slot != ABSENT && slab.read(slot, (int) row, dst, dstOffset);
    }

    /**
     * Applies the table's update rule to {@code row} with the update at {@code src[srcOffset..]}.
     *
     * @return {@code false}, changing nothing, if the row is not held here
     */
    public boolean push(long row, float[] src, int srcOffset) {
        int slot = (int) INDEX.getAcquire(index, (int) row);
        return slot != ABSENT && slab.update(slot, (int) row, rule, src, srcOffset);
    }

    /**
     * Replaces the value of {@code row}; the update rule's state is left as it is.
     *
     * @return {@code false}, changing nothing, if the row is not held here
     */
    public boolean set(long row, float[] src, int srcOffset) {
        int slot = (int) INDEX.getAcquire(index, (int) row);
        return slot != ABSENT && slab.write(slot, (int) row, src, srcOffset);
    }
}
