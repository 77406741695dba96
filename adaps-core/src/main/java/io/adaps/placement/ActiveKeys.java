package io.adaps.placement;

import java.util.function.LongConsumer;

import io.adaps.intent.IntentTracker;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Which row keys this node has a reason to hold, and when that changes. A key is <em>active</em>
 * while a worker's intent for it is active ({@link IntentTracker}) or it is an entry of one of
 * the node's sampling pools; a key whose reasons end <em>lingers</em> before it is let go (see
 * {@link AdaptiveManager} for why), and becoming active again while lingering undoes the end
 * without a word to the key's home. Keys that became active, and keys let go, are collected for
 * the manager to announce to their homes.
 *
 * <p>A home that hands a key to another node next asks this node to release it
 * ({@link #release}): the key is then let go as soon as it becomes inactive, without lingering, and
 * if it is still active when this node's clock reaches the other node's start, the key is
 * collected as <em>overlapping</em> instead, for the home to replicate it there (see
 * {@link io.adaps.intent.HomeIntents}). A release can come late, after the use it was meant for
 * ended and the next one began: with sub-epochs of a millisecond or two, or a manager starved
 * for that long. If that use resumed the key while it lingered, its home never heard that the key
 * was free in between, and answering the release with an overlap would replicate a key that is
 * used one node after the other. So a key resumed for a use that starts ahead of the node's
 * slowest worker (a gap follows) remembers that use's clocks, and a release for a clock at or
 * before them ends the key's earlier use and starts the new one (END and START to the home, which
 * then hands the key on and back). A use that starts at once is not remembered: a release for a
 * clock before it meets a use in progress, an overlap (this also keeps the cost off keys resumed
 * every epoch, such as the rows a node trains). An overlap names the release's
 * clock, so that the home can tell one that answers a release it has moved past.
 *
 * <p>Manager thread only.
 */
final class ActiveKeys implements IntentTracker.Listener {
    private final IntentTracker tracker;
    /** Keys that are entries of this node's pools, with their number of entries. */
    private final Long2IntOpenHashMap poolEntries = new Long2IntOpenHashMap();
    /** Keys whose reasons ended, in the order they did, with the time they are let go. */
    private final Long2LongLinkedOpenHashMap lingering = new Long2LongLinkedOpenHashMap();
    /** Keys asked to be released, with the clock at which another node starts using them. */
    private final Long2LongOpenHashMap released = new Long2LongOpenHashMap();
    /** The smallest clock in {@link #released}, or {@code Long.MAX_VALUE}: none is due before it. */
    private long releasedDue = Long.MAX_VALUE;
    /** Released keys that became inactive: let go without lingering. */
    private final LongArrayList releasedNow = new LongArrayList();
    /** Keys that became active since they were last announced, with the clocks of their intents. */
    final LongArrayList started = new LongArrayList();
    final LongArrayList startedFrom = new LongArrayList();
    final LongArrayList startedTo = new LongArrayList();
    /** Keys let go since they were last announced. */
    final LongArrayList ended = new LongArrayList();
    /** Released keys still active where the next node starts, since they were last announced. */
    final LongArrayList overlapping = new LongArrayList();
    /** Per overlapping key, the clock of the release it answers. */
    final LongArrayList overlappingAt = new LongArrayList();
    /** Keys active again while they lingered (their home was not told) for a later use, with its clocks. */
    private final Long2LongOpenHashMap resumedFrom = new Long2LongOpenHashMap();
    private final Long2LongOpenHashMap resumedTo = new Long2LongOpenHashMap();
    private long lingerUntil;
    /** The clock of the node's slowest worker as of the tracker's current advance. */
    private long slowestClock = Long.MIN_VALUE;

    ActiveKeys(IntentTracker tracker) {
        this.tracker = tracker;
    }

    /** Keys that become inactive from now on linger until {@code time}. */
    void lingerUntil(long time) {
        lingerUntil = time;
    }

    /** The tracker is about to advance to clocks whose slowest is {@code clock}. */
    void advancingTo(long clock) {
        slowestClock = clock;
    }

    @Override
    public void onActive(long key, long fromClock, long toClock) {
        if (poolEntries.isEmpty() || !poolEntries.containsKey(key)) {
            becameActive(key, fromClock, toClock);
        }
    }

    @Override
    public void onInactive(long key) {
        if (poolEntries.isEmpty() || !poolEntries.containsKey(key)) {
            becameInactive(key);
        }
    }

    /** {@code key} became an entry of a pool (once per entry). */
    void poolEntered(long key) {
        if (poolEntries.addTo(key, 1) == 0 && !tracker.isActive(key)) {
            becameActive(key, Long.MIN_VALUE, Long.MAX_VALUE); // as long as the pool holds it
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

    private void becameActive(long key, long fromClock, long toClock) {
        if (!lingering.isEmpty() && lingering.containsKey(key)) {
            lingering.remove(key); // never let go: nothing to announce
            if (fromClock > slowestClock) {
                resumedFrom.put(key, fromClock);
                resumedTo.put(key, toClock);
            }
        } else {
            started.add(key);
            startedFrom.add(fromClock);
            startedTo.add(toClock);
        }
    }

    private void becameInactive(long key) {
        if (!resumedFrom.isEmpty()) {
            resumedFrom.remove(key);
            resumedTo.remove(key);
        }
        if (!released.isEmpty() && released.containsKey(key)) {
            released.remove(key);
            releasedNow.add(key);
        } else {
            lingering.put(key, lingerUntil);
        }
    }

    /**
     * The home asks to release {@code key}, which another node uses from {@code clock} on: a
     * lingering key is let go at once, an active one as soon as it becomes inactive; one resumed
     * for a use that starts at or after {@code clock} is let go at once and announced as started
     * again.
     */
    void release(long key, long clock) {
        if (lingering.containsKey(key)) {
            lingering.remove(key);
            releasedNow.add(key);
        } else if (!resumedFrom.isEmpty() && resumedFrom.containsKey(key) && resumedFrom.get(key) >= clock) {
            releasedNow.add(key);
            started.add(key);
            startedFrom.add(resumedFrom.remove(key));
            startedTo.add(resumedTo.remove(key));
        } else if (isActive(key)) {
            released.put(key, clock);
            releasedDue = Math.min(releasedDue, clock);
        }
    }

    /**
     * Collects in {@link #overlapping} the released keys still active now that every worker of
     * this node is at {@code clock} or later, at or past where the next node starts using them;
     * they linger as usual from then on.
     */
    void checkOverlaps(long clock) {
        if (clock < releasedDue) {
            return;
        }
        long due = Long.MAX_VALUE;
        for (var entries = released.long2LongEntrySet().fastIterator(); entries.hasNext(); ) {
            var entry = entries.next();
            if (entry.getLongValue() <= clock) {
                overlapping.add(entry.getLongKey());
                overlappingAt.add(entry.getLongValue());
                entries.remove();
            } else {
                due = Math.min(due, entry.getLongValue());
            }
        }
        releasedDue = due;
    }

    /** Whether a worker's intent or a pool entry holds {@code key} now. */
    boolean isActive(long key) {
        return tracker.isActive(key) || !poolEntries.isEmpty() && poolEntries.containsKey(key);
    }

    /** Whether this node still wants {@code key}: active, or lingering. */
    boolean wanted(long key) {
        return isActive(key) || lingering.containsKey(key);
    }

    /**
     * When the next key is let go: at once ({@code Long.MIN_VALUE}) if a released key waits for it,
     * else when the first lingering key is (keys linger in the order they became inactive, for
     * about as long each), or {@code Long.MAX_VALUE} if none lingers.
     */
    long nextLetGo() {
        if (!releasedNow.isEmpty()) {
            return Long.MIN_VALUE;
        }
        return lingering.isEmpty() ? Long.MAX_VALUE : lingering.get(lingering.firstLongKey());
    }

    /**
     * Lets go of the released keys that became inactive and the keys that lingered until
     * {@code now}: adds them to {@link #ended} and tells {@code letGo}.
     */
    void letGo(long now, LongConsumer letGo) {
        for (int i = 0; i < releasedNow.size(); i++) {
            ended.add(releasedNow.getLong(i));
            letGo.accept(releasedNow.getLong(i));
        }
        releasedNow.clear();
        while (!lingering.isEmpty() && lingering.get(lingering.firstLongKey()) - now <= 0) {
            long key = lingering.firstLongKey();
            lingering.remove(key);
            ended.add(key);
            letGo.accept(key);
        }
    }
}
