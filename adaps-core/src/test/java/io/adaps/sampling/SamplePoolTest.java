package io.adaps.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;

import io.adaps.api.AliasTable;
import io.adaps.api.KeyDistribution;
import io.adaps.api.UniformKeys;
import io.adaps.testing.ChiSquare;
import io.adaps.testing.Concurrently;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/** The pool's reuse bound, its marginal distribution, its refills and its validation. */
class SamplePoolTest {
    private static final double[] WEIGHTS = {10, 1, 3, 7, 2, 5, 9, 4, 6, 8};

    /**
     * A distribution that never repeats a key (keys count up), so that a key's number of
     * appearances is the number of times one pool entry (or one fallback draw) was handed out.
     */
    private static final class Unique implements KeyDistribution {
        private final AtomicLong next = new AtomicLong();

        @Override
        public long draw(SplittableRandom random) {
            return next.getAndIncrement();
        }

        @Override
        public double probability(long key) {
            return 0;
        }

        @Override
        public long size() {
            return Long.MAX_VALUE;
        }
    }

    @Test
    void eachEntryIsHandedOutExactlyReuseTimesWhenRefillsKeepUp() {
        SamplePool pool = new SamplePool(new Unique(), Long.MAX_VALUE, 64, 3, 1);
        SplittableRandom random = new SplittableRandom(2);
        Long2IntOpenHashMap uses = new Long2IntOpenHashMap();
        long[] sample = new long[10];
        int fallbacks = 0;
        int samples = 64 * 3 * 20 / 10; // 20 whole generations
        for (int s = 0; s < samples; s++) {
            long ticket = pool.claim(sample.length);
            fallbacks += pool.fill(ticket, random, sample, 0, sample.length);
            if (pool.needsRefill(ticket + sample.length - 1)) {
                assertThat(pool.refill(SamplePool.IGNORE)).isTrue();
            }
            for (long key : sample) {
                uses.addTo(key, 1);
            }
        }
        assertThat(fallbacks).isZero();
        assertThat(uses).hasSize(64 * 20);
        assertThat(uses.values().intStream().distinct().toArray()).containsExactly(3);
        assertThat(pool.refills()).isEqualTo(21); // the first two, then one per generation started
    }

    @Test
    void aSampleWithinOneRoundHoldsDistinctEntries() {
        SamplePool pool = new SamplePool(new Unique(), Long.MAX_VALUE, 256, 4, 3);
        long[] sample = new long[256];
        for (int round = 0; round < 4; round++) {
            pool.fill(pool.claim(256), new SplittableRandom(4), sample, 0, 256);
            assertThat(java.util.Arrays.stream(sample).distinct().count()).isEqualTo(256);
        }
    }

    @Test
    void roundsHandOutTheEntriesInDifferentOrders() {
        SamplePool pool = new SamplePool(new Unique(), Long.MAX_VALUE, 64, 2, 5);
        long[] first = new long[64];
        long[] second = new long[64];
        pool.fill(pool.claim(64), new SplittableRandom(6), first, 0, 64);
        pool.fill(pool.claim(64), new SplittableRandom(6), second, 0, 64);
        assertThat(second).containsExactlyInAnyOrder(first).isNotEqualTo(first);
    }

    @Test
    void lateRefillsBecomeFallbackDrawsAndTheBoundHolds() {
        SamplePool pool = new SamplePool(new Unique(), Long.MAX_VALUE, 16, 2, 7);
        SplittableRandom random = new SplittableRandom(8);
        long[] keys = new long[16 * 2 * 3];
        // Nobody refills: generations 0 and 1 come from the pool, generation 2 falls back.
        int fallbacks = pool.fill(pool.claim(keys.length), random, keys, 0, keys.length);
        assertThat(fallbacks).isEqualTo(32);
        Long2IntOpenHashMap uses = new Long2IntOpenHashMap();
        for (long key : keys) {
            uses.addTo(key, 1);
        }
        assertThat(uses.values().intStream().max().getAsInt()).isEqualTo(2);
        assertThat(uses).hasSize(16 + 16 + 32);
    }

