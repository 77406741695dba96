package io.adaps.transport.jvm;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.adaps.api.AdaPS;
import io.adaps.api.PeerFailedException;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;

/**
 * One node of {@link PeerKillIT}, a JVM of its own with {@code ADAPS_*} in its environment.
 *
 * <p>{@value #WORKERS} threads pull and push batches that touch rows of every node, without pause,
 * until an operation fails (or {@value #MAX_SECONDS} s pass). The node prints {@code running} once
 * every worker has done {@value #WARM_UP} batches, then, per worker, what stopped it:
 * {@code worker W saw PeerFailedException peer=P: message} or {@code worker W saw ...}. It then
 * waits until its stdin ends (the test closes it) before it closes the node, so that the survivors
 * of a failure do not leave while another survivor still works, and exits 0 if every worker saw a
 * {@link PeerFailedException}, else 1.
 */
public final class ChurnNode {
    static final int WORKERS = 2;
    static final int ROWS = 300;
    static final int WARM_UP = 50;
    private static final int VALUE_LENGTH = 4;
    private static final int BATCH = 12;
    private static final int MAX_SECONDS = 60;

    private ChurnNode() {
    }

    /** Runs the node; exits 0 if every worker was stopped by a failed peer. */
    public static void main(String[] args) {
        ChildMain.exitWith(() -> run());
    }

    private static int run() throws InterruptedException, IOException {
        try (AdaPS node = AdaPS.builder().fromEnvironment()
                .table(TableSpec.of("churn", ROWS, VALUE_LENGTH))
                .heartbeatInterval(Duration.ofMillis(200))
                .failureTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(10))
                .build()) {
            node.barrier();
            CountDownLatch warm = new CountDownLatch(WORKERS);
            AtomicReferenceArray<Throwable> stops = new AtomicReferenceArray<>(WORKERS);
            Thread[] threads = new Thread[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                Worker worker = node.worker();
                int index = w;
                threads[w] = new Thread(() -> stops.set(index, churn(worker, index, warm)), "churn-worker-" + w);
                threads[w].start();
            }
            if (warm.await(MAX_SECONDS, TimeUnit.SECONDS)) {
                System.out.println("running");
            }
            boolean allSawPeerFailure = true;
            for (int w = 0; w < WORKERS; w++) {
                threads[w].join(TimeUnit.SECONDS.toMillis(MAX_SECONDS + 10));
                Throwable stop = stops.get(w);
                if (stop instanceof PeerFailedException failure) {
                    System.out.println("worker " + w + " saw PeerFailedException peer=" + failure.peer() + ": "
                            + failure.getMessage());
                } else {
                    allSawPeerFailure = false;
                    System.out.println("worker " + w + " saw " + stop);
                }
            }
            System.out.flush();
            while (System.in.read() >= 0) {
                // Wait for the test to close stdin.
            }
            return allSawPeerFailure ? 0 : 1;
        }
    }

    /** Pulls and pushes until an operation fails; returns the failure (or null after the time limit). */
    private static Throwable churn(Worker worker, int index, CountDownLatch warm) {
        long[] keys = new long[BATCH];
        float[] values = new float[BATCH * VALUE_LENGTH];
        float[] ones = new float[BATCH * VALUE_LENGTH];
        Arrays.fill(ones, 1f);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
        try {
            for (int batch = 0; System.nanoTime() < end; batch++) {
                for (int j = 0; j < BATCH; j++) {
                    keys[j] = (batch * 7 + j * 25 + index * 3) % ROWS;
                }
                worker.pull(keys, values);
                worker.push(keys, ones);
                if (batch == WARM_UP) {
                    warm.countDown();
                }
            }
            return null;
        } catch (Throwable e) {
            return e;
        }
    }
}
