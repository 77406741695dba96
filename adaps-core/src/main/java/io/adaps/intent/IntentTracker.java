package io.adaps.intent;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkRange;

import java.util.Arrays;

import org.agrona.DirectBuffer;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/**
 * The intents of one node's workers, and which keys they make active now. Used by the node's
 * adaptive manager thread only.
 *
 * <h2>Algorithm</h2>
 * Following AdaPM (Renz-Wieland, Kieslinger, Gericke, Gemulla, Kaoudi, Markl, "Good Intentions:
 * Adaptive Parameter Servers via Intent Signaling"), an intent of worker {@code w} for clocks
 * {@code [from, to)} is acted on once it starts within the action window ahead of the worker:
 * <ul>
 *   <li>it is <em>pending</em> from {@link #add} until an {@link #advance} sees
 *       {@code from <= c_w + window} for the worker's clock {@code c_w};</li>
 *   <li>it is then <em>active</em> until an {@code advance} sees {@code to <= c_w}, after which it
 *       is gone for good: it never activates again, even if a later window is larger;</li>
 *   <li>an intent already over when it is added or reached ({@code to <= c_w}) is dropped without
 *       ever being active.</li>
 * </ul>
 * A key is active while at least one intent of any worker of this node holding it is active. The
 * listener hears of a key when it becomes active (count 0 to 1, with the clocks of the intent
 * that made it so) and when it stops (1 to 0). Each
 * {@code advance} first replays, in clock order, the starts and ends of intents that the workers'
 * clocks have passed, a start before an end at the same clock, then activates the rest of the
 * window: a key whose last intent ends as the next begins (a worker re-signalling
 * {@code [c, c+1)}, {@code [c+1, c+2)}) stays active without an inactive/active flicker that would
 * undo and redo the action, while a key whose next intent starts later becomes inactive first and
 * active again with that intent's clocks, also when the window reaches it already, and also when
 * the clocks have moved past both since the last advance (a manager that did not run for a
 * while): its node does not use it in between (another node may, see {@link HomeIntents}).
 *
 * <h2>Costs</h2>
 * An intent is stored once per call (per record of an {@link IntentQueue}): its keys in a pooled
 * {@code long[]}, its to-clock and key count in slot arrays indexed by an intent id that is
 * recycled. Per worker, pending intents wait in a min-heap by from-clock (workers usually signal
 * in increasing order, but any order works) and active ones in a min-heap by to-clock, so each
 * {@code advance} costs one heap operation per intent that changes state, plus one map update per
 * key of that intent in a primitive key-to-count map that holds exactly the active keys. A
 * finished intent returns its id and keys array for reuse; nothing is allocated per key.
 */
public final class IntentTracker {
    /** Hears when keys become active or inactive, from within {@link #advance}. */
    public interface Listener {
        /**
         * {@code key} has its first active intent on this node: the one for clocks
         * {@code [fromClock, toClock)}.
         */
        void onActive(long key, long fromClock, long toClock);

        /** {@code key} has no active intent on this node any more. */
        void onInactive(long key);
    }

    private final int workers;
    // The clock of each worker as of the last advance; Long.MIN_VALUE before the first.
    private final long[] clocks;
    private final IntentHeap[] pending;
    private final IntentHeap[] active;
    // Active intents per key; a key is present iff its count is positive.
    private final Long2IntOpenHashMap activeCounts = new Long2IntOpenHashMap();
    private final LongArrayPool keyArrays = new LongArrayPool();
    private final IntArrayList freeIds = new IntArrayList();
    // Per intent id: its to-clock, number of keys, and keys (null while the id is free).
    private long[] toClocks = new long[64];
    private int[] keyCounts = new int[64];
    private long[][] keys = new long[64][];
    private int usedIds;
    private int pendingIntents;

    /** An empty tracker for {@code workers} workers, numbered from 0. */
    public IntentTracker(int workers) {
        if (workers <= 0) {
            throw new IllegalArgumentException("workers=" + workers + " (expected > 0)");
        }
        this.workers = workers;
        clocks = new long[workers];
        Arrays.fill(clocks, Long.MIN_VALUE);
        pending = new IntentHeap[workers];
        active = new IntentHeap[workers];
        for (int w = 0; w < workers; w++) {
            pending[w] = new IntentHeap();
            active[w] = new IntentHeap();
        }
    }

