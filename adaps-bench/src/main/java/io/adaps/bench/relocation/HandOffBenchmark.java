package io.adaps.bench.relocation;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.bench.loopback.LoopbackNodes;

/**
 * Latency of a hand-off (issue 13): the time from the clock tick that ends one node's intent for
 * {@code batch} rows of {@code valueLength} floats until the rows are owned by the node whose
 * intent for them follows, under {@link Technique#ADAPTIVE}, between the two nodes of a cluster in
 * this JVM over loopback Netty ({@link LoopbackNodes}). It is what the blocked schedule pays at
 * every sub-epoch for its column blocks when it signals intent instead of calling {@code localize}
 * ({@link RelocationBenchmark} measures that, the same rows and sizes).
 *
 * <p>Each invocation, the node that does not hold the rows says it uses them in the next clock,
 * both workers (driven by the one benchmark thread) tick their clocks, which ends the holder's
 * intent, and the benchmark waits until the other node has received the rows (its relocations-in
 * counter, polled). The library does the rest: the waiting node's INTENT reached the rows' home
 * (node 0) as a start after the holder's, which made a sequence; the holder, asked to release
 * them, lets them go as its intent ends (INTENT end), the home tells the waiting node to take them
 * (PLACEMENT), which it does (LOCALIZE, then RELINQUISH and HANDOVER). Every invocation moves the
 * whole batch, or the trial fails at its end. Each worker also pulls some rows of its own node
 * per clock, so that the adaptive manager counts the table as read row by row, as a training
 * loop reads it (a table read in a few calls per clock is left in place).
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar HandOffBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class HandOffBenchmark {
    /** Single-row pulls of its own rows per worker and clock: more than the manager's bound for batched reads. */
    private static final int READS_PER_CLOCK = 16;
    /** How long one hand-off may take before the trial fails. */
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The two nodes, a worker of each (both driven by the benchmark thread) and the rows handed on. */
    @State(Scope.Thread)
    public static class Handing {
        @Param({"64"})
        int valueLength;

        @Param({"1", "64", "1024"})
        int batch;

        LoopbackNodes nodes;
        final Worker[] workers = new Worker[2];
        final TableView[] views = new TableView[2];
        long[] rows;
        long[] ownRows;
        float[] value;
        /** The node that holds the rows now. */
        int holder;
        long handOffs;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(2, TableSpec.of("t", RelocationBenchmark.ROWS, valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)), Technique.ADAPTIVE);
            for (int n = 0; n < 2; n++) {
                workers[n] = nodes.node(n).worker();
                views[n] = workers[n].table("t");
            }
            rows = RelocationBenchmark.distinctRows(nodes.firstRowOf(0), nodes.firstRowOf(1), batch);
            // A row of each node that is not handed on, for the reads that keep the table unbatched.
            ownRows = new long[] {notIn(rows, nodes.firstRowOf(0)), RelocationBenchmark.ROWS - 1};
            value = new float[valueLength];
            holder = 0; // node 0 is the rows' home, and uses them first
            views[0].intent(rows, 0, 1);
        }

        /** Checks that every invocation moved the whole batch, then closes both nodes. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                long moved = nodes.node(0).metrics().relocationsIn() + nodes.node(1).metrics().relocationsIn();
                if (moved < handOffs * batch) {
                    throw new IllegalStateException("rows moved in " + moved + " (expected at least " + handOffs * batch
                            + " = " + handOffs + " hand-offs x " + batch + " rows)");
                }
                long replicas = nodes.node(0).metrics().replication().replicasCreated()
                        + nodes.node(1).metrics().replication().replicasCreated();
                if (replicas != 0) {
                    throw new IllegalStateException(replicas + " replicas created (expected hand-offs only)");
                }
            } finally {
                nodes.close();
            }
        }

        /** The first row from {@code from} on that is not one of {@code rows}. */
        private static long notIn(long[] rows, long from) {
            long[] sorted = rows.clone();
            Arrays.sort(sorted);
            long row = from;
            while (Arrays.binarySearch(sorted, row) >= 0) {
                row++;
            }
            return row;
        }

        /** Each worker reads a few of its own rows, as in one clock of training. */
        void read() {
            for (int n = 0; n < 2; n++) {
                for (int r = 0; r < READS_PER_CLOCK; r++) {
                    views[n].pull(ownRows[n], value, 0);
                }
            }
        }
    }

    /** Hands the rows to the node that does not hold them, and waits until they are there. */
    @Benchmark
    public int handOff(Handing handing) {
        int to = 1 - handing.holder;
        long clock = handing.workers[to].clock();
        handing.views[to].intent(handing.rows, clock + 1, clock + 2);
        handing.read();
        long before = handing.nodes.node(to).metrics().relocationsIn();
        handing.workers[0].advanceClock();
        handing.workers[1].advanceClock();
        long deadline = System.nanoTime() + LIMIT_NANOS;
        while (handing.nodes.node(to).metrics().relocationsIn() - before < handing.batch) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("hand-off " + handing.handOffs + " of " + handing.batch
                        + " rows to node " + to + " not done within 10 s");
            }
            LockSupport.parkNanos(50_000);
        }
        handing.holder = to;
        handing.handOffs++;
        return to;
    }
}
