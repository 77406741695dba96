package io.adaps.bench.replication;

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

import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Initializers;
import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.bench.loopback.LoopbackNodes;

/**
 * The cost of the replica path: a local pull or push of {@code batch} rows through a
 * {@link Worker}, or {@code batch} updates in place of pairs of rows ({@link TableView#updateInPlace},
 * adding a constant to both), when the rows are replicas on this node, against the same calls on
 * rows this node owns. All are memory-only; the difference is what a replica adds: the index entry
 * decoded to a replica slot, the replica slot's lock, the checks that the replica has been fetched
 * and is fresh enough (the table is unbounded here), and the slab of replica slots (value and base
 * under the additive rule, whose delta is their difference).
 *
 * <p>Set-up: two nodes in this JVM over loopback Netty ({@link LoopbackNodes}) with
 * {@link Technique#FULL_REPLICATION}, so from the start node 1 holds a replica of each of node 0's
 * rows (the first half of the table) and owns the second half. A worker of node 1 accesses
 * uniformly random rows of one half or the other ({@code pullReplica}/{@code pushReplica}/
 * {@code updateInPlaceReplica} against {@code pullOwned}/{@code pushOwned}/{@code updateInPlaceOwned});
 * the key sequences are drawn ahead of time, so the measured loop allocates nothing of its own.
 * {@code updateInPlaceMixed} steps pairs of rows drawn from the whole table, each owned or a
 * replica at random (a cluster node of MF's Hogwild plan steps its columns so), and
 * {@code updateInPlaceAlternating} the same rows of both kinds in a fixed pattern (pairs of owned
 * rows and pairs of replicas by turns): the difference is the processor mispredicting which
 * path a row takes (on the machine of {@code docs/benchmarks.md}, 62 ns per step of pairs of
 * random kind at {@code valueLength} 8 against 45 ns alternating, and 40 and 46 ns for owned rows
 * and replicas alone; issue 13), which is why the {@code mf} example's column blocks never mix
 * the columns of different home nodes.
 *
 * <p>Why it matters: selective replication only pays off if accessing a replica is nearly as cheap
 * as accessing an owned row (the remote access it replaces costs tens of microseconds, see
 * {@code RemoteAccessBenchmark}). The owned figures are the baseline of the same library; compare
 * them with {@code LocalAccessBenchmark} for the distance to plain arrays.
 *
 * <p>What else runs: both nodes' managers synchronize their replicas in the background (paced to a
 * quarter of each manager thread's time, at least 1 ms apart), so the replica path shares its slot
 * locks with the rounds' snapshots and refreshes, as in training, and the deltas that
 * {@code pushReplica} accumulates travel to node 0. This background work competes for the cores
 * with both sides alike. At the end of a trial the benchmark checks that node 1 held every replica
 * and that all its workers' accesses were local.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar ReplicaAccess -rf json -rff replica-access.json
 * python3 adaps-bench/report.py replica-access.json
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class ReplicaAccessBenchmark {
    /**
     * Rows in the table: node 0 is home of the first half (node 1's replicas), node 1 of the second.
     * Small enough that the background rounds (every replica, every round) stay a minor load.
     */
    static final int ROWS = 1 << 13;
    /** Keys drawn ahead of time per half; batches walk through them. */
    static final int KEY_SEQUENCE = 1 << 20;

    /** The cluster, node 1's worker, its buffer and the key sequences of both halves. */
    @State(Scope.Thread)
    public static class Access {
        @Param({"64"})
        int valueLength;

        @Param({"1", "64", "1024"})
        int batch;

        LoopbackNodes nodes;
        Worker worker;
        TableView view;
        /** Adds a small constant to every component of both rows. */
        InPlaceUpdate addStep;
        /** Rows node 1 holds as replicas (home: node 0), and rows it owns. */
        long[] replicaKeys;
        long[] ownedKeys;
        /** Rows of either kind at random, and rows of the two kinds by turns (owned at even places). */
        long[] mixedKeys;
        long[] alternatingKeys;
        float[] buffer;
        int cursor;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(2, TableSpec.of("t", ROWS, valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)), Technique.FULL_REPLICATION);
            worker = nodes.node(1).worker();
            view = worker.table("t");
            int length = valueLength;
            addStep = (a, ao, b, bo) -> {
                for (int i = 0; i < length; i++) {
                    a[ao + i] += 1e-6f;
                    b[bo + i] += 1e-6f;
                }
            };
            long half = nodes.firstRowOf(1);
            replicaKeys = keys(0, half, 1);
            ownedKeys = keys(half, ROWS, 2);
            mixedKeys = keys(0, ROWS, 3);
            alternatingKeys = new long[KEY_SEQUENCE];
            for (int i = 0; i < KEY_SEQUENCE; i++) {
                alternatingKeys[i] = (i & 1) == 0 ? ownedKeys[i] : replicaKeys[i];
            }
            buffer = new float[batch * valueLength];
            Arrays.fill(buffer, 1e-6f);
        }

        /** Checks that node 1 held every replica and accessed nothing remotely, then closes the nodes. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                NodeMetrics at1 = nodes.node(1).metrics();
                long replicas = nodes.firstRowOf(1);
                if (at1.replication().replicasHeld() != replicas) {
                    throw new IllegalStateException("node 1 holds " + at1.replication().replicasHeld()
                            + " replicas (expected " + replicas + ")");
                }
                if (at1.remotePulls() + at1.remotePushes() != 0) {
                    throw new IllegalStateException("node 1 accessed " + (at1.remotePulls() + at1.remotePushes())
                            + " values remotely (expected every access to be local)");
                }
            } finally {
                nodes.close();
            }
        }

        /** The offset of the next batch in the key sequences. */
        int nextBatch() {
            int offset = cursor;
            cursor = offset + 2 * batch > KEY_SEQUENCE ? 0 : offset + batch;
            return offset;
        }

        private static long[] keys(long from, long to, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] keys = new long[KEY_SEQUENCE];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = random.nextLong(from, to);
            }
            return keys;
        }
    }

    @Benchmark
    public float[] pullReplica(Access access) {
        access.worker.pull(access.replicaKeys, access.nextBatch(), access.batch, access.buffer, 0);
        return access.buffer;
    }

    @Benchmark
    public float[] pullOwned(Access access) {
        access.worker.pull(access.ownedKeys, access.nextBatch(), access.batch, access.buffer, 0);
        return access.buffer;
    }

    @Benchmark
    public float[] pushReplica(Access access) {
        access.worker.push(access.replicaKeys, access.nextBatch(), access.batch, access.buffer, 0);
        return access.buffer;
    }

    @Benchmark
    public float[] pushOwned(Access access) {
        access.worker.push(access.ownedKeys, access.nextBatch(), access.batch, access.buffer, 0);
        return access.buffer;
    }

    @Benchmark
    public int updateInPlaceReplica(Access access) {
        return updateInPlace(access, access.replicaKeys);
    }

    @Benchmark
    public int updateInPlaceMixed(Access access) {
        return updateInPlace(access, access.mixedKeys);
    }

    @Benchmark
    public int updateInPlaceAlternating(Access access) {
        return updateInPlace(access, access.alternatingKeys);
    }

    @Benchmark
    public int updateInPlaceOwned(Access access) {
        return updateInPlace(access, access.ownedKeys);
    }

    /**
     * {@code batch} updates in place, each of a key of the next batch of {@code keys} and the key
     * half the sequence further on; how many ran.
     */
    private static int updateInPlace(Access access, long[] keys) {
        int offset = access.nextBatch();
        int done = 0;
        for (int i = offset; i < offset + access.batch; i++) {
            long partner = keys[(i + KEY_SEQUENCE / 2) & (KEY_SEQUENCE - 1)];
            done += access.view.updateInPlace(keys[i], access.view, partner, access.addStep) ? 1 : 0;
        }
        return done;
    }
}
