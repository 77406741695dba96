package io.adaps.bench.sampling;

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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.Initializers;
import io.adaps.api.SamplingScheme;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.bench.loopback.LoopbackNodes;

/**
 * Sampling access per {@link SamplingScheme}: one operation is one sample of {@code size} rows,
 * prepared {@value #LOOKAHEAD} clocks ahead of its pull (as a training loop that draws the
 * negatives of a coming mini-batch would), i.e. one {@code prepareSample}, one {@code pullSample}
 * of the sample prepared {@value #LOOKAHEAD} operations earlier, and one {@code advanceClock}.
 * The distribution is word-like: unigram counts {@code ~ 1/(r+1)} raised to 0.75 over
 * {@value #ROWS} rows ({@link AliasTable}).
 *
 * <ul>
 *   <li>{@code sample}: a node on its own. Every row is local, so this is the schemes' own cost
 *       (draws, pool tickets and refills, intent bookkeeping, the handle ring, the local pull).
 *       {@code plainSample} is its baseline: the same draws from the same alias table and copies
 *       from a plain {@code float[][]}, no library.</li>
 *   <li>{@code sampleTwoNodes}: a worker of node 1 of two nodes in this JVM over loopback Netty,
 *       range partitioned, technique {@link Technique#ADAPTIVE}: NAIVE pays round trips for the
 *       rows homed at node 0 (most of the mass), PRELOCALIZE lets the manager place the drawn rows
 *       in the {@value #LOOKAHEAD} clocks before the pull, POOL keeps its pool's rows local, LOCAL
 *       redraws remote rows. Compare samples per second, and the locality printed at tear-down.</li>
 *   <li>{@code takenSample}, {@code takenSampleTwoNodes}: the same, with the sample's rows taken
 *       ({@code takeSample}) and pulled with one {@code pullAsync} and its wait, as the word2vec
 *       example reads them with a chunk's other rows.</li>
 * </ul>
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar Sampling -rf json -rff sampling.json
 * python3 adaps-bench/report.py sampling.json
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class SamplingBenchmark {
    static final int ROWS = 1 << 16;
    static final int VALUE_LENGTH = 16;
    /** Clocks between a sample's prepare and its pull. */
    static final int LOOKAHEAD = 4;

    static AliasTable distribution() {
        long[] counts = new long[ROWS];
        for (int r = 0; r < ROWS; r++) {
            counts[r] = 10_000_000L / (r + 1);
        }
        return AliasTable.unigram(counts, 0.75);
    }

    static TableSpec table() {
        return TableSpec.of("w", ROWS, VALUE_LENGTH).withInitializer(Initializers.uniform(-1f, 1f, 1))
                .withSampling(distribution());
    }

    /** A worker's pipeline of prepared samples, pulled {@value #LOOKAHEAD} operations later. */
    abstract static class Pipeline {
        Worker worker;
        int n;
        TableView view;
        final long[] handles = new long[LOOKAHEAD];
        int next;
        long[] keys;
        float[] values;

        void begin(AdaPS node, int n) {
            this.n = n;
            worker = node.worker();
            view = worker.table("w");
            keys = new long[n];
            values = new float[n * VALUE_LENGTH];
            for (int i = 0; i < LOOKAHEAD; i++) {
                handles[i] = view.prepareSample(n, i, i + 1);
            }
        }

        /**
         * Prepares the sample of clock {@code clock + LOOKAHEAD}, pulls the one of this clock: with
         * {@code pullSample}, or if {@code take} takes its rows and pulls them with {@code pullAsync}
         * (as a caller that reads them with other rows does).
         */
        float[] step(boolean take) {
            long clock = worker.clock();
            long pulled = handles[next];
            handles[next] = view.prepareSample(n, clock + LOOKAHEAD, clock + LOOKAHEAD + 1);
            next = next + 1 == LOOKAHEAD ? 0 : next + 1;
            if (take) {
                view.takeSample(pulled, keys, 0);
                worker.waitFor(view.pullAsync(keys, 0, n, values, 0));
            } else {
                view.pullSample(pulled, keys, values);
            }
            worker.advanceClock();
            return values;
        }

        /** Pulls what is still prepared, so that the node closes with no handle open. */
        void drain() {
            for (int i = 0; i < LOOKAHEAD; i++) {
                view.pullSample(handles[(next + i) % LOOKAHEAD], keys, values);
            }
        }
    }

    /** A node on its own. */
    @State(Scope.Thread)
    public static class SingleNode extends Pipeline {
        @Param({"NAIVE", "PRELOCALIZE", "POOL", "LOCAL"})
        SamplingScheme scheme;

        @Param({"64"})
        int size;

        AdaPS node;

        @Setup(Level.Trial)
        public void start() {
            node = AdaPS.builder().sampling(scheme).table(table()).build();
            begin(node, size);
        }

        @TearDown(Level.Trial)
        public void stop() {
            drain();
            System.out.println(node.metrics().describe());
            node.close();
        }
    }

    /** Node 1 of two nodes over loopback Netty. */
    @State(Scope.Thread)
    public static class TwoNodes extends Pipeline {
        @Param({"NAIVE", "PRELOCALIZE", "POOL", "LOCAL"})
        SamplingScheme scheme;

        @Param({"64"})
        int size;

        /** Keys per generation of the POOL scheme's pools (ignored by the other schemes). */
        @Param({"4096"})
        int poolSize;

        /** How often a POOL key is handed out (ignored by the other schemes). */
        @Param({"16"})
        int poolReuse;

        LoopbackNodes nodes;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(2, table(), Technique.ADAPTIVE,
                    b -> b.sampling(scheme).samplePool(poolSize, poolReuse));
            begin(nodes.node(1), size);
        }

        @TearDown(Level.Trial)
        public void stop() {
            drain();
            System.out.println(nodes.node(1).metrics().describe());
            nodes.close();
        }
    }

    /** The same draws and copies as {@code sample}, from plain arrays. */
    @State(Scope.Thread)
    public static class Plain {
        @Param({"64"})
        int size;

        AliasTable distribution;
        float[][] rows;
        SplittableRandom random;
        long[] keys;
        float[] values;

        @Setup(Level.Trial)
        public void start() {
            distribution = distribution();
            rows = new float[ROWS][VALUE_LENGTH];
            SplittableRandom init = new SplittableRandom(1);
            for (float[] row : rows) {
                for (int c = 0; c < VALUE_LENGTH; c++) {
                    row[c] = (float) init.nextDouble(-1, 1);
                }
            }
            random = new SplittableRandom(2);
            keys = new long[size];
            values = new float[size * VALUE_LENGTH];
        }
    }

    @Benchmark
    public float[] sample(SingleNode state) {
        return state.step(false);
    }

    @Benchmark
    public float[] takenSample(SingleNode state) {
        return state.step(true);
    }

    @Benchmark
    public float[] plainSample(Plain state) {
        for (int i = 0; i < state.size; i++) {
            state.keys[i] = state.distribution.draw(state.random);
        }
        for (int i = 0; i < state.size; i++) {
            System.arraycopy(state.rows[(int) state.keys[i]], 0, state.values, i * VALUE_LENGTH, VALUE_LENGTH);
        }
        return state.values;
    }

    @Benchmark
    public float[] sampleTwoNodes(TwoNodes state) {
        return state.step(false);
    }

    @Benchmark
    public float[] takenSampleTwoNodes(TwoNodes state) {
        return state.step(true);
    }

}