    /**
     * Workers claim and fill concurrently while a refiller thread (standing in for the adaptive
     * manager) and the workers themselves (as without a manager) refill: no key is ever handed
     * out more than the reuse bound, however the threads interleave.
     */
    @Test
    void theReuseBoundHoldsUnderConcurrentClaimsAndRefills() throws InterruptedException {
        int reuse = 3;
        SamplePool pool = new SamplePool(new Unique(), Long.MAX_VALUE, 32, reuse, 9);
        int threads = 3;
        int samplesPerThread = 20_000;
        int n = 7;
        long[][] seen = new long[threads][samplesPerThread * n];
        AtomicBoolean done = new AtomicBoolean();
        AtomicLongArray fallbacks = new AtomicLongArray(threads);
        Thread refiller = new Thread(() -> {
            while (!done.get()) {
                if (pool.needsRefill()) {
                    pool.refill(SamplePool.IGNORE);
                }
                Thread.onSpinWait();
            }
        });
        refiller.start();
        try {
            Concurrently.run(threads, Duration.ofMinutes(1), t -> {
                SplittableRandom random = new SplittableRandom(100 + t);
                for (int s = 0; s < samplesPerThread; s++) {
                    long ticket = pool.claim(n);
                    fallbacks.addAndGet(t, pool.fill(ticket, random, seen[t], s * n, n));
                    if (t == 0 && pool.needsRefill(ticket + n - 1)) {
                        pool.refill(SamplePool.IGNORE);
                    }
                }
            });
        } finally {
            done.set(true);
            refiller.join();
        }
        Long2IntOpenHashMap uses = new Long2IntOpenHashMap();
        for (long[] keys : seen) {
            for (long key : keys) {
                uses.addTo(key, 1);
            }
        }
        assertThat(uses.values().intStream().max().getAsInt()).isLessThanOrEqualTo(reuse);
        long total = (long) threads * samplesPerThread * n;
        long fromPool = total - (fallbacks.get(0) + fallbacks.get(1) + fallbacks.get(2));
        assertThat(fromPool).as("keys handed out from the pool").isPositive();
    }

    /**
     * The marginal distribution: over whole generations handed out without fallbacks, every entry
     * appears exactly {@code reuse} times, so the bin counts are {@code reuse} times the counts of
     * the generations' independent draws and the chi-square statistic is {@code reuse} times
     * theirs. Divided by {@code reuse}, it follows the chi-square distribution of independent draws.
     */
    @Test
    void handedOutKeysFollowTheDistribution() {
        AliasTable table = AliasTable.ofWeights(WEIGHTS);
        int size = 1024;
        int reuse = 4;
        SamplePool pool = new SamplePool(table, WEIGHTS.length, size, reuse, 11);
        SplittableRandom random = new SplittableRandom(12);
        long[] observed = new long[ChiSquare.BINS];
        long[] sample = new long[64];
        int generations = 40;
        int fallbacks = 0;
        for (int s = 0; s < generations * size * reuse / sample.length; s++) {
            long ticket = pool.claim(sample.length);
            fallbacks += pool.fill(ticket, random, sample, 0, sample.length);
            if (pool.needsRefill(ticket + sample.length - 1)) {
                pool.refill(SamplePool.IGNORE);
            }
            for (long key : sample) {
                observed[(int) key]++;
            }
        }
        assertThat(fallbacks).isZero();
        double[] p = new double[ChiSquare.BINS];
        for (int k = 0; k < p.length; k++) {
            p[k] = table.probability(k);
        }
        double statistic = ChiSquare.statistic(observed, p);
        System.out.printf("SamplePool marginal: chi-square %.2f / reuse %d = %.2f (9 df, critical %.3f)%n", statistic,
                reuse, statistic / reuse, ChiSquare.CRITICAL_9_DF);
        assertThat(statistic / reuse).isLessThan(ChiSquare.CRITICAL_9_DF);
    }

