package io.adaps.bench.store;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.adaps.api.AdaPS;
import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * Local pull and push through a {@link Worker}, against the same copies on a plain
 * {@code float[][]} with no library, locks or checks: the physical limit of this machine. Also an
 * update of pairs of rows in place ({@link TableView#updateInPlace}, adding a constant to both), one
 * call per pair and one call for the batch's pairs, against the same additions on the plain arrays.
 *
 * <p>Each operation is one batch of {@code batch} random keys (uniform over the table); report
 * values per second as operations per second times {@code batch}. Run with {@code -t 1} and
 * {@code -t 2}: every JMH thread has its own worker, as the API requires. The plain push is not
 * thread-safe (concurrent updates of one row may be lost); that is what makes it a limit.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class LocalAccessBenchmark {
    /** Rows in the table, for every value length. */
    static final int ROWS = 1 << 16;
    /** Keys drawn ahead of time per thread; batches walk through them. */
    static final int KEY_SEQUENCE = 1 << 20;
    /** What the pair updates add to every component. */
    static final float STEP = 1e-3f;

    /** The parameters, once through AdaPS and once as plain arrays. */
    @State(Scope.Benchmark)
    public static class Parameters {
        @Param({"8", "64", "512"})
        int valueLength;

        AdaPS node;
        float[][] plain;

        @Setup(Level.Trial)
        public void start() {
            node = AdaPS.builder()
                    .table(TableSpec.of("t", ROWS, valueLength).withInitializer(Initializers.uniform(-1f, 1f, 1)))
                    .build();
            plain = new float[ROWS][valueLength];
            for (int row = 0; row < ROWS; row++) {
                node.tables().get(0).spec().initializer().initialize(row, plain[row], 0, valueLength);
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            node.close();
        }
    }

    /** One benchmark thread: its worker, its buffer and its key sequence. */
    @State(Scope.Thread)
    public static class Caller {
        @Param({"1", "64", "1024"})
        int batch;

        Worker worker;
        TableView view;
        /** Adds {@link #STEP} to every component of both rows, as {@link #plainUpdateInPlace} does. */
        InPlaceUpdate addStep;
        /** The same, as the update of a call of many pairs. */
        InPlacePairUpdate addPairStep;
        long[] keys;
        /** At each index, the key paired with the key there ({@link #partner}). */
        long[] partnerKeys;
        int[] notDone;
        float[] buffer;
        int cursor;

        @Setup(Level.Trial)
        public void start(Parameters parameters) {
            worker = parameters.node.worker();
            view = worker.table("t");
            int length = parameters.valueLength;
            addStep = (first, firstOffset, second, secondOffset) -> {
                for (int j = 0; j < length; j++) {
                    first[firstOffset + j] += STEP;
                    second[secondOffset + j] += STEP;
                }
            };
            addPairStep = (pair, first, firstOffset, second, secondOffset) ->
                    addStep.apply(first, firstOffset, second, secondOffset);
            notDone = new int[batch];
            buffer = new float[batch * parameters.valueLength];
            java.util.Arrays.fill(buffer, 1e-3f);
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
            keys = new long[KEY_SEQUENCE];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = random.nextInt(ROWS);
            }
            partnerKeys = new long[KEY_SEQUENCE];
            for (int i = 0; i < keys.length; i++) {
                partnerKeys[i] = keys[partner(i)];
            }
        }

        /** The offset of the next batch in {@link #keys}. */
        int nextBatch() {
            int offset = cursor;
            cursor = offset + 2 * batch > KEY_SEQUENCE ? 0 : offset + batch;
            return offset;
        }
    }

    @Benchmark
    public float[] pull(Caller caller) {
        caller.worker.pull(caller.keys, caller.nextBatch(), caller.batch, caller.buffer, 0);
        return caller.buffer;
    }

    @Benchmark
    public float[] push(Caller caller) {
        caller.worker.push(caller.keys, caller.nextBatch(), caller.batch, caller.buffer, 0);
        return caller.buffer;
    }

    /** Where the key paired with the key at {@code index} of a key sequence is: the mirror position. */
    static int partner(int index) {
        return KEY_SEQUENCE - 1 - index;
    }

    /** {@code batch} in-place updates of the batch's keys, each paired with its {@link #partner}. */
    @Benchmark
    public int updateInPlace(Caller caller) {
        int offset = caller.nextBatch();
        long[] keys = caller.keys;
        TableView view = caller.view;
        int done = 0;
        for (int i = 0; i < caller.batch; i++) {
            done += view.updateInPlace(keys[offset + i], view, keys[partner(offset + i)], caller.addStep) ? 1 : 0;
        }
        return done;
    }

    /** The same pairs as {@link #updateInPlace}, in one call. */
    @Benchmark
    public int updateInPlacePairs(Caller caller) {
        int offset = caller.nextBatch();
        return caller.batch - caller.view.updateInPlace(caller.keys, offset, caller.view, caller.partnerKeys, offset,
                caller.batch, caller.addPairStep, caller.notDone);
    }

    @Benchmark
    public float[][] plainUpdateInPlace(Parameters parameters, Caller caller) {
        float[][] plain = parameters.plain;
        int offset = caller.nextBatch();
        for (int i = 0; i < caller.batch; i++) {
            float[] first = plain[(int) caller.keys[offset + i]];
            float[] second = plain[(int) caller.keys[partner(offset + i)]];
            for (int j = 0; j < first.length; j++) {
                first[j] += STEP;
                second[j] += STEP;
            }
        }
        return plain;
    }

    @Benchmark
    public float[] plainPull(Parameters parameters, Caller caller) {
        float[][] plain = parameters.plain;
        int length = parameters.valueLength;
        int offset = caller.nextBatch();
        for (int i = 0; i < caller.batch; i++) {
            System.arraycopy(plain[(int) caller.keys[offset + i]], 0, caller.buffer, i * length, length);
        }
        return caller.buffer;
    }

    @Benchmark
    public float[][] plainPush(Parameters parameters, Caller caller) {
        float[][] plain = parameters.plain;
        int length = parameters.valueLength;
        float[] buffer = caller.buffer;
        int offset = caller.nextBatch();
        for (int i = 0; i < caller.batch; i++) {
            float[] row = plain[(int) caller.keys[offset + i]];
            int base = i * length;
            for (int j = 0; j < length; j++) {
                row[j] += buffer[base + j];
            }
        }
        return plain;
    }
}
