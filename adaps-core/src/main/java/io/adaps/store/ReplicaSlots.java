package io.adaps.store;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;

import io.adaps.api.Initializer;
import io.adaps.api.UpdateRule;
import io.adaps.api.UpdateRules;

/**
 * The replicas of one table that this node holds: local copies of rows owned by other nodes, in a
 * {@link SlotSlab} of their own with the same sequence lock and tag per slot as owned rows.
 *
 * <h2>Layout</h2>
 * <pre>
 *   | value (L) | state (S) | base (L) | delta (L) |     stride = L + S + 2L
 *   &lt;-- as an owned slot --&gt;
 *
 *   | value (L) | base (L) |                             stride = 2L, for the additive rule
 * </pre>
 * <ul>
 *   <li>{@code value}, {@code state}: the replica's current value and the update rule's state,
 *       laid out as in an owned slot, so that a push applies the rule here and the worker that
 *       pushed reads its own write;</li>
 *   <li>{@code base}: the value at the last synchronization snapshot;</li>
 *   <li>{@code delta}: the sum of the raw updates pushed here since that snapshot, which the
 *       owner applies through its rule at the next synchronization (this is why replicas are for
 *       rules that {@linkplain UpdateRule#accumulates() accumulate}).</li>
 * </ul>
 * Under the additive rule ({@link UpdateRules#add()}) the sum of the updates since the snapshot
 * is {@code value - base}, so the delta is not kept but computed where it is handed out: a push
 * writes the value only, and a change made in place ({@link TableStore#updateHeld}) needs no
 * bookkeeping at all. The owner then receives what the replica's value did, rounded as the value
 * was, rather than the sum of the updates: the same rounding an owned row's updates get.
 * Beside each slot, the slab keeps a mark ({@link SlotSlab#mark}): the slot's sequence number
 * after the last write that left the delta zero and {@code base == value} (an install, a
 * snapshot, a refresh with nothing pushed since the snapshot). While the sequence still has that
 * number, nothing was pushed since, and a snapshot would change nothing.
 * Base and delta live in a second slab, not in the owned one, so that owned slots (the hot path
 * of every technique) stay as small as value and state.
 *
 * <h2>Synchronization</h2>
 * One round for a replica is: {@link #snapshot} (under the slot lock: hand out {@code delta},
 * zero it, {@code base = value}, or hand out {@code value - base} for the additive rule; a clean
 * slot, like most replicas of rarely used keys in a round, skips this without taking the lock),
 * send the delta to the owner, and when the owner
 * answers with its fresh value (which includes that delta), {@link #refresh}:
 * {@code value = fresh + (value - base)}, {@code base = fresh}. The difference
 * {@code value - base} is what local pushes did since the snapshot; it survives the refresh, and
 * is in the next delta. Every operation changes a
 * slot only under its write lock after checking the tag, so pushes, snapshots, refreshes and the
 * replica's removal are atomic with respect to each other and to never-torn reads.
 */
final class ReplicaSlots {
    private final SlotSlab slab;
    private final int valueLength;
    /** Whether the rule is the additive one: then the delta is {@code value - base}, not kept. */
    private final boolean additive;
    /** Where base and (unless {@link #additive}) delta start within a slot. */
    private final int baseOffset;
    private final int deltaOffset;

    /** Replicas of rows of {@code valueLength} floats whose update rule is {@code rule}. */
    ReplicaSlots(int valueLength, UpdateRule rule, int capacity) {
        int stateLength = rule.stateLength(valueLength);
        this.additive = rule == UpdateRules.add();
        this.slab = new SlotSlab(valueLength, stateLength, (additive ? 1 : 2) * valueLength, capacity);
        this.valueLength = valueLength;
        this.baseOffset = valueLength + stateLength;
        this.deltaOffset = baseOffset + valueLength;
    }

    /** Takes a free slot; it holds no row until {@link #install}. */
    int allocate() {
        return slab.allocate();
    }

    /** Returns {@code slot}, emptied by {@link #unlockEmptied}, for reuse. */
    void free(int slot) {
        slab.free(slot);
    }

    /** Replica slots in use. */
    int allocated() {
        return slab.allocated();
    }

    /** The most replica slots in use at once. */
    int highWaterMark() {
        return slab.highWaterMark();
    }

    /** Appends every row held in a replica slot; see {@link SlotSlab#collectRows}. */
    void collectRows(LongArrayList into) {
        slab.collectRows(into);
    }

    /**
     * Puts {@code row} into the allocated {@code slot} as a replica: its value from {@code value}
     * at {@code valueOffset} ({@code valueLength} floats) or, with {@code value == null}, from
     * {@code initializer}; zero state; {@code base = value}; zero delta.
     */
    void install(int slot, int row, Initializer initializer, float[] value, int valueOffset) {
        int locked = slab.lock(slot);
        float[] chunk = slab.chunk(slot);
        int at = slab.offset(slot);
        if (value != null) {
            System.arraycopy(value, valueOffset, chunk, at, valueLength);
        } else {
            initializer.initialize(row, chunk, at, valueLength);
        }
        Arrays.fill(chunk, at + valueLength, at + baseOffset, 0f);
        System.arraycopy(chunk, at, chunk, at + baseOffset, valueLength);
        if (!additive) {
            Arrays.fill(chunk, at + deltaOffset, at + deltaOffset + valueLength, 0f);
        }
        slab.mark(slot, locked + 1);
        slab.unlockHolding(slot, row, locked);
    }

    /** Copies the replica's value into {@code dst}, never torn; {@code false} if the slot does not hold {@code row}. */
    boolean read(int slot, int row, float[] dst, int dstOffset) {
        return slab.read(slot, row, dst, dstOffset);
    }

