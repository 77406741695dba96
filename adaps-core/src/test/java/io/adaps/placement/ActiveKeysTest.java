package io.adaps.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.adaps.intent.IntentTracker;
import io.adaps.keys.RowKey;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/** Which keys a node announces to their homes and when it lets them go: keys linger after their intents end. */
class ActiveKeysTest {
    private static final long LINGER = 1_000;

    private final IntentTracker tracker = new IntentTracker(1);
    private final ActiveKeys active = new ActiveKeys(tracker);
    private final List<Long> letGo = new ArrayList<>();

    private static long key(long row) {
        return RowKey.of(0, row);
    }

    /** Worker 0 will use {@code key} during clock {@code at}. */
    private void intent(long at, long key) {
        tracker.add(0, new long[] {key}, 0, 1, at, at + 1);
    }

    /** The worker moves to {@code clock}; the manager runs one duty cycle at {@code now}. */
    private void step(long clock, long now) {
        step(clock, now, 0);
    }

    /** As {@link #step(long, long)}, acting on intents that start within {@code window} clocks. */
    private void step(long clock, long now, long window) {
        active.lingerUntil(now + LINGER);
        active.advancingTo(clock);
        tracker.advance(new long[] {clock}, window, active);
        active.letGo(now, letGo::add);
    }

    private static List<Long> take(LongArrayList keys) {
        List<Long> taken = new ArrayList<>(keys);
        keys.clear();
        return taken;
    }

    @Test
    void anActivatedKeyIsAnnouncedAndLingersBeforeItIsLetGo() {
        long key = key(7);
        intent(0, key);
        step(0, 0);
        assertThat(take(active.started)).containsExactly(key);
        assertThat(active.isActive(key)).isTrue();

        step(1, 10); // the intent ended: the key lingers until 1010
        assertThat(active.isActive(key)).isFalse();
        assertThat(active.wanted(key)).isTrue();
        assertThat(active.nextLetGo()).isEqualTo(1010);
        step(1, 1009);
        assertThat(letGo).isEmpty();
        step(1, 1010);
        assertThat(letGo).containsExactly(key);
        assertThat(take(active.ended)).containsExactly(key);
    }

    @Test
    void aKeyUsedAgainWhileItLingersStaysWithoutAWordToItsHome() {
        long key = key(7);
        intent(0, key);
        intent(2, key);
        step(0, 0);
        take(active.started);
        step(1, 10);
        step(2, 20);
        assertThat(take(active.started)).isEmpty();
        assertThat(active.nextLetGo()).isEqualTo(Long.MAX_VALUE);
        step(3, 30);
        step(3, 2000);
        assertThat(take(active.ended)).containsExactly(key);
    }

    @Test
    void anActivatedKeyIsAnnouncedWithItsIntentsClocks() {
        tracker.add(0, new long[] {key(1), key(2)}, 0, 2, 4, 9);
        step(4, 0);
        assertThat(take(active.started)).containsExactly(key(1), key(2));
        assertThat(take(active.startedFrom)).containsExactly(4L, 4L);
        assertThat(take(active.startedTo)).containsExactly(9L, 9L);
    }

    @Test
    void aReleasedKeyIsLetGoAsSoonAsItsIntentEndsWithoutLingering() {
        long key = key(7);
        intent(0, key);
        step(0, 0);
        active.release(key, 1);
        step(1, 10);
        assertThat(letGo).containsExactly(key);
        assertThat(take(active.ended)).containsExactly(key);
        assertThat(take(active.overlapping)).isEmpty();
    }

