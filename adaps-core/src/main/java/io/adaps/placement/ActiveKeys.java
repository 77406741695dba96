package io.adaps.placement;

import java.util.function.LongConsumer;

import io.adaps.intent.IntentTracker;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Which row keys this node has a reason to hold, and when that changes. A key is <em>active</em>
 * while a worker's intent for it is active ({@link IntentTracker}) or it is an entry of one of
 * the node's sampling pools; a key whose reasons end <em>lingers</em> before it is let go (see
 * {@link AdaptiveManager} for why), and becoming active again while lingering undoes the end
 * without a word to the key's home. Keys that became active, and keys let go, are collected for
 * the manager to announce to their homes.
 *
 * <p>Manager thread only.
 */
final class ActiveKeys implements IntentTracker.Listener {
    private final IntentTracker tracker;
    /** Keys that are entries of this node's pools, with their number of entries. */
    private final Long2IntOpenHashMap poolEntries = new Long2IntOpenHashMap();
    /** Keys whose reasons ended, in the order they did, with the time they are let go. */
    private final Long2LongLinkedOpenHashMap lingering = new Long2LongLinkedOpenHashMap();
    /** Keys that became active since they were last announced. */
    final LongArrayList started = new LongArrayList();
    /** Keys let go since they were last announced. */
    final LongArrayList ended = new LongArrayList();
    private long lingerUntil;

    ActiveKeys(IntentTracker tracker) {
        this.tracker = tracker;
    }

    /** Keys that become inactive from now on linger until {@code time}. */
    void lingerUntil(long time) {
        lingerUntil = time;
    }

    @Override
    public void onActive(long key) {
        if (!poolEntries.containsKey(key)) {
            becameActive(key);
        }
    }

    @Override
    public void onInactive(long key) {
        if (!poolEntries.containsKey(key)) {
            becameInactive(key);
        }
    }

    /** {@code key} became an entry of a pool (once per entry). */
    void poolEntered(long key) {
        if (poolEntries.addTo(key, 1) == 0 && !tracker.isActive(key)) {
            becameActive(key);
        }
    }

    /** {@code key} stopped being an entry of a pool. */
    void poolLeft(long key) {
        if (poolEntries.addTo(key, -1) == 1) {
            poolEntries.remove(key);
            if (!tracker.isActive(key)) {
                becameInactive(key);
            }
        }
    }

    private void becameActive(long key) {
        if (lingering.containsKey(key)) {
            lingering.remove(key); // never let go: nothing to announce
        } else {
            started.add(key);
        }
    }

    private void becameInactive(long key) {
        lingering.put(key, lingerUntil);
    }

    /** Whether a worker's intent or a pool entry holds {@code key} now. */
    boolean isActive(long key) {
        return tracker.isActive(key) || poolEntries.containsKey(key);
    }

    /** Whether this node still wants {@code key}: active, or lingering. */
    boolean wanted(long key) {
        return isActive(key) || lingering.containsKey(key);
    }

    /** Whether keys linger. */
    boolean anyLingering() {
        return !lingering.isEmpty();
    }

    /** Lets go of the keys that lingered until {@code now}: adds them to {@link #ended} and tells {@code letGo}. */
    void letGo(long now, LongConsumer letGo) {
        while (!lingering.isEmpty() && lingering.get(lingering.firstLongKey()) - now <= 0) {
            long key = lingering.firstLongKey();
            lingering.remove(key);
            ended.add(key);
            letGo.accept(key);
        }
    }
}
