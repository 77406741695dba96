package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Concurrently;

/** Intents offered to an {@link IntentQueue} drain whole, in order, once; a refused offer leaves no trace. */
class IntentQueueTest {

    /** One record as drained. */
    record Batch(long[] keys, long from, long to) {
    }

    static List<Batch> drainAll(IntentQueue queue) {
        List<Batch> batches = new ArrayList<>();
        IntentSink sink = (buffer, keysOffset, count, from, to) -> {
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = buffer.getLong(keysOffset + i * Long.BYTES);
            }
            batches.add(new Batch(keys, from, to));
        };
        queue.drain(sink, Integer.MAX_VALUE);
        assertThat(queue.isEmpty()).isTrue();
        return batches;
    }

    static long[] concatenate(List<Batch> batches) {
        return batches.stream().flatMapToLong(b -> java.util.Arrays.stream(b.keys())).toArray();
    }

    static long[] keys(int count, long seed) {
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = seed * 1_000_003L + i * 0x9E3779B97F4A7C15L;
        }
        return keys;
    }

    @Test
    void refusesCapacitiesThatAreNotAPowerOfTwoInRange() {
        assertThatThrownBy(() -> new IntentQueue(1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("capacityBytes=1000 (expected a power of two");
        assertThatThrownBy(() -> new IntentQueue(512)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IntentQueue(1 << 31)).isInstanceOf(IllegalArgumentException.class);
        IntentQueue queue = new IntentQueue(IntentQueue.MIN_CAPACITY);
        assertThat(queue.keysPerRecord()).isEqualTo(13); // (1024 / 8 - 24) / 8
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void keysRoundTripWithTheirClocks() {
        IntentQueue queue = new IntentQueue(4096);
        long[] keys = keys(10, 1);
        assertThat(queue.offer(keys, 2, 5, 7, 9)).isTrue();
        assertThat(queue.offer(keys, 0, 1, -3, Long.MAX_VALUE)).isTrue();
        assertThat(queue.offer(keys, 0, 0, 1, 2)).isTrue(); // an empty call queues nothing
        assertThat(queue.isEmpty()).isFalse();

        List<Batch> batches = drainAll(queue);
        assertThat(batches).hasSize(2);
        assertThat(batches.get(0).keys()).containsExactly(keys[2], keys[3], keys[4], keys[5], keys[6]);
        assertThat(batches.get(0).from()).isEqualTo(7);
        assertThat(batches.get(0).to()).isEqualTo(9);
        assertThat(batches.get(1).keys()).containsExactly(keys[0]);
        assertThat(batches.get(1).from()).isEqualTo(-3);
        assertThat(batches.get(1).to()).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void tableRowsBecomeKeys() {
        IntentQueue queue = new IntentQueue(4096);
        long[] rows = {0, 1, 0xFFFF_FFFFL, 12345};
        assertThat(queue.offer(3, rows, 1, 3, 0, 1)).isTrue();
        assertThat(queue.offer(0, rows, 0, 1, 0, 1)).isTrue();
        List<Batch> batches = drainAll(queue);
        assertThat(batches.get(0).keys()).containsExactly(3L << 32 | 1, 3L << 32 | 0xFFFF_FFFFL, 3L << 32 | 12345);
        assertThat(batches.get(1).keys()).containsExactly(0L);
    }

    @Test
    void refusesInvalidOffersWithoutQueueingAnything() {
        IntentQueue queue = new IntentQueue(4096);
        long[] rows = {1, -1, 2};
        assertThatThrownBy(() -> queue.offer(0, rows, 0, 3, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows[1]=-1 (expected 0 <= row < 2^32)");
        assertThatThrownBy(() -> queue.offer(0, new long[] {1L << 32}, 0, 1, 0, 1))
                .hasMessage("rows[0]=4294967296 (expected 0 <= row < 2^32)");
        assertThatThrownBy(() -> queue.offer(-1, rows, 0, 1, 0, 1)).hasMessage("table=-1 (expected >= 0)");
        assertThatThrownBy(() -> queue.offer(rows, 0, 1, 5, 5)).hasMessage("toClock=5 (expected > fromClock=5)");
        assertThatThrownBy(() -> queue.offer(rows, 2, 2, 0, 1))
                .hasMessage("offset=2, count=2 (expected a range within keys.length=3)");
        assertThatThrownBy(() -> queue.offer(null, 0, 0, 0, 1)).isInstanceOf(NullPointerException.class);
        long[] many = new long[queue.maxKeysPerOffer() + 1];
        assertThatThrownBy(() -> queue.offer(many, 0, many.length, 0, 1))
                .hasMessage("count=" + many.length + " (expected <= maxKeysPerOffer=" + queue.maxKeysPerOffer() + ")");
        assertThatThrownBy(() -> queue.drain((b, o, c, f, t) -> { }, 0)).hasMessage("limit=0 (expected > 0)");
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void splitsALargeCallIntoRecordsWithTheSameClocks() {
        IntentQueue queue = new IntentQueue(1 << 16);
        int perRecord = queue.keysPerRecord();
        long[] keys = keys(3 * perRecord + 5, 2);
        assertThat(queue.offer(keys, 0, keys.length, 4, 6)).isTrue();

        List<Batch> batches = drainAll(queue);
        assertThat(batches).extracting(b -> b.keys().length).containsExactly(perRecord, perRecord, perRecord, 5);
        assertThat(batches).allSatisfy(b -> {
            assertThat(b.from()).isEqualTo(4);
            assertThat(b.to()).isEqualTo(6);
        });
        assertThat(concatenate(batches)).containsExactly(keys);
    }

    @Test
    void drainPassesAtMostLimitRecords() {
        IntentQueue queue = new IntentQueue(4096);
        for (int i = 0; i < 5; i++) {
            assertThat(queue.offer(keys(1, i), 0, 1, i, i + 1)).isTrue();
        }
        List<Long> froms = new ArrayList<>();
        assertThat(queue.drain((b, o, c, from, to) -> froms.add(from), 2)).isEqualTo(2);
        assertThat(froms).containsExactly(0L, 1L);
        assertThat(queue.drain((b, o, c, from, to) -> froms.add(from), 10)).isEqualTo(3);
        assertThat(froms).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void aFullQueueRefusesAWholeCallAndKeepsWhatItHas() {
        IntentQueue queue = new IntentQueue(IntentQueue.MIN_CAPACITY);
        int accepted = 0;
        while (queue.offer(keys(3, accepted), 0, 3, accepted, accepted + 1)) {
            accepted++;
        }
        assertThat(accepted).isPositive();
        // A call of several records is refused whole while even its first record would fit.
        long[] big = keys(queue.maxKeysPerOffer(), 99);
        assertThat(queue.offer(big, 0, big.length, 0, 1)).isFalse();

        List<Batch> batches = drainAll(queue);
        assertThat(batches).hasSize(accepted);
        for (int i = 0; i < accepted; i++) {
            assertThat(batches.get(i).keys()).containsExactly(keys(3, i));
            assertThat(batches.get(i).from()).isEqualTo(i);
        }
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.offer(big, 0, big.length, 0, 1)).isTrue();
        assertThat(concatenate(drainAll(queue))).containsExactly(big);
    }

    @Test
    void aMultiRecordCallIsRefusedWholeWhenOnlyPartOfItFits() {
        IntentQueue queue = new IntentQueue(IntentQueue.MIN_CAPACITY);
        int perRecord = queue.keysPerRecord();
        // Records of 13 keys take 136 bytes: seven fill 952 of the 1024, the eighth is refused.
        int filler = 0;
        while (queue.offer(keys(perRecord, filler), 0, perRecord, filler, filler + 1)) {
            filler++;
        }
        assertThat(filler).isEqualTo(7);
        // Freeing two records makes 344 bytes free; the next record pads the 72 left at the end.
        // One record then fits (72 + 136 + 8 kept free = 216), two do not (72 + 272 + 8 = 352).
        drainOne(queue);
        drainOne(queue);
        assertThat(queue.offer(keys(2 * perRecord, 7), 0, 2 * perRecord, 0, 1)).isFalse();
        assertThat(queue.offer(keys(perRecord, 8), 0, perRecord, 0, 1)).isTrue();
        List<Batch> batches = drainAll(queue);
        assertThat(batches).hasSize(6);
        assertThat(batches.get(4).keys()).containsExactly(keys(perRecord, 6));
        assertThat(batches.get(5).keys()).containsExactly(keys(perRecord, 8));
    }

    private static void drainOne(IntentQueue queue) {
        assertThat(queue.drain((b, o, c, f, t) -> { }, 1)).isEqualTo(1);
    }

    @Test
    void wrapsAroundTheRingManyTimes() {
        IntentQueue queue = new IntentQueue(IntentQueue.MIN_CAPACITY);
        long firstUndrained = 0;
        for (long call = 0; call < 3000; call++) {
            assertThat(queue.offer(keys(countOf(call), call), 0, countOf(call), call, call + 2)).isTrue();
            if (call % 3 != 2) {
                continue; // let records accumulate across the end of the ring
            }
            List<Batch> batches = drainAll(queue);
            for (long c = firstUndrained; c <= call; c++) {
                long clock = c;
                long[] got = concatenate(batches.stream().filter(b -> b.from() == clock).toList());
                assertThat(got).containsExactly(keys(countOf(c), c));
            }
            assertThat(batches).allSatisfy(b -> assertThat(b.to()).isEqualTo(b.from() + 2));
            firstUndrained = call + 1;
        }
    }

    // 1 to 20 keys: one or two records, of every length, so that records meet the end of the ring at every offset.
    private static int countOf(long call) {
        return 1 + (int) (call * 7 % 20);
    }

    @Test
    void anEmptyQueueAcceptsTheLargestOfferWhereverItsTailStands() {
        IntentQueue queue = new IntentQueue(IntentQueue.MIN_CAPACITY);
        long[] big = keys(queue.maxKeysPerOffer(), 5);
        for (int shift = 0; shift < IntentQueue.MIN_CAPACITY / 8; shift++) {
            // Move the tail by one small record's worth each time (40 bytes, so every 8-byte offset occurs).
            assertThat(queue.offer(big, 0, 1, 0, 1)).isTrue();
            drainAll(queue);
            assertThat(queue.offer(big, 0, big.length, 0, 1)).as("shift %d", shift).isTrue();
            assertThat(concatenate(drainAll(queue))).containsExactly(big);
        }
    }

    @Test
    void oneProducerAndOneConsumerExchangeEveryKeyOnceInOrder() throws InterruptedException {
        IntentQueue queue = new IntentQueue(1 << 12);
        int calls = 50_000;
        int maxCount = 2 * queue.keysPerRecord() + 3;
        Concurrently.run(2, Duration.ofMinutes(2), thread -> {
            if (thread == 0) {
                long[] buffer = new long[maxCount];
                for (int call = 0; call < calls; call++) {
                    int count = 1 + call % maxCount;
                    for (int i = 0; i < count; i++) {
                        buffer[i] = (long) call << 20 | i;
                    }
                    while (!queue.offer(buffer, 0, count, call, call + 1 + call % 3)) {
                        Thread.yield(); // the queue is full: let the consumer run
                    }
                }
            } else {
                long[] expect = {0, 0}; // {call, next key index within it}
                IntentSink sink = (buf, keysOffset, count, from, to) -> {
                    if (from != expect[0] || to != from + 1 + from % 3) {
                        throw new AssertionError("call " + expect[0] + ": got clocks [" + from + ", " + to + ")");
                    }
                    for (int i = 0; i < count; i++) {
                        long key = buf.getLong(keysOffset + i * Long.BYTES);
                        if (key != (expect[0] << 20 | expect[1])) {
                            throw new AssertionError("call " + expect[0] + " key " + expect[1] + ": got " + key);
                        }
                        expect[1]++;
                    }
                    if (expect[1] == 1 + expect[0] % maxCount) {
                        expect[0]++;
                        expect[1] = 0;
                    }
                };
                while (expect[0] < calls) {
                    if (queue.drain(sink, 64) == 0) {
                        Thread.yield();
                    }
                }
                assertThat(queue.isEmpty()).isTrue();
            }
        });
    }
}
