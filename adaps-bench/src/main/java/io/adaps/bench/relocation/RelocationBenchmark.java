package io.adaps.bench.relocation;

import java.util.Arrays;
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

import io.adaps.api.Initializers;
import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;

/**
 * Latency of relocation: the time of one blocking {@code localize} of {@code batch} rows of
 * {@code valueLength} floats between the two nodes of a cluster in this JVM, connected over
 * loopback by the real Netty transport ({@link LoopbackNodes}). Each call really moves the whole
 * batch: invocations alternate direction, a worker of node 1 takes the rows, the next invocation a
 * worker of node 0 takes them back, and so on. Both workers are driven by the one benchmark thread
 * (a thread may own several workers), so no hand-off between threads is measured.
 *
 * <p>The rows' home is node 0, so both directions cost two messages on the wire, plus a message
 * that node 0 handles on the calling thread:
 * <ul>
 *   <li>to node 1: LOCALIZE 1 &rarr; 0 (the home, which also owns the rows, updates its directory
 *       and takes them out of its store), HANDOVER 0 &rarr; 1 (values and update-rule state; node 1
 *       installs them and completes the call);</li>
 *   <li>back to node 0: the LOCALIZE to the home is handled in place, RELINQUISH 0 &rarr; 1,
 *       HANDOVER 1 &rarr; 0.</li>
 * </ul>
 * A move whose home is a third node costs one more hop (requester, home, owner, requester), which
 * {@link RelocationForwardingBenchmark} measures for pulls.
 *
 * <p>Why it matters: relocation pays off only when moving a row costs less than the remote accesses
 * it saves. The score is time per call (AverageTime, microseconds); time per row is score /
 * {@code batch}, and the small batches show the fixed cost of a call, the large ones the per-row
 * cost (directory update, take-out, encoding, install). At the end of a trial the benchmark checks
 * that exactly {@code calls * batch} rows moved in and out, so a benchmark that silently stopped
 * moving rows fails instead of reporting a fast no-op.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar RelocationBenchmark
 * java ... -jar adaps-bench/target/benchmarks.jar RelocationBenchmark -p batch=64 -f 1 -wi 2 -i 3 -w 1 -r 1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class RelocationBenchmark {
    /** Rows in the table; node 0 is home of the first half, from which the batch is drawn. */
    static final int ROWS = 1 << 12;

    /** The two nodes, a worker of each (both owned by the benchmark thread) and the rows that move. */
    @State(Scope.Thread)
    public static class Moving {
        @Param({"64"})
        int valueLength;

        @Param({"1", "64", "1024"})
        int batch;

        LoopbackNodes nodes;
        final Worker[] workers = new Worker[2];
        long[] rows;
        /** The node that holds the batch now. */
        int holder;
        long calls;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(2, TableSpec.of("t", ROWS, valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)));
            workers[0] = nodes.node(0).worker();
            workers[1] = nodes.node(1).worker();
            rows = distinctRows(nodes.firstRowOf(0), nodes.firstRowOf(1), batch);
            holder = 0;
        }

        /** Checks that every call moved the whole batch, then closes both nodes. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                NodeMetrics at0 = nodes.node(0).metrics();
                NodeMetrics at1 = nodes.node(1).metrics();
                long moved = at0.relocationsIn() + at1.relocationsIn();
                long expected = calls * batch;
                if (moved != expected || at0.relocationsOut() + at1.relocationsOut() != expected) {
                    throw new IllegalStateException("rows moved in " + moved + ", out "
                            + (at0.relocationsOut() + at1.relocationsOut()) + " (expected " + expected + " = " + calls
                            + " calls x " + batch + " rows)");
                }
            } finally {
                nodes.close();
            }
        }
    }

    /** {@code count} distinct rows of {@code [from, to)} in a fixed random order. */
    static long[] distinctRows(long from, long to, int count) {
        long[] all = new long[(int) (to - from)];
        for (int i = 0; i < all.length; i++) {
            all[i] = from + i;
        }
        SplittableRandom random = new SplittableRandom(42);
        for (int i = all.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        return Arrays.copyOf(all, count);
    }

    /** Moves the batch to the node that does not hold it, and waits until it is there. */
    @Benchmark
    public int localize(Moving moving) {
        int to = 1 - moving.holder;
        moving.workers[to].localize(moving.rows);
        moving.holder = to;
        moving.calls++;
        return to;
    }
}
