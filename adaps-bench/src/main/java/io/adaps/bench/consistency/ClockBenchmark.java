package io.adaps.bench.consistency;

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
import io.adaps.api.Consistency;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/**
 * What a consistency model adds to a worker's hot paths on one node with one worker (no peer to
 * wait for, so only the bookkeeping shows): {@code advanceClock()} (flushed-clock check, the
 * node's part of the watermark, the bound's check) and a pull of 64 rows of 64 floats (the
 * bounded read's tag check and the staleness count), under {@code asp} and {@code ssp:4}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
public class ClockBenchmark {
    private static final int ROWS = 1 << 16;
    private static final int VALUE_LENGTH = 64;
    private static final int BATCH = 64;

    @Param({"asp", "ssp:4"})
    String model;

    private AdaPS node;
    private Worker worker;
    private TableView table;
    private final long[] keys = new long[1 << 16];
    private final float[] buffer = new float[BATCH * VALUE_LENGTH];
    private int cursor;

    @Setup(Level.Trial)
    public void start() {
        node = AdaPS.builder().table(TableSpec.of("t", ROWS, VALUE_LENGTH)
                .withInitializer(Initializers.uniform(-1f, 1f, 1)).withConsistency(Consistency.parse(model))).build();
        worker = node.worker();
        table = worker.table("t");
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextInt(ROWS);
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        worker.close();
        node.close();
    }

    @Benchmark
    public long advanceClock() {
        return worker.advanceClock();
    }

    @Benchmark
    public float[] pull() {
        int offset = cursor;
        cursor = offset + 2 * BATCH > keys.length ? 0 : offset + BATCH;
        table.pull(keys, offset, BATCH, buffer, 0);
        return buffer;
    }
}