    /**
     * Records that {@code worker} will access the {@code count} keys
     * {@code buffer.getLong(keysOffset + 8 * i)} during its clocks {@code [fromClock, toClock)}:
     * the form an {@link IntentSink} receives. The keys are copied.
     */
    public void add(int worker, DirectBuffer buffer, int keysOffset, int count, long fromClock, long toClock) {
        checkWorker(worker);
        checkNotNull(buffer, "buffer");
        checkNonNegative(count, "count");
        if (keysOffset < 0 || keysOffset > buffer.capacity() - (long) count * Long.BYTES) {
            throw new IllegalArgumentException("keysOffset=" + keysOffset + ", count=" + count
                    + " (expected keys within buffer.capacity()=" + buffer.capacity() + ")");
        }
        IntentQueue.checkClocks(fromClock, toClock);
        if (count == 0 || toClock <= clocks[worker]) {
            return;
        }
        long[] copy = keyArrays.take(count);
        for (int i = 0, at = keysOffset; i < count; i++, at += Long.BYTES) {
            copy[i] = buffer.getLong(at);
        }
        store(worker, copy, count, fromClock, toClock);
    }

    /**
     * Records that {@code worker} will access {@code keys[offset .. offset + count)} during its
     * clocks {@code [fromClock, toClock)}. The keys are copied.
     */
    public void add(int worker, long[] keys, int offset, int count, long fromClock, long toClock) {
        checkWorker(worker);
        checkNotNull(keys, "keys");
        checkRange(offset, count, keys.length, "offset", "count", "keys");
        IntentQueue.checkClocks(fromClock, toClock);
        if (count == 0 || toClock <= clocks[worker]) {
            return;
        }
        long[] copy = keyArrays.take(count);
        System.arraycopy(keys, offset, copy, 0, count);
        store(worker, copy, count, fromClock, toClock);
    }

    /**
     * Moves every worker to its clock {@code workerClocks[w]}: activates the pending intents that
     * start within {@code window} clocks ahead ({@code from <= c_w + window}) and expires the
     * active intents that are over ({@code to <= c_w}), telling {@code listener} of every key that
     * becomes active or inactive, in the order the class comment gives. The listener must not throw: the keys of
     * an intent change state together.
     *
     * @throws IllegalArgumentException if {@code workerClocks} has not one clock per worker, a
     *                                  clock is below the worker's previous one, or {@code window < 0}
     */
    public void advance(long[] workerClocks, long window, Listener listener) {
        checkNotNull(workerClocks, "workerClocks");
        if (workerClocks.length != workers) {
            throw new IllegalArgumentException("workerClocks.length=" + workerClocks.length + " (expected workers="
                    + workers + ")");
        }
        checkNonNegative(window, "window");
        checkNotNull(listener, "listener");
        for (int w = 0; w < workers; w++) {
            if (workerClocks[w] < clocks[w]) {
                throw new IllegalArgumentException("workerClocks[" + w + "]=" + workerClocks[w]
                        + " (expected >= the previous clock " + clocks[w] + ")");
            }
        }
        System.arraycopy(workerClocks, 0, clocks, 0, workers);
        replayPassed(listener);
        for (int w = 0; w < workers; w++) {
            activate(w, window, listener);
        }
    }

    /**
     * Activates and expires the intents whose start or end the workers' clocks have passed, one
     * at a time in clock order (a start before an end at the same clock), so that a key is
     * inactive between intents with a gap between them however far the clocks moved.
     */
    private void replayPassed(Listener listener) {
        while (true) {
            int worker = -1;
            long at = Long.MAX_VALUE;
            boolean start = false;
            for (int w = 0; w < workers; w++) {
                IntentHeap starting = pending[w];
                if (!starting.isEmpty() && starting.minClock() <= clocks[w]
                        && (starting.minClock() < at || starting.minClock() == at && !start)) {
                    worker = w;
                    at = starting.minClock();
                    start = true;
                }
                IntentHeap ending = active[w];
                if (!ending.isEmpty() && ending.minClock() <= clocks[w] && ending.minClock() < at) {
                    worker = w;
                    at = ending.minClock();
                    start = false;
                }
            }
            if (worker < 0) {
                return;
            }
            if (start) {
                activateFirst(worker, listener);
            } else {
                expireFirst(worker, listener);
            }
        }
    }

