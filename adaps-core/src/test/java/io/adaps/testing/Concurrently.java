package io.adaps.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a test body on several threads at once and reports the first failure. */
public final class Concurrently {
    /** What each thread runs, given its index. */
    @FunctionalInterface
    public interface Body {
        void run(int thread) throws Exception;
    }

    private Concurrently() {
    }

    /** {@link #run(int, Duration, Body)} with a bound of 5 minutes. */
    public static void run(int threads, Body body) throws InterruptedException {
        run(threads, Duration.ofMinutes(5), body);
    }

    /**
     * Runs {@code body} on {@code threads} threads released together, waits for all (at most
     * {@code bound} in all), and throws an {@link AssertionError} caused by the first failure, or
     * if a thread is still running.
     */
    public static void run(int threads, Duration bound, Body body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    body.run(index);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "test-thread-" + t);
            started.add(thread);
            thread.start();
        }
        start.countDown();
        long deadline = System.nanoTime() + bound.toNanos();
        List<String> running = new ArrayList<>();
        for (Thread thread : started) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (thread.isAlive()) {
                running.add(thread.getName());
            }
        }
        // A failed thread often leaves the others waiting for it: its failure says more.
        if (failure.get() != null) {
            throw new AssertionError("a test thread failed" + (running.isEmpty() ? "" : " (still running: " + running + ")")
                    + ": " + failure.get(), failure.get());
        }
        assertThat(running).as("threads still running after %s", bound).isEmpty();
    }
}
