package io.adaps.store;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import io.adaps.api.Initializer;
import io.adaps.api.UpdateRule;

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
 *   seqs[c]:    | seq 0 | seq 1 | ...
 * </pre>
 * {@code state} holds the update rule's per-parameter state (Adagrad's accumulator); its length
 * is {@code stride - valueLength}, often 0. Chunks are created when a slot in them is first
 * allocated; freed slots are reused before fresh ones.
 *
 * <h2>Concurrency: a sequence lock per slot</h2>
 * A slot's sequence number is even while the slot is stable and odd while a writer holds it.
 * Writers acquire by CAS from an even {@code s} to {@code s + 1} and release with a store of
 * {@code s + 2}, so writers of one slot are mutually exclusive and no update is lost. Readers
 * never write shared memory: they read the sequence (acquire), copy the value, fence, and re-read
 * the sequence; if it was odd or changed they retry. A returned value therefore comes from one
 * stable state (never torn), and reads of different slots never contend. This is the seqlock of
 * the Linux kernel and of {@link java.util.concurrent.locks.StampedLock}'s optimistic reads.
 * Waiting spins briefly ({@link Thread#onSpinWait()}) and then yields, because with more threads
 * than cores the writer being waited for may not be running.
 */
final class SlotSlab {
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int TARGET_CHUNK_FLOATS = 1 << 22;
    private static final int SPINS_BEFORE_YIELD = 64;

    private final int valueLength;
    private final int stride;
    private final int shift;
    private final int mask;
    private final int capacity;
    private final float[][] values;
    private final int[][] seqs;
    private final IntArrayList freeSlots = new IntArrayList();
    private int nextFreshSlot;

    SlotSlab(int valueLength, int stateLength, int capacity) {
        this.valueLength = valueLength;
        this.stride = valueLength + stateLength;
        this.capacity = capacity;
        // Power-of-two chunks of about TARGET_CHUNK_FLOATS floats; the last chunk only as large as needed.
        int slotsPerChunk = Integer.highestOneBit(Math.max(1, TARGET_CHUNK_FLOATS / stride));
        this.shift = Integer.numberOfTrailingZeros(slotsPerChunk);
        this.mask = slotsPerChunk - 1;
        int chunks = (int) (((long) capacity + slotsPerChunk - 1) >>> shift);
        this.values = new float[chunks][];
        this.seqs = new int[chunks][];
    }

    /** Takes a free slot (reusing released ones first); its value and state are zero. */
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
            seqs[c] = new int[slotsInChunk];
        }
        return slot;
    }

    /**
     * Returns {@code slot} for reuse after zeroing it. The caller guarantees that nobody accesses
     * the slot any more (the index no longer points to it).
     */
    synchronized void free(int slot) {
        int base = (slot & mask) * stride;
        Arrays.fill(values[slot >>> shift], base, base + stride, 0f);
        freeSlots.push(slot);
    }

    /** Slots currently allocated. */
    synchronized int allocated() {
        return nextFreshSlot - freeSlots.size();
    }

    /** Slots ever handed out fresh; with reuse it stays at the peak number of live slots. */
    synchronized int highWaterMark() {
        return nextFreshSlot;
    }

    /** Copies the value of {@code slot} into {@code dst} from one stable state. */
    void read(int slot, float[] dst, int dstOffset) {
        float[] chunk = values[slot >>> shift];
        int[] seq = seqs[slot >>> shift];
        int i = slot & mask;
        int base = i * stride;
        for (int spins = 0; ; spins++) {
            int before = (int) SEQ.getAcquire(seq, i);
            if ((before & 1) == 0) {
                System.arraycopy(chunk, base, dst, dstOffset, valueLength);
                VarHandle.acquireFence();
                if ((int) SEQ.getAcquire(seq, i) == before) {
                    return;
                }
            }
            backOff(spins);
        }
    }

    /** Replaces the value of {@code slot}; the rule state is left as it is. */
    void write(int slot, float[] src, int srcOffset) {
        float[] chunk = values[slot >>> shift];
        int[] seq = seqs[slot >>> shift];
        int i = slot & mask;
        int locked = lock(seq, i);
        System.arraycopy(src, srcOffset, chunk, i * stride, valueLength);
        SEQ.setRelease(seq, i, locked + 1);
    }

    /** Applies {@code rule} to the value and state of {@code slot} with {@code update}. */
    void update(int slot, UpdateRule rule, float[] update, int updateOffset) {
        float[] chunk = values[slot >>> shift];
        int[] seq = seqs[slot >>> shift];
        int i = slot & mask;
        int locked = lock(seq, i);
        try {
            rule.apply(chunk, i * stride, valueLength, update, updateOffset);
        } finally {
            SEQ.setRelease(seq, i, locked + 1);
        }
    }

    /**
     * Runs {@code initializer} on the value of a freshly allocated {@code slot}; called before the
     * slot is published in the index, so no lock is needed.
     */
    void initialize(int slot, long row, Initializer initializer) {
        initializer.initialize(row, values[slot >>> shift], (slot & mask) * stride, valueLength);
    }

    /** Acquires the slot's write lock; returns the odd sequence number now held. */
    private static int lock(int[] seq, int i) {
        for (int spins = 0; ; spins++) {
            int current = (int) SEQ.getVolatile(seq, i);
            if ((current & 1) == 0 && SEQ.compareAndSet(seq, i, current, current + 1)) {
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