    @Test
    void aLingeringKeyIsLetGoWhenReleased() {
        long key = key(7);
        intent(0, key);
        step(0, 0);
        step(1, 10);
        active.release(key, 5);
        step(1, 20);
        assertThat(take(active.ended)).containsExactly(key);
        assertThat(active.nextLetGo()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aReleasedKeyStillActiveWhereTheNextNodeStartsOverlapsAndThenLingers() {
        long key = key(7);
        tracker.add(0, new long[] {key}, 0, 1, 0, 5);
        step(0, 0);
        active.release(key, 3);
        step(2, 10);
        active.checkOverlaps(2);
        assertThat(take(active.overlapping)).isEmpty();
        step(3, 20);
        active.checkOverlaps(3);
        assertThat(take(active.overlapping)).containsExactly(key);
        assertThat(take(active.overlappingAt)).as("the release's clock").containsExactly(3L);
        step(5, 30);
        assertThat(take(active.ended)).as("lingers as usual").isEmpty();
        step(5, 1030);
        assertThat(take(active.ended)).containsExactly(key);
    }

    /**
     * Issue 13: the release of a key used at clock 0, for a node that uses it at clock 1, arrives
     * once this node's next use, at clock 2, has resumed the key while it lingered (the action
     * window reached it; its home never heard of the gap). That is no overlap: the key is let go
     * and started again.
     */
    @Test
    void aLateReleaseOfAKeyResumedAfterTheReleasedClockEndsTheOldUseAndStartsTheNew_issue13() {
        long key = key(7);
        intent(0, key);
        intent(2, key);
        step(0, 0);
        take(active.started);
        take(active.startedFrom);
        take(active.startedTo);
        step(1, 10, 1); // ended, then resumed by the window: nothing announced
        assertThat(take(active.started)).isEmpty();
        assertThat(take(active.ended)).isEmpty();
        active.release(key, 1);
        active.checkOverlaps(1);
        step(1, 30, 1);
        assertThat(take(active.overlapping)).isEmpty();
        assertThat(letGo).containsExactly(key);
        assertThat(take(active.ended)).containsExactly(key);
        assertThat(take(active.started)).containsExactly(key);
        assertThat(take(active.startedFrom)).containsExactly(2L);
        assertThat(take(active.startedTo)).containsExactly(3L);
        step(3, 40);
        step(3, 2000);
        assertThat(take(active.ended)).as("the new use ends as usual").containsExactly(key);
    }

    @Test
    void aReleaseOfAKeyResumedForAUseThatStartsAtOnceIsAnOverlap() {
        long key = key(7);
        intent(0, key);
        intent(2, key);
        step(0, 0);
        step(1, 10);
        step(2, 20); // resumed as its use starts: in use from clock 2 on
        active.release(key, 1);
        active.checkOverlaps(2);
        assertThat(take(active.overlapping)).containsExactly(key);
        assertThat(take(active.overlappingAt)).containsExactly(1L);
    }

    @Test
    void aReleaseForAClockAfterAResumedUsesStartIsAnOrdinaryRelease() {
        long key = key(7);
        tracker.add(0, new long[] {key}, 0, 1, 0, 1);
        tracker.add(0, new long[] {key}, 0, 1, 2, 4);
        step(0, 0);
        step(1, 10);
        step(2, 20);
        active.release(key, 3);
        active.checkOverlaps(3);
        assertThat(take(active.overlapping)).containsExactly(key);
        assertThat(take(active.ended)).isEmpty();
    }

    @Test
    void aReleaseOfAKeyThatIsNeitherActiveNorLingeringChangesNothing() {
        active.release(key(7), 3);
        active.checkOverlaps(10);
        step(10, 10);
        assertThat(take(active.overlapping)).isEmpty();
        assertThat(take(active.ended)).isEmpty();
    }

    @Test
    void aKeyEnteringASamplingPoolIsAnnouncedAndLetGoOnlyWhenNeitherPoolNorIntentHoldsIt() {
        long key = key(7);
        active.poolEntered(key);
        assertThat(take(active.started)).containsExactly(key);
        intent(0, key);
        step(0, 0);
        assertThat(take(active.started)).isEmpty(); // active already
        active.poolLeft(key); // still intended
        assertThat(active.isActive(key)).isTrue();
        step(1, 10);
        assertThat(active.isActive(key)).isFalse();
        step(1, 1010);
        assertThat(take(active.ended)).containsExactly(key);
    }
}
