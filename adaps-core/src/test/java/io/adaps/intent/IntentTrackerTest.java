package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Intents become active a window ahead of their worker and end at their to-clock, without flicker. */
class IntentTrackerTest {

    /** Records listener calls as "+key" and "-key". */
    static final class Events implements IntentTracker.Listener {
        final List<String> seen = new ArrayList<>();
        final List<String> clocks = new ArrayList<>();

        @Override
        public void onActive(long key, long fromClock, long toClock) {
            seen.add("+" + key);
            clocks.add(key + "@[" + fromClock + "," + toClock + ")");
        }

        @Override
        public void onInactive(long key) {
            seen.add("-" + key);
        }

        List<String> take() {
            List<String> taken = new ArrayList<>(seen);
            seen.clear();
            return taken;
        }
    }

    private final Events events = new Events();

    @Test
    void activatesAWindowAheadOfTheStartAndExpiresAtTheEnd() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {5, 6}, 0, 2, 10, 12);
        assertThat(tracker.pendingIntents()).isEqualTo(1);

        tracker.advance(new long[] {6}, 3, events);
        assertThat(events.take()).isEmpty();
        assertThat(tracker.isActive(5)).isFalse();

        tracker.advance(new long[] {7}, 3, events); // 10 <= 7 + 3
        assertThat(events.take()).containsExactly("+5", "+6");
        assertThat(tracker.isActive(5)).isTrue();
        assertThat(tracker.activeKeys()).isEqualTo(2);
        assertThat(tracker.pendingIntents()).isZero();

        tracker.advance(new long[] {11}, 3, events);
        assertThat(events.take()).isEmpty();

        tracker.advance(new long[] {12}, 3, events);
        assertThat(events.take()).containsExactly("-5", "-6");
        assertThat(tracker.activeKeys()).isZero();
    }

    @Test
    void aKeyBecomesActiveWithTheClocksOfTheIntentThatActivatedIt() {
        IntentTracker tracker = new IntentTracker(2);
        tracker.add(0, new long[] {1, 2}, 0, 2, 4, 8);
        tracker.add(1, new long[] {2, 3}, 0, 2, 6, 20);
        tracker.advance(new long[] {3, 3}, 1, events);
        assertThat(events.clocks).containsExactly("1@[4,8)", "2@[4,8)");
        tracker.advance(new long[] {5, 5}, 1, events);
        assertThat(events.clocks).as("2 was active already").containsExactly("1@[4,8)", "2@[4,8)", "3@[6,20)");
    }

    @Test
    void aKeyWhoseNextIntentStartsLaterBecomesInactiveInBetweenEvenWhenTheWindowReachesIt() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {5}, 0, 1, 0, 4);
        tracker.add(0, new long[] {5}, 0, 1, 8, 12);
        tracker.add(0, new long[] {6}, 0, 1, 0, 4);
        tracker.add(0, new long[] {6}, 0, 1, 4, 8);
        tracker.advance(new long[] {0}, 1, events);
        assertThat(events.take()).containsExactly("+5", "+6");
        tracker.advance(new long[] {4}, 10, events);
        assertThat(events.take()).as("6 goes on at once, 5 is unused in clocks 4..7").containsExactly("-5", "+5");
        assertThat(events.clocks).endsWith("5@[8,12)");
    }

    /**
     * Issue 13: a manager that did not run while its workers moved on sees their clocks past the
     * end of one intent and the start of the next; the key was unused in between, and its home
     * must hear so (else it takes the next use for one that never ended).
     */
    @Test
    void aKeyIsInactiveInAGapThatTheClocksJumpedOver_issue13() {
        IntentTracker tracker = new IntentTracker(2);
        tracker.add(0, new long[] {5, 6}, 0, 2, 0, 4);
        tracker.add(1, new long[] {5}, 0, 1, 8, 12);
        tracker.add(1, new long[] {6}, 0, 1, 4, 12);
        tracker.advance(new long[] {0, 0}, 0, events);
        assertThat(events.take()).containsExactly("+5", "+6");
        tracker.advance(new long[] {9, 9}, 0, events);
        assertThat(events.take()).as("6's next intent starts as the first ends; 5's later")
                .containsExactly("-5", "+5");
        assertThat(events.clocks).endsWith("5@[8,12)");
    }

    @Test
    void aZeroWindowActivatesAtTheStartClock() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {1}, 0, 1, 3, 4);
        tracker.advance(new long[] {2}, 0, events);
        assertThat(events.take()).isEmpty();
        tracker.advance(new long[] {3}, 0, events);
        assertThat(events.take()).containsExactly("+1");
        tracker.advance(new long[] {4}, 0, events);
        assertThat(events.take()).containsExactly("-1");
    }

    @Test
    void overlappingIntentsOfTwoWorkersKeepAKeyActive() {
        IntentTracker tracker = new IntentTracker(2);
        tracker.add(0, new long[] {9}, 0, 1, 0, 5);
        tracker.add(1, new long[] {9, 10}, 0, 2, 3, 8);
        tracker.advance(new long[] {0, 0}, 1, events);
        assertThat(events.take()).containsExactly("+9");
        tracker.advance(new long[] {2, 2}, 1, events);
        assertThat(events.take()).containsExactly("+10");
        tracker.advance(new long[] {5, 5}, 1, events); // worker 0's intent ends; worker 1's holds key 9
        assertThat(events.take()).isEmpty();
        assertThat(tracker.isActive(9)).isTrue();
        tracker.advance(new long[] {5, 8}, 1, events);
        assertThat(events.take()).containsExactly("-9", "-10");
    }

    @Test
    void consecutiveIntentsForTheSameKeyNeverFlicker() {
        IntentTracker tracker = new IntentTracker(1);
        for (long c = 0; c < 50; c++) {
            tracker.add(0, new long[] {7}, 0, 1, c, c + 1);
        }
        tracker.advance(new long[] {0}, 0, events);
        assertThat(events.take()).containsExactly("+7");
        for (long c = 1; c < 50; c++) {
            tracker.advance(new long[] {c}, 0, events);
            assertThat(events.take()).as("clock %d", c).isEmpty();
        }
        tracker.advance(new long[] {50}, 0, events);
        assertThat(events.take()).containsExactly("-7");
    }

    @Test
    void anIntentHandOverBetweenWorkersInOneAdvanceDoesNotFlicker() {
        // Worker 1's intent starts in the advance that ends worker 0's: expirations come last.
        IntentTracker tracker = new IntentTracker(2);
        tracker.add(0, new long[] {4}, 0, 1, 0, 2);
        tracker.add(1, new long[] {4}, 0, 1, 2, 3);
        tracker.advance(new long[] {0, 0}, 0, events);
        assertThat(events.take()).containsExactly("+4");
        tracker.advance(new long[] {2, 2}, 0, events);
        assertThat(events.take()).isEmpty();
        tracker.advance(new long[] {3, 3}, 0, events);
        assertThat(events.take()).containsExactly("-4");
    }

    @Test
    void intentsInAnyOrderActivateByTheirStart() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {3}, 0, 1, 6, 7);
        tracker.add(0, new long[] {1}, 0, 1, 2, 3);
        tracker.add(0, new long[] {2}, 0, 1, 4, 5);
        tracker.advance(new long[] {0}, 2, events);
        assertThat(events.take()).containsExactly("+1");
        tracker.advance(new long[] {2}, 2, events);
        assertThat(events.take()).containsExactly("+2");
        tracker.advance(new long[] {4}, 2, events);
        assertThat(events.take()).containsExactly("-1", "+3");
    }

    @Test
    void intentsThatAreOverAreDroppedAndNeverActive() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {1}, 0, 1, 2, 3);
        tracker.advance(new long[] {10}, 0, events); // jumped past the whole intent
        assertThat(events.take()).isEmpty();
        assertThat(tracker.pendingIntents()).isZero();

        tracker.add(0, new long[] {2}, 0, 1, 5, 10); // over at the worker's clock 10: dropped at once
        assertThat(tracker.pendingIntents()).isZero();
        tracker.add(0, new long[] {3}, 0, 0, 20, 30); // no keys: nothing to track
        assertThat(tracker.pendingIntents()).isZero();
        tracker.advance(new long[] {10}, 100, events);
        assertThat(events.take()).isEmpty();
    }

    @Test
    void duplicateKeysInOneIntentCountTwice() {
        IntentTracker tracker = new IntentTracker(1);
        tracker.add(0, new long[] {8, 8}, 0, 2, 0, 1);
        tracker.advance(new long[] {0}, 0, events);
        assertThat(events.take()).containsExactly("+8");
        tracker.advance(new long[] {1}, 0, events);
        assertThat(events.take()).containsExactly("-8");
        assertThat(tracker.activeKeys()).isZero();
    }

    @Test
    void addsKeysStraightFromAQueueRecord() {
        IntentQueue queue = new IntentQueue(4096);
        IntentTracker tracker = new IntentTracker(2);
        assertThat(queue.offer(2, new long[] {1, 2, 3}, 0, 3, 0, 1)).isTrue();
        queue.drain((buffer, keysOffset, count, from, to) -> tracker.add(1, buffer, keysOffset, count, from, to), 10);
        tracker.advance(new long[] {0, 0}, 0, events);
        assertThat(events.take()).containsExactly("+" + (2L << 32 | 1), "+" + (2L << 32 | 2), "+" + (2L << 32 | 3));
    }

    @Test
    void reusesTheMemoryOfFinishedIntents() {
        IntentTracker tracker = new IntentTracker(1);
        long[] keys = {1, 2, 3};
        for (long c = 0; c < 10_000; c++) {
            tracker.add(0, keys, 0, 3, c, c + 1);
            tracker.advance(new long[] {c}, 0, events);
        }
        assertThat(tracker.activeKeys()).isEqualTo(3);
        assertThat(tracker.pendingIntents()).isZero();
        assertThat(events.take()).containsExactly("+1", "+2", "+3");
    }

    @Test
    void refusesInvalidArguments() {
        IntentTracker tracker = new IntentTracker(2);
        long[] keys = {1};
        assertThatThrownBy(() -> new IntentTracker(0)).hasMessage("workers=0 (expected > 0)");
        assertThatThrownBy(() -> tracker.add(2, keys, 0, 1, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("worker=2 (expected 0 <= worker < 2)");
        assertThatThrownBy(() -> tracker.add(-1, keys, 0, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tracker.add(0, keys, 0, 1, 1, 1)).hasMessage("toClock=1 (expected > fromClock=1)");
        assertThatThrownBy(() -> tracker.add(0, keys, 1, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        assertThatThrownBy(() -> tracker.add(0, buffer, 8, 2, 0, 1))
                .hasMessage("keysOffset=8, count=2 (expected keys within buffer.capacity()=16)");
        assertThatThrownBy(() -> tracker.add(0, buffer, 0, -1, 0, 1)).hasMessage("count=-1 (expected >= 0)");
        assertThatThrownBy(() -> tracker.advance(new long[] {0}, 0, events))
                .hasMessage("workerClocks.length=1 (expected workers=2)");
        assertThatThrownBy(() -> tracker.advance(new long[] {0, 0}, -1, events)).hasMessage("window=-1 (expected >= 0)");
        tracker.advance(new long[] {5, 5}, 0, events);
        assertThatThrownBy(() -> tracker.advance(new long[] {5, 4}, 0, events))
                .hasMessage("workerClocks[1]=4 (expected >= the previous clock 5)");
        assertThat(tracker.pendingIntents()).isZero();
    }
}
