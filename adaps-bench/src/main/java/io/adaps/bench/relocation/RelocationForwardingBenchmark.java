package io.adaps.bench.relocation;

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
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;

/**
 * The cost of forwarding: a blocking pull of {@code batch} rows that have moved away from their
 * home, by a node that does not know where they are, against a pull of rows that are at their
 * home. Three nodes in this JVM over loopback on the real Netty transport ({@link LoopbackNodes}):
 * the requester R (node 0), the rows' home H (node 1) and their owner O (node 2).
 * <ul>
 *   <li>{@code pullAtHome}: rows that never moved. PULL R &rarr; H, PULL_REPLY H &rarr; R: one round
 *       trip, as on a static parameter server.</li>
 *   <li>{@code pullForwarded}: rows that H's directory says are at O. PULL R &rarr; H, H forwards
 *       the PULL to O, O answers R directly: three messages. This is what every first access to
 *       a moved row costs (the answer then teaches R's location cache where the row is, and later
 *       pulls go straight to O, which costs the same as {@code pullAtHome}).</li>
 * </ul>
 * To measure the forwarded path on every call, R's location cache must not know O when the pull
 * starts. The cache can only be reset from outside by moving the rows, so before each invocation
 * ({@link Level#Invocation}, not measured) the rows make a round: H takes them back, R pulls them
 * once (O, where R's cache points, forwards to H, which answers, so R's cache now names H, the
 * home), and O takes them again. R's request then goes to H exactly as it would without any cached
 * location. Both benchmarks run the same preparation, so their surroundings (caches, transport
 * threads) are alike; each pull takes tens of microseconds or more, long enough for the
 * per-invocation time stamps not to matter. At the end of a trial the benchmark checks that H
 * forwarded exactly {@code batch} rows per {@code pullForwarded} call.
 *
 * <p>Score: time per call (AverageTime, microseconds); {@code pullForwarded - pullAtHome} is the
 * extra hop, per row divided by {@code batch}.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar RelocationForwarding
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class RelocationForwardingBenchmark {
    static final int NODES = 3;
    /** Rows per node: the home's block holds the rows at home and, after them, the rows that move. */
    static final int SHARE = 2048;
    static final int REQUESTER = 0;
    static final int HOME = 1;
    static final int OWNER = 2;

    /** The three nodes, a worker of each (all owned by the benchmark thread) and the two row sets. */
    @State(Scope.Thread)
    public static class Placement {
        @Param({"64"})
        int valueLength;

        @Param({"1", "64", "1024"})
        int batch;

        LoopbackNodes nodes;
        Worker requester;
        Worker home;
        Worker owner;
        /** Rows of H that never move. */
        long[] atHome;
        /** Rows of H that live at O. */
        long[] moved;
        float[] buffer;
        long forwardedCalls;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(NODES, TableSpec.of("t", (long) NODES * SHARE, valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)));
            requester = nodes.node(REQUESTER).worker();
            home = nodes.node(HOME).worker();
            owner = nodes.node(OWNER).worker();
            long first = nodes.firstRowOf(HOME);
            long middle = first + SHARE / 2;
            atHome = RelocationBenchmark.distinctRows(first, middle, batch);
            moved = RelocationBenchmark.distinctRows(middle, first + SHARE, batch);
            buffer = new float[batch * valueLength];
            owner.localize(moved);
        }

        /** Makes R's next request for the moved rows go to H, while they are at O. */
        @Setup(Level.Invocation)
        public void forgetWhereTheMovedRowsAre() {
            home.localize(moved);
            requester.pull(moved, buffer);
            owner.localize(moved);
        }

        /** Checks that each forwarded pull was forwarded by the home, then closes the nodes. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                long forwarded = nodes.node(HOME).metrics().forwarded();
                long expected = forwardedCalls * batch;
                if (forwarded != expected) {
                    throw new IllegalStateException("the home forwarded " + forwarded + " rows (expected " + expected
                            + " = " + forwardedCalls + " calls x " + batch + " rows)");
                }
            } finally {
                nodes.close();
            }
        }
    }

    @Benchmark
    public float[] pullAtHome(Placement placement) {
        placement.requester.pull(placement.atHome, placement.buffer);
        return placement.buffer;
    }

    @Benchmark
    public float[] pullForwarded(Placement placement) {
        placement.requester.pull(placement.moved, placement.buffer);
        placement.forwardedCalls++;
        return placement.buffer;
    }
}