    /**
     * Under the slot lock, applies {@code rule} with {@code update} to the replica's value and
     * state and adds the raw update to its delta (for the additive rule, the value's change is the
     * delta); {@code false}, changing nothing, if the slot does not hold {@code row}.
     */
    boolean update(int slot, int row, UpdateRule rule, float[] update, int updateOffset) {
        int locked = slab.lockIfHolds(slot, row);
        if (locked == 0) {
            return false;
        }
        try {
            float[] chunk = slab.chunk(slot);
            int at = slab.offset(slot);
            rule.apply(chunk, at, valueLength, update, updateOffset);
            if (!additive) {
                int delta = at + deltaOffset;
                for (int i = 0; i < valueLength; i++) {
                    chunk[delta + i] += update[updateOffset + i];
                }
            }
            return true;
        } finally {
            slab.unlock(slot, locked);
        }
    }

    /** The slab of the slots, for changes made in place under a slot's lock ({@link TableStore#updateHeld}). */
    SlotSlab slab() {
        return slab;
    }

    /**
     * Under the slot lock: copies the delta into {@code dst} at {@code dstOffset} and zeroes it
     * (unless it is all zeros: then {@code dst} is untouched), and sets {@code base = value}.
     *
     * @return {@link TableStore#NOT_HELD} (nothing changed) if the slot does not hold {@code row},
     *         else {@link TableStore#ZERO_DELTA} or {@link TableStore#DELTA}
     */
    int snapshot(int slot, int row, float[] dst, int dstOffset) {
        int sequence = slab.sequence(slot);
        if (isClean(slot, sequence) && slab.tagged(slot, row)) {
            return TableStore.ZERO_DELTA; // nothing pushed since the last snapshot: it would change nothing
        }
        int locked = slab.lockIfHolds(slot, row);
        if (locked == 0) {
            return TableStore.NOT_HELD;
        }
        float[] chunk = slab.chunk(slot);
        int at = slab.offset(slot);
        // Most replicas of a round have no delta (the tail of a skewed distribution): they only
        // take the value as their base, without copying the delta out and clearing it.
        boolean zero = deltaIsZero(chunk, at);
        if (!zero) {
            copyDelta(slot, dst, dstOffset);
            if (!additive) {
                Arrays.fill(chunk, at + deltaOffset, at + deltaOffset + valueLength, 0f);
            }
        }
        System.arraycopy(chunk, at, chunk, at + baseOffset, valueLength);
        slab.mark(slot, locked + 1);
        slab.unlock(slot, locked);
        return zero ? TableStore.ZERO_DELTA : TableStore.DELTA;
    }

    /**
     * Under the slot lock: {@code value = fresh + (value - base)}, {@code base = fresh}, component
     * by component; {@code false}, changing nothing, if the slot does not hold {@code row}.
     */
    boolean refresh(int slot, int row, float[] fresh, int freshOffset) {
        int locked = slab.lockIfHolds(slot, row);
        if (locked == 0) {
            return false;
        }
        float[] chunk = slab.chunk(slot);
        int at = slab.offset(slot);
        int base = at + baseOffset;
        for (int i = 0; i < valueLength; i++) {
            float f = fresh[freshOffset + i];
            chunk[at + i] = f + (chunk[at + i] - chunk[base + i]);
            chunk[base + i] = f;
        }
        if (isClean(slot, locked - 1)) {
            slab.mark(slot, locked + 1); // nothing was pushed since the clean state: value == base again
        }
        slab.unlock(slot, locked);
        return true;
    }

    /**
     * Whether {@code slot} was clean when its sequence number was {@code sequence}. A mark is a
     * released sequence number (or 0), so always even: a writer's odd number never matches it and
     * needs no check of its own (which was a rare branch C2 compiled out, then recompiled for).
     */
    private boolean isClean(int slot, int sequence) {
        return slab.mark(slot) == sequence;
    }

    /**
     * Write-locks {@code slot} if it holds {@code row} (see {@link SlotSlab#lockIfHolds}): the
     * first step of removing a replica, followed by {@link #copyDelta} and {@link #unlockEmptied}.
     */
    int lockIfHolds(int slot, int row) {
        return slab.lockIfHolds(slot, row);
    }

    /** Whether the delta of the slot at {@code chunk[at ..]} is all zeros, as {@link TableStore#isZero} tells. */
    private boolean deltaIsZero(float[] chunk, int at) {
        if (!additive) {
            return TableStore.isZero(chunk, at + deltaOffset, valueLength);
        }
        int base = at + baseOffset;
        for (int i = 0; i < valueLength; i++) {
            if (chunk[at + i] - chunk[base + i] != 0f) {
                return false;
            }
        }
        return true;
    }

    /** Copies the delta of {@code slot}, whose write lock the caller holds, into {@code dst}. */
    void copyDelta(int slot, float[] dst, int dstOffset) {
        float[] chunk = slab.chunk(slot);
        int at = slab.offset(slot);
        if (additive) {
            for (int i = 0; i < valueLength; i++) {
                dst[dstOffset + i] = chunk[at + i] - chunk[at + baseOffset + i];
            }
        } else {
            System.arraycopy(chunk, at + deltaOffset, dst, dstOffset, valueLength);
        }
    }

    /**
     * Marks {@code slot}, whose write lock the caller holds as {@code locked}, empty and releases
     * the lock: accesses racing on it from then on see another tag and fail.
     */
    void unlockEmptied(int slot, int locked) {
        slab.unlockHolding(slot, SlotSlab.FREE, locked);
    }
}
