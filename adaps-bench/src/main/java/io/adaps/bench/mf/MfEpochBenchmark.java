package io.adaps.bench.mf;

import java.util.concurrent.TimeUnit;

import io.adaps.api.AdaPS;
import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfTables;
import io.adaps.examples.mf.MfTrainer;
import io.adaps.examples.mf.ShardPool;
import io.adaps.examples.mf.SyntheticMatrix;
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

/**
 * One Hogwild SGD epoch of matrix factorization, through AdaPS ({@link MfTrainer}, the code of the
 * {@code mf} example) and on plain shared arrays ({@link PlainHogwildMf}): the price of the
 * parameter server's API, copies and per-row sequence locks on a single node.
 *
 * <p>Both variants train on the same synthetic zipf-skewed ratings (the example's generator), from
 * the same initial model, with the same step, learning rate and number of threads, each thread on
 * a contiguous share of the entries and on a long-lived thread of a {@link ShardPool}. One
 * invocation is one full epoch, timed as a single shot; the model keeps training from one
 * invocation to the next, as in a real run. Each returns the epoch's sum of squared errors, so
 * nothing can be optimized away.
 *
 * <pre>
 * java -jar adaps-bench/target/benchmarks.jar MfEpoch
 * java -jar adaps-bench/target/benchmarks.jar MfEpoch -p threads=2 -p rank=64
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3)
@Measurement(iterations = 8)
public class MfEpochBenchmark {
    static final float LEARNING_RATE = 0.1f;
    static final float REGULARIZATION = 0.01f;
    static final long SEED = 42;

    /** The training entries and the shape of the runs, shared by both variants. */
    @State(Scope.Benchmark)
    public static class Data {
        /** Floats per factor. */
        @Param("32")
        public int rank;

        /** Training threads. */
        @Param({"1", "2"})
        public int threads;

        /** Entries per epoch. */
        @Param("3000000")
        public int entries;

        /** Rows of the generated matrix. */
        @Param("10000")
        public int rows;

        /** Columns of the generated matrix. */
        @Param("5000")
        public int cols;

        MfData train;

        /** Generates the ratings once per trial. */
        @Setup(Level.Trial)
        public void generate() {
            train = ratings(rows, cols, entries);
        }
    }

    /** The benchmark's ratings of a {@code rows x cols} matrix: a rank-10 matrix plus noise 0.1, zipf 1.1 skew. */
    static MfData ratings(int rows, int cols, int entries) {
        return new SyntheticMatrix(new SyntheticMatrix.Spec(rows, cols, entries, 10, 0.1, 1.1, SEED)).sample();
    }

    /** A single AdaPS node with the two factor tables and a trainer on it. */
    @State(Scope.Benchmark)
    public static class AdapsModel {
        /**
         * Entries per batch of the kernel: 1 is a pull and a push per row and entry, exactly the
         * plain variant's access pattern; larger batches pull each distinct row once per batch.
         */
        @Param({"1", "1024"})
        public int batch;

        AdaPS node;
        MfTrainer trainer;

        /** Starts the node and the training threads. */
        @Setup(Level.Trial)
        public void start(Data data) {
            node = MfTables.startNode(data.rows, data.cols, data.rank, SEED);
            trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, LEARNING_RATE, REGULARIZATION, data.threads,
                    batch);
        }

        /** Stops the training threads and the node. */
        @TearDown(Level.Trial)
        public void stop() {
            trainer.close();
            node.close();
        }
    }

    /** The plain-array model and its threads. */
    @State(Scope.Benchmark)
    public static class PlainModel {
        PlainHogwildMf model;
        ShardPool pool;

        /** Allocates the arrays and starts the threads. */
        @Setup(Level.Trial)
        public void start(Data data) {
            model = new PlainHogwildMf(data.rows, data.cols, data.rank, LEARNING_RATE, REGULARIZATION, SEED);
            pool = new ShardPool(data.threads, "plain-mf");
        }

        /** Stops the threads. */
        @TearDown(Level.Trial)
        public void stop() {
            pool.close();
        }
    }

    /** One epoch through the AdaPS worker and table-view API. */
    @Benchmark
    public double adaps(Data data, AdapsModel model) {
        return model.trainer.epoch(data.train);
    }

    /** One epoch on plain shared arrays. */
    @Benchmark
    public double plainArrays(Data data, PlainModel model) {
        return model.model.epoch(data.train, model.pool);
    }
}
