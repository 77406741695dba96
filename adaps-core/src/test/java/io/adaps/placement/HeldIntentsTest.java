package io.adaps.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class HeldIntentsTest {
    /** An intent as the placer sees it. */
    private record Intent(int worker, List<Long> keys, long from, long to) {
        static Intent of(int worker, DirectBuffer buffer, int offset, int count, long from, long to) {
            List<Long> keys = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                keys.add(buffer.getLong(offset + i * Long.BYTES));
            }
            return new Intent(worker, keys, from, to);
        }
    }

    private static UnsafeBuffer keys(long... keys) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[8 + keys.length * Long.BYTES]);
        for (int i = 0; i < keys.length; i++) {
            buffer.putLong(8 + i * Long.BYTES, keys[i]);
        }
        return buffer;
    }

    private static boolean hold(HeldIntents held, int worker, long from, long... keys) {
        return held.hold(worker, keys(keys), 8, keys.length, from, from + 1);
    }

    @Test
    void replayOffersEveryIntentOldestFirstAndKeepsThoseHeldOn() {
        HeldIntents held = new HeldIntents();
        hold(held, 0, 5, 1, 2, 3);
        hold(held, 1, 6, 4);
        hold(held, 0, 7, 5, 6);
        List<Intent> seen = new ArrayList<>();
        // Takes the intents of worker 0, holds worker 1's on.
        int taken = held.replay((w, b, o, c, f, t) -> {
            seen.add(Intent.of(w, b, o, c, f, t));
            return w == 0;
        });
        assertThat(taken).isEqualTo(5);
        assertThat(seen).containsExactly(new Intent(0, List.of(1L, 2L, 3L), 5, 6), new Intent(1, List.of(4L), 6, 7),
                new Intent(0, List.of(5L, 6L), 7, 8));
        assertThat(held.keys()).isEqualTo(1);
        seen.clear();
        assertThat(held.replay((w, b, o, c, f, t) -> seen.add(Intent.of(w, b, o, c, f, t)))).isEqualTo(1);
        assertThat(seen).containsExactly(new Intent(1, List.of(4L), 6, 7));
        assertThat(held.isEmpty()).isTrue();
        assertThat(held.keys()).isZero();
    }

    @Test
    void dropForgetsOneWorkersIntents() {
        HeldIntents held = new HeldIntents();
        hold(held, 3, 0, 10, 11);
        hold(held, 4, 0, 12);
        hold(held, 3, 1, 13);
        held.drop(3);
        List<Intent> seen = new ArrayList<>();
        held.replay((w, b, o, c, f, t) -> seen.add(Intent.of(w, b, o, c, f, t)));
        assertThat(seen).containsExactly(new Intent(4, List.of(12L), 0, 1));
    }

    @Test
    void refusesIntentsBeyondTheLimitAndHoldsNothingOfThem() {
        HeldIntents held = new HeldIntents();
        UnsafeBuffer big = new UnsafeBuffer(new byte[HeldIntents.MAX_KEYS * Long.BYTES]);
        assertThat(held.hold(0, big, 0, HeldIntents.MAX_KEYS - 1, 0, 1)).isTrue();
        assertThat(held.hold(0, big, 0, 2, 0, 1)).isFalse();
        assertThat(held.keys()).isEqualTo(HeldIntents.MAX_KEYS - 1);
        assertThat(hold(held, 0, 0, 7)).isTrue();
        assertThat(held.keys()).isEqualTo(HeldIntents.MAX_KEYS);
    }

    /** Random holds and replays keep every intent, in order, until a placer takes it (seeded; the seed is reported). */
    @Test
    void randomHoldsAndReplaysLoseAndReorderNothing() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            HeldIntents held = new HeldIntents();
            List<Intent> model = new ArrayList<>();
            long next = 0;
            for (int step = 0; step < 50; step++) {
                if (random.nextInt(3) > 0) {
                    int worker = random.nextInt(4);
                    long[] k = new long[random.nextInt(5)];
                    List<Long> list = new ArrayList<>();
                    for (int i = 0; i < k.length; i++) {
                        k[i] = next++;
                        list.add(k[i]);
                    }
                    long from = random.nextInt(100);
                    hold(held, worker, from, k);
                    model.add(new Intent(worker, list, from, from + 1));
                } else {
                    int takes = random.nextInt(4);
                    List<Intent> seen = new ArrayList<>();
                    held.replay((w, b, o, c, f, t) -> {
                        seen.add(Intent.of(w, b, o, c, f, t));
                        return w == takes;
                    });
                    assertThat(seen).as("seed %d", seed).isEqualTo(model);
                    model.removeIf(intent -> intent.worker() == takes);
                }
                assertThat(held.keys()).as("seed %d", seed)
                        .isEqualTo(model.stream().mapToInt(intent -> intent.keys().size()).sum());
            }
        }
    }
}
