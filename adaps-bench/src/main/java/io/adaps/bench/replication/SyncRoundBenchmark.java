package io.adaps.bench.replication;

import java.util.Arrays;
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
import io.adaps.api.ReplicationMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.bench.loopback.LoopbackNodes;

/**
 * Latency of a synchronization round: the time a worker waits in {@link Worker#waitSync()} for a
 * round of its node's {@code replicas} replicas of {@code valueLength} floats.
 * <ul>
 *   <li>{@code pushThenSync}: push an update to every replica (one local batch push), then
 *       {@code waitSync()}. The round snapshots every replica's delta, sends the deltas to the owner
 *       in one SYNC (the owner applies them and answers with fresh values) and refreshes the
 *       replicas. The local push is part of the score; {@link ReplicaAccessBenchmark} measures it
 *       on its own ({@code pushReplica}), to subtract if needed.</li>
 *   <li>{@code refreshOnly}: {@code waitSync()} with nothing pushed. Every delta is zero, so the
 *       round only pulls fresh values (a PULL of every replica): the cost of keeping replicas
 *       fresh when the node only reads them.</li>
 * </ul>
 *
 * <p>Set-up: two nodes in this JVM over loopback Netty ({@link LoopbackNodes}) with
 * {@link Technique#FULL_REPLICATION} and a table of {@code 2 * replicas} rows, so node 1 holds
 * exactly {@code replicas} replicas (of node 0's rows) from the start: a deterministic set, with no
 * intents or placement decisions involved. The benchmark thread drives a worker of node 1.
 *
 * <p>Why it matters: rounds bound how stale replicas are and how long {@code waitSync} (and so
 * every {@code barrier} of a training loop) takes; the per-replica time says how many replicas a
 * node can keep fresh per second. Score: time per round (AverageTime, microseconds); time per
 * replica is score / {@code replicas} ({@code report.py} adds that column).
 *
 * <p>How to read it: {@code waitSync} waits for the first round that <em>starts</em> after the
 * call. Between calls the manager keeps running rounds on its own (while replicas exist, paced to
 * a quarter of its thread's time and at least 1 ms apart); a call that arrives during such a round
 * waits for the rest of it and then a full round, one that arrives while the manager parks wakes
 * it at once. The waiting worker parks with a backoff (10 us doubling to 1 ms), so short rounds
 * are measured to that granularity. Node 0 also synchronizes its own replicas (of node 1's rows,
 * pull-only) in the background, on the same two cores and node 1's I/O thread. The score is what a
 * worker of such a cluster sees, not the bare round. At the end of a trial the benchmark checks
 * that node 1 held every replica, ran at least one round per call, sent every pushed delta (and
 * none under {@code refreshOnly}), and that its replicas equal node 0's values.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar SyncRound -rf json -rff sync-round.json
 * python3 adaps-bench/report.py sync-round.json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class SyncRoundBenchmark {
    /** The update pushed to every value of every replica per {@code pushThenSync} call. */
    static final float UPDATE = 1e-6f;

    /** The cluster, node 1's worker, its replicas' ids and the updates. */
    @State(Scope.Thread)
    public static class Replicas {
        @Param({"64"})
        int valueLength;

        @Param({"64", "1024", "8192"})
        int replicas;

        LoopbackNodes nodes;
        Worker worker;
        /** Node 0's rows: node 1's replicas. */
        long[] rows;
        float[] updates;
        long calls;
        long pushCalls;
        ReplicationMetrics before;

        @Setup(Level.Trial)
        public void start() {
            nodes = LoopbackNodes.start(2, TableSpec.of("t", 2L * replicas, valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)), Technique.FULL_REPLICATION);
            worker = nodes.node(1).worker();
            rows = new long[replicas];
            for (int i = 0; i < replicas; i++) {
                rows[i] = nodes.firstRowOf(0) + i;
            }
            updates = new float[replicas * valueLength];
            Arrays.fill(updates, UPDATE);
            before = nodes.node(1).metrics().replication();
        }

        /** Checks what the rounds did (see the class comment), then closes both nodes. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                ReplicationMetrics after = nodes.node(1).metrics().replication();
                check(after.replicasHeld() == replicas, "node 1 holds " + after.replicasHeld() + " replicas");
                long rounds = after.syncRounds() - before.syncRounds();
                check(rounds >= calls, rounds + " rounds for " + calls + " calls");
                long deltaBytes = after.syncDeltaBytes() - before.syncDeltaBytes();
                long pushedBytes = pushCalls * replicas * valueLength * (long) Float.BYTES;
                check(pushCalls == 0 ? deltaBytes == 0 : deltaBytes >= pushedBytes,
                        deltaBytes + " bytes of deltas sent for " + pushedBytes + " bytes pushed");
                checkConverged();
            } finally {
                nodes.close();
            }
        }

        /** Node 1's replicas equal node 0's values after a last round (nothing is pushed meanwhile). */
        private void checkConverged() {
            worker.waitSync();
            float[] replica = new float[replicas * valueLength];
            float[] owner = new float[replicas * valueLength];
            worker.pull(rows, replica);
            nodes.node(0).worker().pull(rows, owner);
            check(Arrays.equals(replica, owner), "node 1's replicas differ from node 0's values after waitSync");
        }

        private void check(boolean condition, String what) {
            if (!condition) {
                throw new IllegalStateException(what + " (replicas=" + replicas + ", calls=" + calls
                        + ", pushThenSync calls=" + pushCalls + ")");
            }
        }
    }

    /** Pushes an update to every replica, then waits for a round that carries it to the owner. */
    @Benchmark
    public Worker pushThenSync(Replicas state) {
        state.worker.push(state.rows, 0, state.replicas, state.updates, 0);
        state.worker.waitSync();
        state.calls++;
        state.pushCalls++;
        return state.worker;
    }

    /** Waits for a round with nothing pushed: a pull-only refresh of every replica. */
    @Benchmark
    public Worker refreshOnly(Replicas state) {
        state.worker.waitSync();
        state.calls++;
        return state.worker;
    }
}
