package io.adaps.transport.jvm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.adaps.api.AdaPS;
import io.adaps.api.Worker;

/**
 * The common parts of the test node processes: their exit ({@link #exitWith}) and their worker
 * threads ({@link #runWorkers}).
 */
final class ChildMain {
    /** Starts the line a worker prints to stderr as soon as it fails (see {@link NodeJvms#run}). */
    static final String FAILURE = "FAILURE";

    private ChildMain() {
    }

    /** The end of a test node process: its exit code is what {@code body} returns, or 1 if it throws. */
    static void exitWith(Callable<Integer> body) {
        int code;
        try {
            code = body.call();
        } catch (Throwable e) {
            e.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }

    /** The work of one worker thread. */
    @FunctionalInterface
    interface WorkerBody<T> {
        T run(int index, Worker worker) throws Exception;
    }

    /**
     * Creates {@code workers} workers of {@code node} (in index order, on this thread), runs
     * {@code body} for each on a thread of its own and returns their results in index order. A
     * worker that throws prints {@code FAILURE of worker W: ...} to stderr at once (before the node
     * closes: the tests order the nodes' failures by this line).
     *
     * @throws IllegalStateException naming the first worker that failed (with its exception as the
     *                               cause) or did not finish within {@code timeout} (with its stack)
     */
    static <T> List<T> runWorkers(AdaPS node, int workers, String name, Duration timeout, WorkerBody<T> body)
            throws InterruptedException {
        AtomicReferenceArray<Object> results = new AtomicReferenceArray<>(workers);
        Thread[] threads = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            Worker worker = node.worker();
            int index = w;
            threads[w] = new Thread(() -> {
                try {
                    results.set(index, body.run(index, worker));
                } catch (Throwable e) {
                    System.err.println(FAILURE + " of worker " + index + ": " + e);
                    results.set(index, e);
                }
            }, name + "-" + w);
            threads[w].start();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<T> done = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            threads[w].join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (threads[w].isAlive()) {
                throw new IllegalStateException("worker " + w + " of node " + node.nodeId() + " did not finish within "
                        + timeout.toSeconds() + " s; its stack:\n" + stack(threads[w]));
            }
            Object result = results.get(w);
            if (result instanceof Throwable failure) {
                throw new IllegalStateException("worker " + w + " of node " + node.nodeId() + " failed: " + failure,
                        failure);
            }
            @SuppressWarnings("unchecked")
            T value = (T) result;
            done.add(value);
        }
        return done;
    }

    /**
     * The count in the value of {@code key} at {@code values[offset .. offset + valueLength)}: all
     * components equal (a push of ones adds to all at once, so a torn read would differ) and a
     * whole number >= 0.
     *
     * @throws IllegalStateException describing the value otherwise
     */
    static long wholeCount(float[] values, int offset, int valueLength, long key) {
        float first = values[offset];
        for (int i = 1; i < valueLength; i++) {
            if (values[offset + i] != first) {
                throw new IllegalStateException("key " + key + " pulled torn: "
                        + Arrays.toString(Arrays.copyOfRange(values, offset, offset + valueLength)));
            }
        }
        if (first != Math.rint(first) || first < 0) {
            throw new IllegalStateException("key " + key + " pulled " + first + " (expected a whole count >= 0)");
        }
        return (long) first;
    }

    private static String stack(Thread thread) {
        StringBuilder text = new StringBuilder();
        for (StackTraceElement element : thread.getStackTrace()) {
            text.append("    at ").append(element).append('\n');
        }
        return text.toString();
    }
}
