package io.adaps.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import io.adaps.api.Initializer;
import io.adaps.api.UpdateRule;
import io.adaps.util.Masks;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Fixed-stride float storage for the parameters of one table, with a sequence lock per slot.
 *
 * <h2>Layout</h2>
 * Slots are grouped in chunks of {@code 2^shift} slots, each chunk one {@code float[]} (so that a
 * table may hold more than {@code 2^31} floats) plus one {@code int[]} of sequence numbers:
 * <pre>
 *   chunk c = slot &gt;&gt;&gt; shift, i = slot &amp; mask
 *
 *   values[c]:  | slot 0                      | slot 1                      | ...
 *               | value (valueLength) | state | value (valueLength) | state | ...
 *               &lt;-------- stride --------&gt;
 *   locks[c]:   | seq 0 | tag 0 | seq 1 | tag 1 | ...
 *               tag: the row the slot holds, FREE (-1) when none; beside its sequence, so that an
 *               access touches one cache line for both
 *
 *   the replica slab (extraLength = 2 * valueLength; see ReplicaSlots):
 *   values[c]:  | value | state | base | delta | value | state | base | delta | ...
 *               &lt;------------ stride -----------&gt;
 *   marks[c]:   | mark 0 | mark 1 | ...       (slabs with extra floats only; see ReplicaSlots)
 * </pre>
 * {@code state} holds the update rule's per-parameter state (Adagrad's accumulator); its length
 * is {@code ruleLength - valueLength}, often 0. A slab may reserve {@code extraLength} more floats
 * per slot after the state (the replica slab, see {@link ReplicaSlots}, keeps a replica's
 * synchronization base and pending delta there); the owned slab reserves none, so its stride is
 * exactly value and state. Chunks are created when a slot in them is first allocated; freed slots
 * are reused before fresh ones.
 *
 * <p>{@link #read}, {@link #write}, {@link #update}, {@link #install} and {@link #takeOut} work on
 * the value and state (the first {@code ruleLength} floats of a slot) and are the owned rows' hot
 * paths. Layouts with more per slot build their operations from the lock primitives
 * ({@link #lock}, {@link #lockIfHolds}, {@link #unlock}, {@link #unlockHolding}) and
 * {@link #chunk}/{@link #offset}.
 *
 * <h2>Concurrency: a sequence lock per slot</h2>
 * A slot's sequence number is even while the slot is stable and odd while a writer holds it.
 * Writers acquire by CAS from an even {@code s} to {@code s + 1} and release with a store of
 * {@code s + 2}, so writers of one slot are mutually exclusive and no update is lost. Readers
 * never write shared memory: they read the sequence (acquire), copy the value, fence, and re-read
 * the sequence; if it was odd or changed they retry. A returned value therefore comes from one
 * stable state (never torn), and reads of different slots never contend. This is the seqlock of
 * the Linux kernel and of {@link java.util.concurrent.locks.StampedLock}'s optimistic reads.
 *
 * <h2>Rows that move: the tag</h2>
 * A row can leave this node (relocation) while a worker that looked up its slot a moment ago is
 * about to access it, and the slot can be reused for another row. So every slot records, under
 * its lock, which row it holds, and every access names the row it expects: a writer checks the
 * tag after taking the lock, a reader checks the tag it read within the stable window. An access
 * whose row is no longer in the slot changes nothing and returns {@code false}; the caller then
 * finds the row elsewhere. Taking a row out ({@link #takeOut}) and putting one in
 * ({@link #install}) happen under the slot's lock, so a stable read sees either the row's value
 * or a different tag, never a mixture.
 * Waiting spins briefly ({@link Thread#onSpinWait()}) and then yields, because with more threads
 * than cores the writer being waited for may not be running.
 */
final class SlotSlab {
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int TARGET_CHUNK_FLOATS = 1 << 22;
    private static final int SPINS_BEFORE_YIELD = 64;
    /** Tag of a slot that holds no row. */
    static final int FREE = -1;

    private final int valueLength;
    private final int ruleLength;
    private final int stride;
    private final int shift;
    private final int mask;
    private final int capacity;
    private final float[][] values;
    /** Per chunk: each slot's sequence at {@code 2i} and tag at {@code 2i + 1}. */
    private final int[][] locks;
    /** Per chunk, in slabs with extra floats: one int per slot that their user keeps ({@link #mark}). */
    private final int[][] marks;
    private final IntArrayList freeSlots = new IntArrayList();
    private int nextFreshSlot;

    /** A slab whose slots hold a value and the rule's state, nothing more (the owned layout). */
    SlotSlab(int valueLength, int stateLength, int capacity) {
        this(valueLength, stateLength, 0, capacity);
    }

    /** A slab whose slots hold a value, the rule's state and {@code extraLength} more floats. */
    SlotSlab(int valueLength, int stateLength, int extraLength, int capacity) {
        this.valueLength = valueLength;
        this.ruleLength = valueLength + stateLength;
        this.stride = ruleLength + extraLength;
        this.capacity = capacity;
        // Power-of-two chunks of about TARGET_CHUNK_FLOATS floats; the last chunk only as large as needed.
        int slotsPerChunk = Integer.highestOneBit(Math.max(1, TARGET_CHUNK_FLOATS / stride));
        this.shift = Integer.numberOfTrailingZeros(slotsPerChunk);
        this.mask = slotsPerChunk - 1;
        int chunks = (int) (((long) capacity + slotsPerChunk - 1) >>> shift);
        this.values = new float[chunks][];
        this.locks = new int[chunks][];
        this.marks = extraLength > 0 ? new int[chunks][] : null;
    }

    /** Takes a free slot (reusing released ones first); it holds no row until {@link #install}. */
    synchronized int allocate() {
        int slot;
        if (!freeSlots.isEmpty()) {
            slot = freeSlots.popInt();
        } else if (nextFreshSlot < capacity) {
            slot = nextFreshSlot++;
        } else {
            throw new IllegalStateException("slots=" + capacity + " all in use (expected a free slot)");
        }
        int c = slot >>> shift;
        if (values[c] == null) {
            int slotsInChunk = Math.min(mask + 1, capacity - (c << shift));
            values[c] = new float[slotsInChunk * stride];
            locks[c] = new int[2 * slotsInChunk];
            if (marks != null) {
                marks[c] = new int[slotsInChunk];
            }
            for (int i = 1; i < locks[c].length; i += 2) {
                locks[c][i] = FREE;
            }
        }
        return slot;
    }

    /**
     * Returns {@code slot}, emptied by {@link #takeOut}, for reuse. Accesses through stale slot
     * numbers are harmless: they find another tag.
     */
    synchronized void free(int slot) {
        freeSlots.push(slot);
    }

    /** Floats per slot. */
    int stride() {
        return stride;
    }

    /** Floats of value and rule state per slot: what {@link #install} and {@link #takeOut} move. */
    int ruleLength() {
        return ruleLength;
    }

    /** Slots currently allocated. */
    synchronized int allocated() {
        return nextFreshSlot - freeSlots.size();
    }

    /** Slots ever handed out fresh; with reuse it stays at the peak number of live slots. */
    synchronized int highWaterMark() {
        return nextFreshSlot;
    }

    /**
     * Copies the value of {@code row}, held in {@code slot}, into {@code dst} from one stable state.
     * Returns {@code false} (with {@code dst} overwritten) if the slot no longer holds the row.
     */
    boolean read(int slot, int row, float[] dst, int dstOffset) {
        return readVersioned(slot, row, dst, dstOffset, valueLength) >= 0;
    }

    /**
     * Copies the first {@code length} floats of {@code row}'s slot (the value: {@code valueLength};
     * value and rule state: {@link #ruleLength()}; none: 0) into {@code dst} from one stable state,
     * writing nothing shared, and returns the (even) sequence number of that state, which counts
     * the slot's writes: its version; -1 if the slot no longer holds the row.
     */
    int readVersioned(int slot, int row, float[] dst, int dstOffset, int length) {
        float[] chunk = values[slot >>> shift];
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int base = i * stride;
        int seq = 2 * i;
        for (int spins = 0; ; spins++) {
            int before = (int) SEQ.getAcquire(lock, seq);
            if ((before & 1) == 0) {
                System.arraycopy(chunk, base, dst, dstOffset, length);
                int held = lock[seq + 1];
                VarHandle.acquireFence();
                if ((int) SEQ.getAcquire(lock, seq) == before) {
                    return held == row ? before & Integer.MAX_VALUE : -1;
                }
            }
            backOff(spins);
        }
    }

    /** Replaces the value of {@code row} in {@code slot}, leaving the rule state; {@code false} if the row left. */
    boolean write(int slot, int row, float[] src, int srcOffset) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int locked = lock(lock, 2 * i);
        boolean held = lock[2 * i + 1] == row;
        if (held) {
            System.arraycopy(src, srcOffset, values[slot >>> shift], i * stride, valueLength);
        }
        SEQ.setRelease(lock, 2 * i, locked + 1);
        return held;
    }

    /** Applies {@code rule} with {@code update} to {@code row} in {@code slot}; {@code false} if the row left. */
    boolean update(int slot, int row, UpdateRule rule, float[] update, int updateOffset) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int locked = lock(lock, 2 * i);
        try {
            if (lock[2 * i + 1] != row) {
                return false;
            }
            rule.apply(values[slot >>> shift], i * stride, valueLength, update, updateOffset);
            return true;
        } finally {
            SEQ.setRelease(lock, 2 * i, locked + 1);
        }
    }

    /**
     * Applies {@code rule} with {@code update} to {@code row} in {@code slot} and copies the value
     * it leaves into {@code dst}, under one hold of the lock: no other write comes between.
     * Returns the version of the value copied (see {@link #readVersioned}), or -1, changing
     * nothing, if the row left.
     */
    int updateAndRead(int slot, int row, UpdateRule rule, float[] update, int updateOffset, float[] dst, int dstOffset) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int locked = lock(lock, 2 * i);
        if (lock[2 * i + 1] != row) {
            SEQ.setRelease(lock, 2 * i, locked + 1);
            return -1;
        }
        float[] chunk = values[slot >>> shift];
        rule.apply(chunk, i * stride, valueLength, update, updateOffset);
        System.arraycopy(chunk, i * stride, dst, dstOffset, valueLength);
        SEQ.setRelease(lock, 2 * i, locked + 1);
        return (locked + 1) & Integer.MAX_VALUE;
    }

    /**
     * Puts {@code row} into the allocated {@code slot}: its value and rule state from {@code src}
     * ({@link #ruleLength()} floats), or, with {@code src == null}, from {@code initializer} and zero state.
     */
    void install(int slot, int row, Initializer initializer, float[] src, int srcOffset) {
        float[] chunk = values[slot >>> shift];
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int base = i * stride;
        int locked = lock(lock, 2 * i);
        if (src != null) {
            System.arraycopy(src, srcOffset, chunk, base, ruleLength);
        } else {
            Arrays.fill(chunk, base + valueLength, base + ruleLength, 0f);
            initializer.initialize(row, chunk, base, valueLength);
        }
        lock[2 * i + 1] = row;
        SEQ.setRelease(lock, 2 * i, locked + 1);
    }

    /**
     * Takes {@code row} out of {@code slot}: copies its value and rule state ({@link #ruleLength()} floats) to
     * {@code dst} unless it is {@code null}, and marks the slot empty, atomically with respect to
     * every access. Returns {@code false} if the slot does not hold the row.
     */
    boolean takeOut(int slot, int row, float[] dst, int dstOffset) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int locked = lock(lock, 2 * i);
        boolean held = lock[2 * i + 1] == row;
        if (held) {
            if (dst != null) {
                System.arraycopy(values[slot >>> shift], i * stride, dst, dstOffset, ruleLength);
            }
            lock[2 * i + 1] = FREE;
        }
        SEQ.setRelease(lock, 2 * i, locked + 1);
        return held;
    }

    /** The chunk holding {@code slot}'s floats; see {@link #offset}. */
    float[] chunk(int slot) {
        return values[slot >>> shift];
    }

    /** Where {@code slot}'s floats start in its {@link #chunk}. */
    int offset(int slot) {
        return (slot & mask) * stride;
    }

    /**
     * {@code slot}'s sequence number now (an acquire read): even while the slot is stable, and it
     * changes with every write. A user that remembers it can tell later, without the lock,
     * whether anything was written since.
     */
    int sequence(int slot) {
        return (int) SEQ.getAcquire(locks[slot >>> shift], 2 * (slot & mask));
    }

    /**
     * Whether {@code slot} holds {@code row}, read without the lock: it stays true only while the
     * slot's {@link #sequence} read before this does not change.
     */
    boolean tagged(int slot, int row) {
        return locks[slot >>> shift][2 * (slot & mask) + 1] == row;
    }

    /** The mark of {@code slot} (a slab with extra floats), read without the lock. */
    int mark(int slot) {
        return marks[slot >>> shift][slot & mask];
    }

    /**
     * Sets the mark of {@code slot} (a slab with extra floats) while holding its write lock: readers
     * that see the sequence number of the release see the mark too.
     */
    void mark(int slot, int mark) {
        marks[slot >>> shift][slot & mask] = mark;
    }

    /** Acquires {@code slot}'s write lock, whatever it holds; returns the odd sequence number now held. */
    int lock(int slot) {
        return lock(locks[slot >>> shift], 2 * (slot & mask));
    }

    /**
     * Acquires {@code slot}'s write lock if the slot holds {@code row}: returns the odd sequence
     * number now held, or 0 (the lock released again, nothing changed) if the row is not there.
     */
    int lockIfHolds(int slot, int row) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        int locked = lock(lock, 2 * i);
        if (lock[2 * i + 1] == row) {
            return locked;
        }
        SEQ.setRelease(lock, 2 * i, locked + 1);
        return 0;
    }

    /**
     * 1 if {@code slot} holds {@code row}, else 0, as {@link #tagged}: a value to combine with
     * other tests into one (see {@link io.adaps.util.Masks}).
     */
    int holdsBit(int slot, int row) {
        return Masks.ifEqual(locks[slot >>> shift][2 * (slot & mask) + 1], row) & 1;
    }

    /**
     * Acquires {@code slot}'s write lock if it is free now and the slot holds {@code row}, without
     * waiting: returns the odd sequence number now held, or 0 (nothing held) if another thread holds
     * the lock or the row is not there.
     *
     * <p>Every way of failing takes the same branch, so that whichever comes first after C2 compiled
     * the caller is the only one that can send it back to the interpreter (see
     * {@link io.adaps.util.Masks}): a busy lock makes the exchange fail, since it expects the even
     * number below the odd one read; the tag is checked once the lock is held. A slot found holding
     * another row is released at its next even number, which sends that row's readers round once more.
     */
    int tryLockIfHolds(int slot, int row) {
        int[] lock = locks[slot >>> shift];
        int seq = 2 * (slot & mask);
        int expected = (int) SEQ.getVolatile(lock, seq) & ~1;
        int witness = (int) SEQ.compareAndExchange(lock, seq, expected, expected + 1);
        if ((witness ^ expected | lock[seq + 1] ^ row) == 0) {
            return expected + 1;
        }
        if (witness == expected) {
            SEQ.setRelease(lock, seq, expected + 2);
        }
        return 0;
    }

    /** Releases {@code slot}'s write lock, held as {@code locked}. */
    void unlock(int slot, int locked) {
        SEQ.setRelease(locks[slot >>> shift], 2 * (slot & mask), locked + 1);
    }

    /**
     * Records that {@code slot} now holds {@code row} ({@link #FREE} for none) and releases its
     * write lock, held as {@code locked}: readers see the new tag together with what was written
     * under the lock.
     */
    void unlockHolding(int slot, int row, int locked) {
        int[] lock = locks[slot >>> shift];
        int i = slot & mask;
        lock[2 * i + 1] = row;
        SEQ.setRelease(lock, 2 * i, locked + 1);
    }

    /**
     * Appends the row of every slot that holds one. The caller must keep tags from changing (the
     * store changes them only under its monitor, which it holds here).
     */
    synchronized void collectRows(LongArrayList into) {
        for (int slot = 0; slot < nextFreshSlot; slot++) {
            int row = locks[slot >>> shift][2 * (slot & mask) + 1];
            if (row != FREE) {
                into.add(row);
            }
        }
    }

    /** Acquires the write lock whose sequence is {@code lock[seq]}; returns the odd sequence number now held. */
    private static int lock(int[] lock, int seq) {
        for (int spins = 0; ; spins++) {
            int current = (int) SEQ.getVolatile(lock, seq);
            if ((current & 1) == 0 && SEQ.compareAndSet(lock, seq, current, current + 1)) {
                return current + 1;
            }
            backOff(spins);
        }
    }

    private static void backOff(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
