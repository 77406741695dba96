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
        active.lingerUntil(now + LINGER);
        tracker.advance(new long[] {clock}, 0, active);
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
        assertThat(active.anyLingering()).isFalse();
        step(3, 30);
        step(3, 2000);
        assertThat(take(active.ended)).containsExactly(key);
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
