package io.adaps.examples.mf;

import java.util.Arrays;

import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * The distinct rows of one table that a batch of entries touches, for one training thread: their
 * values, pulled with one multi-row operation, changed in place by the batch's steps, and pushed
 * with one as the difference between the values now and as pulled. A row that several entries of
 * the batch share is pulled and pushed once, and every entry sees the steps of the entries before
 * it (sequential SGD on the local copy).
 *
 * <p>The steps are taken as that difference at the end, in one sequential pass per batch, rather
 * than added up entry by entry, so a kernel's inner loop only changes the values. The difference
 * equals the sum of the steps up to float rounding.
 *
 * <p>Updates are pushed asynchronously, so the network works while the next batch is collected
 * and pulled. A push's buffer must stay untouched until the push completes, so the update buffers
 * alternate between two sides, and a side is reused only after its previous push is complete
 * (which, one batch later, it almost always is). The free side keeps the values as pulled, and the
 * push turns them into the steps in place: a batch touches its values and one side, not a third
 * array of the same size (w2v's chunks hold thousands of 100-float rows per table, and the batch
 * fetched ahead doubles them; every array less is a few MiB less crowding the caches).
 *
 * <p>A row's place in the batch is found through a direct index over the table's rows (4 bytes per
 * row, no hashing), sized for the tables of these examples (matrix rows and columns, a
 * vocabulary). Used by the {@code mf} and {@code w2v} examples. Belongs to the thread of its
 * worker; allocates nothing after its construction.
 *
 * <p>Why both sides are allocated with the batch, not at its first {@link #keepPulledValues}: a
 * batch is made before training, and what is allocated then is in the old generation once the run
 * has collected its set-up garbage ({@code SetupGarbage}). Allocated in the first epoch, w2v's sides
 * (73 MB on a node of a 2-node cluster, whose two chunks' batches alternate) went into the young
 * generation and were copied out of it by the first epoch's collections, with the other buffers
 * that grow then (0.45-0.73 s of the serial collector on a node pinned to one core, its pages first
 * touched then), which a single node, with less garbage per epoch, put off past its last epoch.
 */
public final class RowBatch {
    private static final int ABSENT = -1;

    private final TableView view;
    private final Worker worker;
    private final int valueLength;
    /** The batch slot of each row of the table, or {@link #ABSENT}. */
    private final int[] slotOfRow;
    private final long[] ids;
    /** The pulled values, changed by the batch's steps; row {@code slot} at {@code slot * valueLength}. */
    public final float[] values;
    private final float[][] updateSides = new float[2][];
    private final long[] pushTickets = new long[2];
    private int side;
    /**
     * The free side, laid out like {@link #values}: the values as pulled once they are
     * {@link #keepPulledValues kept}, turned into the batch's steps when they are pushed; {@code null}
     * in a batch that only pulls ({@link #forReads}, an evaluation's).
     */
    private float[] updates;
    /** Whether the values were {@link #keepPulledValues kept} since the last push. */
    private boolean kept;
    private int size;
    /** Slots whose values are here or being pulled; the rows from here on are still to pull. */
    private int pulled;

    /** A batch of up to {@code capacity} distinct rows of {@code view}'s table, to step and push. */
    public RowBatch(TableView view, int capacity) {
        this(view, capacity, true);
    }

    /**
     * A batch of up to {@code capacity} distinct rows of {@code view}'s table that only pulls: it
     * cannot {@link #keepPulledValues keep} values or push steps, and holds no update sides.
     */
    public static RowBatch forReads(TableView view, int capacity) {
        return new RowBatch(view, capacity, false);
    }

    private RowBatch(TableView view, int capacity, boolean steps) {
        this.view = view;
        this.worker = view.worker();
        this.valueLength = view.table().valueLength();
        this.slotOfRow = new int[Math.toIntExact(view.table().rows())];
        Arrays.fill(slotOfRow, ABSENT);
        this.ids = new long[capacity];
        this.values = new float[capacity * valueLength];
        if (steps) {
            updateSides[0] = new float[values.length];
            updateSides[1] = new float[values.length];
            updates = updateSides[0];
        }
    }

    /** Adds {@code row} to the batch unless it is in it already; returns its value's offset. */
    public int add(int row) {
        int slot = slotOfRow[row];
        if (slot == ABSENT) {
            slot = size++;
            slotOfRow[row] = slot;
            ids[slot] = row;
        }
        return slot * valueLength;
    }

    /** The offset of {@code row}'s value, which must have been {@link #add added}. */
    public int offset(int row) {
        return slotOfRow[row] * valueLength;
    }

    /** The rows in the batch; their values are {@code values[0 .. size() * valueLength)}. */
    public int size() {
        return size;
    }

    /**
     * Starts pulling the rows added since the last pull into {@link #values}; returns the ticket.
     * Once it is complete, {@link #keepPulledValues()} must be called before the first step.
     */
    public long pullAsync() {
        long ticket = view.pullAsync(ids, pulled, size - pulled, values, pulled * valueLength);
        pulled = size;
        return ticket;
    }

    /** Remembers {@link #values} as pulled: call when every pull of the batch is complete, before any step. */
    public void keepPulledValues() {
        if (updates == null) {
            throw new IllegalStateException("keepPulledValues on a batch for reads (forReads): it keeps no values");
        }
        System.arraycopy(values, 0, updates, 0, size * valueLength);
        kept = true;
    }

    /**
     * Starts pushing the batch's steps, each row's value now minus its value as pulled, and
     * returns at once; the push's buffer alternates between two sides, and a side is reused only
     * after its previous push is complete.
     */
    public void pushSteps() {
        pushSteps(null);
    }

    /**
     * {@link #pushSteps()}, and adds the steps to the values of the rows that {@code next} holds
     * too, unless it is {@code null}: a batch of the same table pulled ahead, before these steps were
     * taken, which then starts from values that include them, as a pull after this push would.
     * Every pull of {@code next} must be complete, and its values not yet
     * {@link #keepPulledValues kept as pulled}.
     *
     * @throws IllegalArgumentException if {@code next} is a batch of another table
     */
    public void pushSteps(RowBatch next) {
        if (next != null && next.view.table() != view.table()) {
            throw new IllegalArgumentException("next=" + next.view.table().name() + " (expected a batch of "
                    + view.table().name() + ")");
        }
        if (!kept) {
            throw new IllegalStateException("pushSteps before keepPulledValues: no values kept as pulled");
        }
        int floats = size * valueLength;
        for (int i = 0; i < floats; i++) {
            updates[i] = values[i] - updates[i];
        }
        if (next != null) {
            for (int slot = 0; slot < size; slot++) {
                int nextSlot = next.slotOfRow[(int) ids[slot]];
                if (nextSlot != ABSENT) {
                    int from = slot * valueLength;
                    int to = nextSlot * valueLength;
                    for (int i = 0; i < valueLength; i++) {
                        next.values[to + i] += updates[from + i];
                    }
                }
            }
        }
        pushTickets[side] = view.pushAsync(ids, 0, size, updates, 0);
        kept = false;
        side ^= 1;
        updates = updateSides[side];
        if (pushTickets[side] != 0) {
            worker.waitFor(pushTickets[side]);
            pushTickets[side] = 0;
        }
    }

    /** Empties the batch for the next entries. */
    public void clear() {
        for (int slot = 0; slot < size; slot++) {
            slotOfRow[(int) ids[slot]] = ABSENT;
        }
        size = 0;
        pulled = 0;
    }
}
