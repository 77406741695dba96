package io.adaps.transport.jvm;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;

/**
 * One node of {@link ClusterSumsIT}, a JVM of its own with {@code ADAPS_*} in its environment.
 *
 * <p>{@value #WORKERS} threads each push {@value #ROUNDS} batches of {@value #BATCH} rows of ones to
 * table {@value #TABLE}, whose rows are spread over all nodes (range partitioning): every batch
 * crosses nodes and the workers of all nodes hit overlapping rows; every other push is
 * asynchronous. After each push the worker pulls another batch and checks every value: all
 * components equal (a push adds to all of them at once, so a torn read would differ) and a whole
 * number between 0 and the row's final count. After {@code waitAll} and a barrier, the node pulls
 * every row and compares it with the counts it computes itself.
 *
 * <p>Prints {@code sums exact: rows=R total=T} (or the first mismatches) and
 * {@code pulled V values, torn or impossible I}, then exits 0 if all was well, else 1.
 */
public final class SumsNode {
    static final String TABLE = "counts";
    static final int ROWS = 999;
    static final int VALUE_LENGTH = 8;
    static final int WORKERS = 2;
    static final int ROUNDS = 1_000;
    static final int BATCH = 24;

    private SumsNode() {
    }

    /** The row of the {@code j}-th id of batch {@code round} of a worker: strides over every node's rows. */
    static int row(int node, int worker, int round, int j) {
        return (node * 1009 + worker * 131 + round * 17 + j * 37) % ROWS;
    }

    /** Every row's final count on a cluster of {@code nodes} nodes. */
    static long[] expectedCounts(int nodes) {
        long[] counts = new long[ROWS];
        for (int node = 0; node < nodes; node++) {
            for (int worker = 0; worker < WORKERS; worker++) {
                for (int round = 0; round < ROUNDS; round++) {
                    for (int j = 0; j < BATCH; j++) {
                        counts[row(node, worker, round, j)]++;
                    }
                }
            }
        }
        return counts;
    }

    /** Runs the node; exits 0 if every check passed. */
    public static void main(String[] args) {
        ChildMain.exitWith(() -> run());
    }

    private static int run() throws InterruptedException {
        try (AdaPS node = AdaPS.builder().fromEnvironment()
                .table(TableSpec.of(TABLE, ROWS, VALUE_LENGTH))
                .heartbeatInterval(Duration.ofMillis(200))
                .failureTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(20))
                .build()) {
            long[] expected = expectedCounts(node.clusterSize());
            AtomicLong pulled = new AtomicLong();
            AtomicLong bad = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] threads = new Thread[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                Worker worker = node.worker();
                int workerIndex = w;
                threads[w] = new Thread(() -> {
                    try {
                        work(node.nodeId(), workerIndex, worker, expected, pulled, bad);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "sums-worker-" + w);
                threads[w].start();
            }
            for (Thread thread : threads) {
                thread.join(60_000);
                if (thread.isAlive()) {
                    throw new IllegalStateException(thread.getName() + " did not finish within 60 s");
                }
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a worker failed", failure.get());
            }
            node.barrier();
            boolean exact = checkSums(node, expected);
            System.out.println("pulled " + pulled.get() + " values, torn or impossible " + bad.get());
            System.out.println("remote pushes " + node.metrics().remotePushes() + ", remote pulls "
                    + node.metrics().remotePulls());
            node.barrier();
            return exact && bad.get() == 0 ? 0 : 1;
        }
    }

    private static void work(int node, int workerIndex, Worker worker, long[] expected, AtomicLong pulled,
                             AtomicLong bad) {
        float[] ones = new float[BATCH * VALUE_LENGTH];
        Arrays.fill(ones, 1f);
        long[] keys = new long[BATCH];
        long[] readKeys = new long[BATCH];
        float[] read = new float[BATCH * VALUE_LENGTH];
        for (int round = 0; round < ROUNDS; round++) {
            for (int j = 0; j < BATCH; j++) {
                keys[j] = row(node, workerIndex, round, j);
                readKeys[j] = row(node + 1, workerIndex, round + 3, j);
            }
            if (round % 2 == 0) {
                worker.push(keys, ones);
            } else {
                worker.pushAsync(keys, 0, BATCH, ones, 0);
            }
            worker.pull(readKeys, read);
            for (int j = 0; j < BATCH; j++) {
                if (!isWhole(read, j * VALUE_LENGTH, expected[(int) readKeys[j]])) {
                    bad.incrementAndGet();
                }
            }
            pulled.addAndGet(BATCH);
        }
        worker.waitAll();
    }

    /** Whether the value at {@code offset} has equal, whole components in {@code [0, max]}. */
    private static boolean isWhole(float[] values, int offset, long max) {
        float first = values[offset];
        for (int i = 1; i < VALUE_LENGTH; i++) {
            if (values[offset + i] != first) {
                return false;
            }
        }
        return first == Math.rint(first) && first >= 0 && first <= max;
    }

    private static boolean checkSums(AdaPS node, long[] expected) {
        long[] ids = new long[ROWS];
        for (int row = 0; row < ROWS; row++) {
            ids[row] = row;
        }
        float[] values = new float[ROWS * VALUE_LENGTH];
        node.worker().pull(ids, values);
        long total = 0;
        int mismatches = 0;
        for (int row = 0; row < ROWS; row++) {
            for (int i = 0; i < VALUE_LENGTH; i++) {
                if (values[row * VALUE_LENGTH + i] != expected[row] && mismatches++ < 10) {
                    System.out.println("mismatch: row " + row + " component " + i + " is "
                            + values[row * VALUE_LENGTH + i] + " (expected " + expected[row] + ")");
                }
            }
            total += (long) values[row * VALUE_LENGTH];
        }
        if (mismatches == 0) {
            System.out.println("sums exact: rows=" + ROWS + " total=" + total);
        }
        return mismatches == 0;
    }
}
