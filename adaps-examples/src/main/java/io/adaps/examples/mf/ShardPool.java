package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNonNegative;
import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fixed set of long-lived threads that split a range of work into contiguous shares, one share
 * per thread, or each run a task of their own ({@link #onEveryThread}).
 *
 * <p>Thread {@code t} always runs share {@code t} on the same thread, for every call: AdaPS workers
 * bind to the first thread that uses them, so a training thread's worker (and its buffers) can be
 * created once and reused for every epoch. Each thread is a single-thread executor; the calling
 * thread only waits. Shares are {@code [t * size / threads, (t + 1) * size / threads)}
 * ({@link #shareStart}), so they differ in size by at most one.
 */
public final class ShardPool implements AutoCloseable {
    /** The work of one share. */
    @FunctionalInterface
    public interface ShareTask {
        /**
         * Processes {@code [from, to)} on thread {@code thread}.
         *
         * @return a partial result; {@link #run} sums them
         */
        double run(int thread, int from, int to);
    }

    /** The work of one thread. */
    @FunctionalInterface
    public interface ThreadTask {
        /**
         * Does thread {@code thread}'s work.
         *
         * @return a partial result; {@link #onEveryThread} sums them
         */
        double run(int thread);
    }

    private final ExecutorService[] executors;

    /**
     * Starts {@code threads} daemon threads named {@code name-0}, {@code name-1}, ...
     *
     * @throws IllegalArgumentException if {@code threads <= 0}
     */
    public ShardPool(int threads, String name) {
        checkPositive(threads, "threads");
        checkNotNull(name, "name");
        this.executors = new ExecutorService[threads];
        for (int t = 0; t < threads; t++) {
            String threadName = name + "-" + t;
            executors[t] = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, threadName);
                thread.setDaemon(true);
                return thread;
            });
        }
    }

    /** The number of threads, and so of shares. */
    public int threads() {
        return executors.length;
    }

    /**
     * Where share {@code share} of {@code size} items cut into {@code shares} shares starts; share
     * {@code share} is {@code [shareStart(share, ...), shareStart(share + 1, ...))}.
     */
    public static int shareStart(int share, int size, int shares) {
        return (int) ((long) share * size / shares);
    }

    /**
     * Runs {@code task} on every share of {@code [0, size)} in parallel and returns the sum of the
     * shares' results, as {@link #onEveryThread} does.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool is closed
     */
    public double run(int size, ShareTask task) {
        checkNonNegative(size, "size");
        checkNotNull(task, "task");
        int threads = executors.length;
        return onEveryThread(thread -> task.run(thread, shareStart(thread, size, threads),
                shareStart(thread + 1, size, threads)));
    }

    /**
     * Runs {@code task} once on every thread in parallel and returns the sum of the results.
     * Returns only when every thread has finished, also when one fails or the caller is
     * interrupted (the interrupt status is kept), so no task still runs afterwards.
     *
     * @throws RuntimeException the first failure of a thread (errors as they are, checked
     *                          exceptions wrapped in {@link IllegalStateException})
     * @throws java.util.concurrent.RejectedExecutionException if the pool is closed
     */
    public double onEveryThread(ThreadTask task) {
        checkNotNull(task, "task");
        List<Future<Double>> results = new ArrayList<>(executors.length);
        for (int t = 0; t < executors.length; t++) {
            int thread = t;
            results.add(executors[t].submit(() -> task.run(thread)));
        }
        double sum = 0;
        Throwable failure = null;
        for (Future<Double> result : results) {
            try {
                sum += waitFor(result);
            } catch (ExecutionException e) {
                failure = failure == null ? e.getCause() : failure;
            }
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        } else if (failure instanceof Error error) {
            throw error;
        } else if (failure != null) {
            throw new IllegalStateException("a task failed", failure);
        }
        return sum;
    }

    /** Waits for {@code result}, through interrupts. */
    private static double waitFor(Future<Double> result) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the threads after the work they have started. Idempotent. */
    @Override
    public void close() {
        for (ExecutorService executor : executors) {
            executor.shutdown();
        }
    }
}