    @Test
    void theListenerHearsEveryEntryComeAndGo() {
        SamplePool pool = new SamplePool(AliasTable.ofWeights(WEIGHTS), WEIGHTS.length, 16, 1, 13);
        Long2IntOpenHashMap entries = new Long2IntOpenHashMap();
        pool.forEachEntry(key -> entries.addTo(key, 1));
        SamplePool.Listener listener = new SamplePool.Listener() {
            @Override
            public void entered(long row) {
                entries.addTo(row, 1);
            }

            @Override
            public void left(long row) {
                assertThat(entries.addTo(row, -1)).as("entries of %d before it left", row).isPositive();
                if (entries.get(row) == 0) {
                    entries.remove(row);
                }
            }
        };
        long[] sample = new long[16];
        long first = pool.claim(16);
        pool.fill(first, new SplittableRandom(99), sample, 0, 16);
        assertThat(pool.needsRefill(first + 15)).as("generation 1 was drawn with the pool").isFalse();
        for (int g = 0; g < 10; g++) {
            long ticket = pool.claim(16);
            pool.fill(ticket, new SplittableRandom(g), sample, 0, 16);
            assertThat(pool.needsRefill(ticket + 15)).isTrue();
            assertThat(pool.refill(listener)).isTrue();
            assertThat(pool.needsRefill(ticket + 15)).isFalse();
            assertThat(pool.refill(listener)).as("a second refill of the same generation").isFalse();
        }
        Long2IntOpenHashMap now = new Long2IntOpenHashMap();
        pool.forEachEntry(key -> now.addTo(key, 1));
        assertThat(entries).isEqualTo(now);
        assertThat(now.values().intStream().sum()).isEqualTo(32);
    }

    @Test
    void aDistributionDrawingOutsideTheTableIsRefusedAndTheBufferKept() {
        assertThatThrownBy(() -> new SamplePool(new UniformKeys(0, 20), 10, 16, 2, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("drew row").hasMessageContaining("(expected 0..9)");
        KeyDistribution flaky = new KeyDistribution() {
            private int draws;

            @Override
            public long draw(SplittableRandom random) {
                return ++draws > 40 ? 99 : draws % 10;
            }

            @Override
            public double probability(long key) {
                return 0.1;
            }

            @Override
            public long size() {
                return 10;
            }
        };
        SamplePool pool = new SamplePool(flaky, 10, 16, 1, 1);
        Long2IntOpenHashMap before = new Long2IntOpenHashMap();
        pool.forEachEntry(key -> before.addTo(key, 1));
        pool.fill(pool.claim(32), new SplittableRandom(1), new long[32], 0, 32);
        assertThatThrownBy(() -> pool.refill(SamplePool.IGNORE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("drew row 99");
        Long2IntOpenHashMap after = new Long2IntOpenHashMap();
        pool.forEachEntry(key -> after.addTo(key, 1));
        assertThat(after).isEqualTo(before);
        assertThat(pool.needsRefill()).as("still due after the failed refill").isTrue();
    }

    @Test
    void sizesAndReuseBoundsAreValidated() {
        UniformKeys keys = new UniformKeys(0, 10);
        assertThatThrownBy(() -> new SamplePool(keys, 10, 100, 2, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolSize=100 (expected a power of two in 16..1048576)");
        assertThatThrownBy(() -> new SamplePool(keys, 10, 8, 2, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolSize=8 (expected a power of two in 16..1048576)");
        assertThatThrownBy(() -> new SamplePool(keys, 10, 16, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolReuse=0 (expected 1..1024)");
        assertThatThrownBy(() -> new SamplePool(keys, 10, 16, 1025, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolReuse=1025 (expected 1..1024)");
        assertThatThrownBy(() -> new SamplePool(null, 10, 16, 1, 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("distribution=null (expected a value)");
    }
}
