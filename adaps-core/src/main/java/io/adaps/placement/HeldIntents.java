package io.adaps.placement;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Intents the manager holds back until their tables' read rates are known ({@link ReadBatching#HOLD}),
 * in arrival order: once a rate becomes known, {@link #replay} offers each again, so that it is
 * tracked, left alone, or held on. At most {@value #MAX_KEYS} keys are held; {@link #hold} refuses
 * more, and the caller then places the intent as intended.
 *
 * <pre>
 *   keys:    | intent 0's keys (8 bytes each) | intent 1's keys | ...
 *   records: worker, key count, from clock, to clock per intent, in the same order
 * </pre>
 *
 * <p>Manager thread only.
 */
final class HeldIntents {
    /** The most keys held (8 MiB). */
    static final int MAX_KEYS = 1 << 20;

    /** Takes an intent offered again: {@code true} if it was tracked or left alone, {@code false} to hold it on. */
    @FunctionalInterface
    interface Placer {
        boolean place(int worker, DirectBuffer keys, int offset, int count, long fromClock, long toClock);
    }

    private ExpandableArrayBuffer keys = new ExpandableArrayBuffer();
    private ExpandableArrayBuffer spare = new ExpandableArrayBuffer();
    private final IntArrayList workers = new IntArrayList();
    private final IntArrayList counts = new IntArrayList();
    private final LongArrayList froms = new LongArrayList();
    private final LongArrayList tos = new LongArrayList();
    private int heldKeys;

    /**
     * Holds worker {@code worker}'s intent for the {@code count} keys at {@code buffer[offset..]} and
     * clocks {@code [fromClock, toClock)} (the keys are copied); {@code false}, holding nothing, if
     * that would hold more than {@value #MAX_KEYS} keys.
     */
    boolean hold(int worker, DirectBuffer buffer, int offset, int count, long fromClock, long toClock) {
        if (count > MAX_KEYS - heldKeys) {
            return false;
        }
        keys.putBytes(heldKeys * Long.BYTES, buffer, offset, count * Long.BYTES);
        heldKeys += count;
        workers.add(worker);
        counts.add(count);
        froms.add(fromClock);
        tos.add(toClock);
        return true;
    }

    /** Offers every held intent to {@code placer}, oldest first, and keeps those it holds on; returns the keys it took. */
    int replay(Placer placer) {
        ExpandableArrayBuffer from = keys;
        keys = spare;
        spare = from;
        int intents = workers.size();
        int kept = 0;
        int taken = 0;
        heldKeys = 0;
        int at = 0;
        for (int i = 0; i < intents; i++) {
            int count = counts.getInt(i);
            if (placer.place(workers.getInt(i), from, at, count, froms.getLong(i), tos.getLong(i))) {
                taken += count;
            } else {
                keys.putBytes(heldKeys * Long.BYTES, from, at, count * Long.BYTES);
                heldKeys += count;
                workers.set(kept, workers.getInt(i));
                counts.set(kept, count);
                froms.set(kept, froms.getLong(i));
                tos.set(kept, tos.getLong(i));
                kept++;
            }
            at += count * Long.BYTES;
        }
        truncate(kept);
        return taken;
    }

    /** Drops the intents of worker {@code worker} (retired). */
    void drop(int worker) {
        replay((w, buffer, offset, count, fromClock, toClock) -> w == worker);
    }

    /** Whether no intent is held. */
    boolean isEmpty() {
        return workers.isEmpty();
    }

    /** Keys held. */
    int keys() {
        return heldKeys;
    }

    private void truncate(int size) {
        workers.size(size);
        counts.size(size);
        froms.size(size);
        tos.size(size);
    }
}
