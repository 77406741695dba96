package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Concurrently;

import io.adaps.api.AdaPS;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * Invariants of concurrent access, written once and run at two sizes: quickly as a unit test and
 * long as an integration test. Every thread has its own worker, as the API requires.
 */
abstract class ConcurrencyInvariants {
    /** Threads that write at once. */
    abstract int threads();

    /** Operations per thread. */
    abstract int operations();

    @Test
    void concurrentPushesOnOverlappingKeysLoseNoUpdate() throws Exception {
        int keys = 16;
        int valueLength = 8;
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("hot", keys, valueLength)).build()) {
            // Thread t pushes (t + 1 + i) to component i of a key: batches of 3 keys, single rows
            // and asynchronous batches of 2 in turn. Integer sums below 2^24 are exact in float.
            List<long[]> plans = new ArrayList<>();
            for (int t = 0; t < threads(); t++) {
                SplittableRandom random = new SplittableRandom(t);
                long[] plan = new long[operations() * 3];
                for (int i = 0; i < plan.length; i++) {
                    plan[i] = random.nextInt(keys);
                }
                plans.add(plan);
            }
            Concurrently.run(threads(), t -> {
                Worker worker = node.worker();
                TableView view = worker.table("hot");
                float[] batch = new float[3 * valueLength];
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = t + 1 + i % valueLength;
                }
                long[] plan = plans.get(t);
                for (int op = 0; op < operations(); op++) {
                    switch (op % 3) {
                        case 0 -> worker.push(plan, op * 3, 3, batch, 0);
                        case 1 -> view.push(plan[op * 3], batch, 0);
                        default -> worker.waitFor(view.pushAsync(plan, op * 3, 2, batch, 0));
                    }
                }
            });
            long[][] expected = new long[keys][valueLength];
            long pushes = 0;
            for (int t = 0; t < threads(); t++) {
                long[] plan = plans.get(t);
                for (int op = 0; op < operations(); op++) {
                    int pushed = op % 3 == 0 ? 3 : op % 3 == 1 ? 1 : 2;
                    for (int k = 0; k < pushed; k++) {
                        for (int i = 0; i < valueLength; i++) {
                            expected[(int) plan[op * 3 + k]][i] += t + 1 + i;
                        }
                    }
                    pushes += pushed;
                }
            }
            Worker reader = node.worker();
            float[] value = new float[valueLength];
            for (int key = 0; key < keys; key++) {
                reader.pull(key, value, 0);
                for (int i = 0; i < valueLength; i++) {
                    assertThat(value[i]).as("key %d component %d", key, i).isEqualTo((float) expected[key][i]);
                }
            }
            assertThat(node.metrics().localPushes()).isEqualTo(pushes);
        }
    }

    /**
     * Threads step pairs of a row and a column in place (adding 1 to every component of both) or
     * push 1 to both; each thread also reads and checks that every value it sees has equal
     * components. At the end every unit added is there.
     */
    @Test
    void updatesInPlaceAndPushesLoseNothingAndAreNeverSeenHalfDone() throws Exception {
        int rows = 8;
        int cols = 5;
        int valueLength = 16;
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("rows", rows, valueLength))
                .table(TableSpec.of("cols", cols, valueLength)).build()) {
            InPlaceUpdate addOne = (u, uo, w, wo) -> {
                for (int i = 0; i < valueLength; i++) {
                    u[uo + i] += 1;
                    w[wo + i] += 1;
                }
            };
            AtomicLong stepsInPlace = new AtomicLong();
            Concurrently.run(threads(), t -> {
                Worker worker = node.worker();
                TableView rowView = worker.table("rows");
                TableView colView = worker.table("cols");
                SplittableRandom random = new SplittableRandom(31L * t + 7);
                float[] ones = new float[valueLength];
                java.util.Arrays.fill(ones, 1f);
                float[] value = new float[valueLength];
                for (int op = 0; op < operations(); op++) {
                    int row = random.nextInt(rows);
                    int col = random.nextInt(cols);
                    // Even threads step in place, odd ones push or name the pair the other way round.
                    // A step refused because another thread held a row at that moment is pushed.
                    boolean inPlace;
                    if (t % 2 == 0) {
                        inPlace = rowView.updateInPlace(row, colView, col, addOne);
                    } else {
                        inPlace = op % 2 == 1 && colView.updateInPlace(col, rowView, row, addOne);
                    }
                    if (inPlace) {
                        stepsInPlace.incrementAndGet();
                    } else {
                        rowView.push(row, ones, 0);
                        colView.push(col, ones, 0);
                    }
                    TableView read = op % 2 == 0 ? rowView : colView;
                    read.pull(op % 2 == 0 ? row : col, value, 0);
                    for (int i = 1; i < valueLength; i++) {
                        if (value[i] != value[0]) {
                            throw new AssertionError("half a step seen: component 0 is " + value[0] + ", component "
                                    + i + " is " + value[i]);
                        }
                    }
                }
            });
            assertThat(stepsInPlace.get()).isPositive();
            long expected = (long) threads() * operations();
            Worker reader = node.worker();
            float[] value = new float[valueLength];
            for (String table : new String[] {"rows", "cols"}) {
                long total = 0;
                for (int r = 0; r < (table.equals("rows") ? rows : cols); r++) {
                    reader.table(table).pull(r, value, 0);
                    total += (long) value[valueLength - 1];
                }
                assertThat(total).as("units in table %s", table).isEqualTo(expected);
            }
        }
    }

    @Test
    void readersNeverSeeTornOrDecreasingValues() throws Exception {
        int keys = 4;
        int valueLength = 512;
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("wide", keys, valueLength)).build()) {
            AtomicBoolean writing = new AtomicBoolean(true);
            int writers = Math.max(1, threads() / 2);
            int readers = Math.max(1, threads() - writers);
            CountDownLatch writersDone = new CountDownLatch(writers);
            Concurrently.run(writers + readers, t -> {
                Worker worker = node.worker();
                if (t < writers) {
                    // Pushes add (1, ..., 1), so every consistent state has equal components, and
                    // the value only grows.
                    float[] ones = new float[valueLength];
                    java.util.Arrays.fill(ones, 1f);
                    try {
                        for (int op = 0; op < operations(); op++) {
                            worker.push(op % keys, ones, 0);
                        }
                    } finally {
                        writersDone.countDown();
                    }
                } else {
                    float[] value = new float[valueLength];
                    float[] last = new float[keys];
                    long reads = 0;
                    while (writing.get() || reads < operations()) {
                        int key = (int) (reads++ % keys);
                        worker.pull(key, value, 0);
                        for (int i = 1; i < valueLength; i++) {
                            if (value[i] != value[0]) {
                                throw new AssertionError("torn read of key " + key + ": component 0 is " + value[0]
                                        + ", component " + i + " is " + value[i]);
                            }
                        }
                        if (value[0] < last[key]) {
                            throw new AssertionError("key " + key + " went back from " + last[key] + " to " + value[0]);
                        }
                        last[key] = value[0];
                        if (writersDone.getCount() == 0) {
                            writing.set(false);
                        }
                    }
                }
            });
            float[] value = new float[valueLength];
            long total = 0;
            Worker reader = node.worker();
            for (int key = 0; key < keys; key++) {
                reader.pull(key, value, 0);
                total += (long) value[0];
            }
            assertThat(total).isEqualTo((long) writers * operations());
        }
    }

    @Test
    void readersNeverSeeTornValuesUnderSet() throws Exception {
        int valueLength = 256;
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("wide", 1, valueLength)).build()) {
            AtomicBoolean writing = new AtomicBoolean(true);
            Concurrently.run(2, t -> {
                Worker worker = node.worker();
                float[] value = new float[valueLength];
                if (t == 0) {
                    for (int c = 1; c <= operations(); c++) {
                        java.util.Arrays.fill(value, c);
                        worker.set(0, value, 0);
                    }
                    writing.set(false);
                } else {
                    while (writing.get()) {
                        worker.pull(0, value, 0);
                        for (int i = 1; i < valueLength; i++) {
                            if (value[i] != value[0]) {
                                throw new AssertionError("torn read: " + value[0] + " and " + value[i]);
                            }
                        }
                    }
                }
            });
        }
    }
}
