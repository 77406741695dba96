package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fixed set of long-lived threads that split a range of work into contiguous shares, one share
 * per thread.
 *
 * <p>Thread {@code t} always runs share {@code t} on the same thread, for every call: AdaPS workers
 * bind to the first thread that uses them, so a training thread's worker (and its buffers) can be
 * created once and reused for every epoch. Each thread is a single-thread executor; the calling
 * thread only waits. Shares are {@code [t * size / threads, (t + 1) * size / threads)}, so they
 * differ in size by at most one.
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

    /**
     * Runs {@code task} on every share of {@code [0, size)} in parallel and returns the sum of the
     * shares' results. Returns only when every share has finished, also when one fails or the
     * caller is interrupted (the interrupt status is kept), so no share still runs afterwards.
     *
     * @throws RuntimeException the first failure of a share (errors as they are, checked exceptions
     *                          wrapped in {@link IllegalStateException})
     * @throws java.util.concurrent.RejectedExecutionException if the pool is closed
     */
    public double run(int size, ShareTask task) {
        checkNonNegative(size, "size");
        checkNotNull(task, "task");
        int threads = executors.length;
        List<Future<Double>> shares = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            int from = (int) ((long) t * size / threads);
            int to = (int) ((long) (t + 1) * size / threads);
            shares.add(executors[t].submit(() -> task.run(thread, from, to)));
        }
        double sum = 0;
        Throwable failure = null;
        for (Future<Double> share : shares) {
            try {
                sum += waitFor(share);
            } catch (ExecutionException e) {
                failure = failure == null ? e.getCause() : failure;
            }
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        } else if (failure instanceof Error error) {
            throw error;
        } else if (failure != null) {
            throw new IllegalStateException("a share failed", failure);
        }
        return sum;
    }

    /** Waits for {@code share}, through interrupts. */
    private static double waitFor(Future<Double> share) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return share.get();
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