    /**
     * Forgets {@code worker}: drops its pending intents and ends its active ones (telling
     * {@code listener} of every key that becomes inactive), and resets its clock, so that a new
     * worker may take its place starting from clock 0.
     */
    public void removeWorker(int worker, Listener listener) {
        checkWorker(worker);
        checkNotNull(listener, "listener");
        IntentHeap heap = pending[worker];
        while (!heap.isEmpty()) {
            int id = heap.minId();
            heap.popMin();
            pendingIntents--;
            release(id);
        }
        while (!active[worker].isEmpty()) {
            expireFirst(worker, listener);
        }
        clocks[worker] = Long.MIN_VALUE;
    }

    /** Whether {@code key} has an active intent on this node. */
    public boolean isActive(long key) {
        return activeCounts.containsKey(key);
    }

    /** The number of keys with an active intent. */
    public int activeKeys() {
        return activeCounts.size();
    }

    /** The number of intents (records) added and neither activated nor dropped yet. */
    public int pendingIntents() {
        return pendingIntents;
    }

    private void checkWorker(int worker) {
        if (worker < 0 || worker >= workers) {
            throw new IllegalArgumentException("worker=" + worker + " (expected 0 <= worker < " + workers + ")");
        }
    }

    private void store(int worker, long[] intentKeys, int count, long fromClock, long toClock) {
        int id = freeIds.isEmpty() ? newId() : freeIds.popInt();
        toClocks[id] = toClock;
        keyCounts[id] = count;
        keys[id] = intentKeys;
        pending[worker].push(fromClock, id);
        pendingIntents++;
    }

    private int newId() {
        if (usedIds == toClocks.length) {
            int length = usedIds * 2;
            toClocks = Arrays.copyOf(toClocks, length);
            keyCounts = Arrays.copyOf(keyCounts, length);
            keys = Arrays.copyOf(keys, length);
        }
        return usedIds++;
    }

    private void activate(int worker, long window, Listener listener) {
        long clock = clocks[worker];
        long horizon = clock + window;
        if (horizon < clock) {
            horizon = Long.MAX_VALUE; // saturate: every intent starts within an overflowing window
        }
        IntentHeap heap = pending[worker];
        while (!heap.isEmpty() && heap.minClock() <= horizon) {
            activateFirst(worker, listener);
        }
    }

    /** Activates {@code worker}'s first pending intent, or drops it if it is over already. */
    private void activateFirst(int worker, Listener listener) {
        IntentHeap heap = pending[worker];
        int id = heap.minId();
        long fromClock = heap.minClock();
        heap.popMin();
        pendingIntents--;
        if (toClocks[id] <= clocks[worker]) {
            release(id); // over before it was ever reached
            return;
        }
        long[] intentKeys = keys[id];
        for (int i = 0, n = keyCounts[id]; i < n; i++) {
            if (activeCounts.addTo(intentKeys[i], 1) == 0) {
                listener.onActive(intentKeys[i], fromClock, toClocks[id]);
            }
        }
        active[worker].push(toClocks[id], id);
    }

    /** Expires {@code worker}'s active intent that ends first. */
    private void expireFirst(int worker, Listener listener) {
        IntentHeap heap = active[worker];
        int id = heap.minId();
        heap.popMin();
        long[] intentKeys = keys[id];
        for (int i = 0, n = keyCounts[id]; i < n; i++) {
            long key = intentKeys[i];
            if (activeCounts.addTo(key, -1) == 1) {
                activeCounts.remove(key);
                listener.onInactive(key);
            }
        }
        release(id);
    }

    private void release(int id) {
        keyArrays.give(keys[id]);
        keys[id] = null;
        freeIds.add(id);
    }
}
