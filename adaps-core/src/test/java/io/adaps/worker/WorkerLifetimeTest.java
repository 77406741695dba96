package io.adaps.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics.Counter;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.cluster.TestCluster;
import io.adaps.testing.Concurrently;

/**
 * Issue 12: workers can be closed, and a node serves any number of worker lifetimes. A program
 * that handed out a new worker per round used to fail after 255 intent-signalling workers.
 */
class WorkerLifetimeTest {
    private static final AtomicInteger PORTS = new AtomicInteger(40_000);
    private static final int ROWS = 64;
    private static final int WIDTH = 4;

    @Test
    void aClusterServesTenThousandWorkerLifetimesWhileOthersTrainAndNoUpdateIsLost() throws Exception {
        int nodes = 2;
        int lifetimesPerNode = 5_000;
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            addresses.add("injvm:" + PORTS.getAndIncrement());
        }
        InJvmNetwork network = new InJvmNetwork();
        try (TestCluster cluster = new TestCluster(nodes, addresses, i -> new InJvmTransport(network),
                b -> b.table(TableSpec.of("t", ROWS, WIDTH)).technique(Technique.ADAPTIVE))) {
            AtomicLongArray pushes = new AtomicLongArray(ROWS);
            AtomicBoolean churning = new AtomicBoolean(true);
            AtomicInteger churnersDone = new AtomicInteger();
            AtomicLong highestId = new AtomicLong();
            // Per node: thread 0 trains with one worker for the whole run, thread 1 churns workers.
            Concurrently.run(2 * nodes, Duration.ofMinutes(4), t -> {
                AdaPS node = cluster.node(t / 2);
                SplittableRandom random = new SplittableRandom(t);
                if (t % 2 == 0) {
                    try (Worker trainer = node.worker()) {
                        while (churning.get()) {
                            pushRandomRows(trainer, random, pushes, 8);
                        }
                        trainer.waitSync();
                    }
                } else {
                    for (int life = 0; life < lifetimesPerNode; life++) {
                        Worker worker = node.worker();
                        highestId.accumulateAndGet(worker.id(), Math::max);
                        pushRandomRows(worker, random, pushes, 2);
                        worker.close();
                        assertThatThrownBy(() -> worker.pull(0, new float[WIDTH], 0))
                                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
                    }
                    if (churnersDone.incrementAndGet() == nodes) {
                        churning.set(false);
                    }
                }
            });
            Concurrently.run(nodes, n -> {
                try (Worker worker = cluster.node(n).worker()) {
                    worker.waitSync();
                }
                cluster.node(n).barrier();
            });
            float[] values = new float[ROWS * WIDTH];
            long[] rows = new long[ROWS];
            Arrays.setAll(rows, r -> r);
            for (int n = 0; n < nodes; n++) {
                try (Worker reader = cluster.node(n).worker()) {
                    reader.table("t").pull(rows, values);
                    for (int row = 0; row < ROWS; row++) {
                        assertThat(values[row * WIDTH]).as("row %d on node %d", row, n).isEqualTo((float) pushes.get(row));
                    }
                }
                var metrics = cluster.node(n).metrics();
                assertThat(metrics.get(Counter.WORKERS_CREATED)).isEqualTo(lifetimesPerNode + 3L);
                assertThat(metrics.workers()).isZero();
            }
            // Ids are reused: a few live at once, so ids stay small.
            assertThat(highestId.get()).isLessThan(8);
        }
    }

    /** Signals intent for {@code count} random rows in the worker's next clock, pushes 1 to each, advances the clock. */
    private static void pushRandomRows(Worker worker, SplittableRandom random, AtomicLongArray pushes, int count) {
        TableView table = worker.table("t");
        long[] rows = new long[count];
        for (int i = 0; i < count; i++) {
            rows[i] = random.nextInt(ROWS);
        }
        long clock = worker.clock();
        table.intent(rows, clock, clock + 1);
        float[] ones = new float[count * WIDTH];
        Arrays.fill(ones, 1f);
        table.push(rows, ones);
        for (long row : rows) {
            pushes.incrementAndGet((int) row);
        }
        worker.advanceClock();
    }

    @Test
    void aClosedWorkersIdGoesToTheNextWorkerWhoseTicketsContinue() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 4, 1)).build()) {
            Worker first = node.worker();
            long ticket = first.pushAsync(new long[] {0}, 0, 1, new float[] {1f}, 0);
            assertThat(first.isDone(ticket)).isTrue();
            first.close();
            first.close(); // idempotent
            Worker second = node.worker();
            assertThat(second.id()).isEqualTo(first.id());
            long next = second.pushAsync(new long[] {1}, 0, 1, new float[] {1f}, 0);
            assertThat(next).isGreaterThan(ticket);
            assertThatThrownBy(() -> second.waitFor(ticket)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ticket=" + ticket);
            assertThatThrownBy(() -> second.isDone(next + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(node.metrics().get(Counter.LOCAL_PUSHES)).isEqualTo(2);
            second.close();
        }
    }

    @Test
    void onlyTheOwningThreadClosesALiveWorker() throws Exception {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 4, 1)).build()) {
            Worker worker = node.worker();
            worker.pull(0, new float[1], 0); // binds it to this thread
            AtomicReferenceHolder failure = new AtomicReferenceHolder();
            Thread other = new Thread(() -> {
                try {
                    worker.close();
                } catch (RuntimeException e) {
                    failure.value = e;
                }
            });
            other.start();
            other.join();
            assertThat(failure.value).isInstanceOf(IllegalStateException.class).hasMessageContaining("owns worker");
            worker.close();
        }
    }

    /** A plain holder for a failure seen on another thread (join() publishes it). */
    private static final class AtomicReferenceHolder {
        RuntimeException value;
    }
}
