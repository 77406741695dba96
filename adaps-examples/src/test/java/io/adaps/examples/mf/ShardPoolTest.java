package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

class ShardPoolTest {
    @Test
    void sharesCoverTheRangeOnceInNearlyEqualPartsAndSumTheResults() {
        try (ShardPool pool = new ShardPool(3, "test")) {
            AtomicIntegerArray visits = new AtomicIntegerArray(10);
            int[] shareSizes = new int[3];
            double sum = pool.run(10, (thread, from, to) -> {
                shareSizes[thread] = to - from;
                for (int i = from; i < to; i++) {
                    visits.incrementAndGet(i);
                }
                return to - from;
            });
            assertThat(sum).isEqualTo(10.0);
            assertThat(shareSizes).containsExactly(3, 3, 4);
            for (int i = 0; i < 10; i++) {
                assertThat(visits.get(i)).isEqualTo(1);
            }
        }
    }

    @Test
    void everyThreadRunsItsTaskOnceAndTheResultsAreSummed() {
        try (ShardPool pool = new ShardPool(3, "every")) {
            AtomicIntegerArray runs = new AtomicIntegerArray(3);
            assertThat(pool.onEveryThread(thread -> {
                runs.incrementAndGet(thread);
                return thread + 1;
            })).isEqualTo(6.0);
            for (int thread = 0; thread < 3; thread++) {
                assertThat(runs.get(thread)).isEqualTo(1);
            }
            assertThat(pool.threads()).isEqualTo(3);
        }
        assertThat(ShardPool.shareStart(0, 10, 3)).isZero();
        assertThat(ShardPool.shareStart(2, 10, 3)).isEqualTo(6);
        assertThat(ShardPool.shareStart(3, 10, 3)).isEqualTo(10);
    }

    @Test
    void runsEachShareOnTheSameThreadEveryTime() {
        try (ShardPool pool = new ShardPool(2, "same")) {
            ConcurrentHashMap<Integer, Thread> first = new ConcurrentHashMap<>();
            pool.run(100, (thread, from, to) -> {
                first.put(thread, Thread.currentThread());
                return 0;
            });
            for (int run = 0; run < 5; run++) {
                pool.run(100, (thread, from, to) -> {
                    assertThat(Thread.currentThread()).isSameAs(first.get(thread));
                    return 0;
                });
            }
            assertThat(first.get(0)).isNotSameAs(first.get(1));
            assertThat(first.get(1).getName()).isEqualTo("same-1");
        }
    }

    @Test
    void rethrowsAFailureAfterEveryShareHasFinished() {
        try (ShardPool pool = new ShardPool(2, "fail")) {
            AtomicIntegerArray finished = new AtomicIntegerArray(2);
            assertThatThrownBy(() -> pool.run(2, (thread, from, to) -> {
                if (thread == 0) {
                    throw new IllegalArgumentException("share 0 broke");
                }
                // Share 1 works on for 50 ms, so that share 0 fails while it still runs.
                long until = System.nanoTime() + 50_000_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                finished.set(thread, 1);
                return 0;
            })).isInstanceOf(IllegalArgumentException.class).hasMessage("share 0 broke");
            assertThat(finished.get(1)).isEqualTo(1);
            // The pool still works.
            assertThat(pool.run(4, (thread, from, to) -> to - from)).isEqualTo(4.0);
        }
    }

    @Test
    void refusesWorkWhenClosedAndBadArguments() {
        ShardPool pool = new ShardPool(1, "closed");
        pool.close();
        assertThatThrownBy(() -> pool.run(1, (thread, from, to) -> 0)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> new ShardPool(0, "none")).hasMessage("threads=0 (expected > 0)");
    }
}
