package io.adaps.transport.jvm;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.api.ReplicationMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;

/**
 * One node of {@link IntentSumsIT}, a JVM of its own with {@code ADAPS_*} in its environment and
 * two arguments: the {@link Technique} and the seed of the workload.
 *
 * <p>The guarantees of {@code AdaptiveContract} (adaps-core's tests) across processes.
 * {@value #WORKERS} threads each run a schedule of {@value #CLOCKS} clocks on table
 * {@value #TABLE}: at clock {@code c} a worker signals intent for the keys of clock
 * {@code c + }{@value #LOOKAHEAD}, pushes ones to the {@value #KEYS_PER_CLOCK} keys of clock
 * {@code c}, pulls them back and checks each value: all components equal (never torn), and at
 * least the last value this worker saw of the key plus its own pushes since (it reads its
 * writes; all updates are positive). Every {@value #SYNC_EVERY} clocks it calls {@code waitSync}.
 * Of the keys of a clock, the first {@value #HOT_PER_CLOCK} are hot keys that the workers of every
 * node use ({@code [0, }{@value #HOT}{@code )}, so concurrent intent on several nodes: replication
 * under the adaptive techniques), the others mostly ({@value #OWN_PERCENT} %) keys of this node's
 * own block, which no other node uses much (intent on one node: relocation), else keys of another
 * node's block. A node's block lies in the home range of the next node, so that its keys must move
 * to be local.
 *
 * <p>Then every worker calls {@code waitAll} and {@code waitSync}, the nodes pass a barrier, and
 * each node pulls every key (checked as above) and prints, for the test to parse:
 * <pre>
 * pushed per key N0 N1 ...          (+1 increments this node's workers pushed to each key)
 * seen after sync V0 V1 ...         (each key's value pulled here after waitSync and the barrier)
 * seen at end V0 V1 ...             (the same, once the managers of all nodes are quiet again)
 * manager quiet Q                   (true if its counters settled, see below)
 * moves in I out O replicas created C held H dropped D managed M sync rounds S
 * </pre>
 * After the first pull the node waits until its manager is quiet (its counters unchanged for
 * {@value #QUIET_MILLIS} ms, at most {@value #SETTLE_SECONDS} s: keys whose intent ended linger
 * a while and may still move), passes a barrier, pulls every key again and reads its metrics, so
 * that the nodes' relocation counters are compared when no relocation is in flight. A last barrier
 * keeps every node up until all have pulled. A worker that fails prints {@code FAILURE ...} to
 * stderr at once and the node exits 1 with the stack trace ({@link ChildMain#runWorkers}).
 */
public final class IntentNode {
    static final String TABLE = "intents";
    static final int NODES = 3;
    static final int ROWS = 96;
    static final int VALUE_LENGTH = 4;
    static final int WORKERS = 2;
    static final int CLOCKS = 200;
    static final int LOOKAHEAD = 2;
    static final int KEYS_PER_CLOCK = 4;
    static final int HOT = 8;
    static final int HOT_PER_CLOCK = 2;
    static final int OWN_PERCENT = 90;
    static final int SYNC_EVERY = 25;
    private static final int QUIET_MILLIS = 300;
    private static final int SETTLE_SECONDS = 5;
    private static final Duration WORKER_TIMEOUT = Duration.ofSeconds(30);

    private IntentNode() {
    }

    /** Runs the node: {@code IntentNode TECHNIQUE SEED}; exits 0 if every check passed. */
    public static void main(String[] args) {
        ChildMain.exitWith(() -> run(Technique.valueOf(args[0]), Long.parseLong(args[1])));
    }

    /** The first key of the block of keys that {@code node} mostly uses: in the home range of the next node. */
    static int blockStart(int node) {
        int share = (ROWS + NODES - 1) / NODES; // range partitioning
        return Math.max(HOT, (node + 1) % NODES * share);
    }

    /** The end (exclusive) of the block of {@code node}. */
    static int blockEnd(int node) {
        int share = (ROWS + NODES - 1) / NODES;
        return Math.min(ROWS, ((node + 1) % NODES + 1) * share);
    }

    /** The {@code i}-th key of a clock of a worker of {@code node}. */
    private static long key(int node, int i, SplittableRandom random) {
        if (i < HOT_PER_CLOCK) {
            return random.nextInt(HOT);
        }
        int owner = random.nextInt(100) < OWN_PERCENT ? node : (node + 1 + random.nextInt(NODES - 1)) % NODES;
        return random.nextInt(blockStart(owner), blockEnd(owner));
    }

    private static int run(Technique technique, long seed) throws InterruptedException {
        try (AdaPS node = AdaPS.builder().fromEnvironment()
                .technique(technique)
                .table(TableSpec.of(TABLE, ROWS, VALUE_LENGTH))
                .heartbeatInterval(Duration.ofMillis(200))
                // Also how long a connecting node waits for the handshake's answer: with three JVMs
                // starting at once on two cores, 2 s was once too short (node 0 answered too late).
                .failureTimeout(Duration.ofSeconds(5))
                .operationTimeout(Duration.ofSeconds(10))
                .barrierTimeout(Duration.ofSeconds(30))
                .build()) {
            if (node.clusterSize() != NODES) {
                throw new IllegalStateException("cluster of " + node.clusterSize() + " nodes (expected " + NODES + ")");
            }
            System.out.println("node " + node.nodeId() + ": technique " + technique + ", seed " + seed + "; up at "
                    + ManagementFactory.getRuntimeMXBean().getUptime() + " ms of the JVM");
            node.barrier(); // every node is up: the workers of all nodes start together
            long started = System.nanoTime();
            long[] pushed = new long[ROWS];
            for (long[] counts : ChildMain.runWorkers(node, WORKERS, "intent-worker", WORKER_TIMEOUT,
                    (w, worker) -> work(node.nodeId(), w, worker, seed, !technique.replicates()))) {
                Arrays.setAll(pushed, key -> pushed[key] + counts[key]);
            }
            System.out.printf("workers done in %d ms%n", (System.nanoTime() - started) / 1_000_000);
            node.barrier(); // every worker of every node has synchronized: replicas must have converged
            long[] afterSync = pullEveryKey(node);
            boolean quiet = awaitQuiet(node);
            node.barrier(); // every node's manager is quiet: no relocation in flight
            long[] atEnd = pullEveryKey(node);
            NodeMetrics metrics = node.metrics();
            ReplicationMetrics replication = metrics.replication();
            System.out.println(metrics.describe());
            System.out.println("manager quiet " + quiet);
            System.out.println("pushed per key " + join(pushed));
            System.out.println("seen after sync " + join(afterSync));
            System.out.println("seen at end " + join(atEnd));
            System.out.println("moves in " + metrics.relocationsIn() + " out " + metrics.relocationsOut()
                    + " replicas created " + replication.replicasCreated() + " held " + replication.replicasHeld()
                    + " dropped " + replication.replicasDropped() + " managed " + replication.managedRelocations()
                    + " sync rounds " + replication.syncRounds());
            System.out.flush();
            node.barrier(); // nobody leaves while another node still pulls
            return 0;
        }
    }

    /**
     * Runs one worker's schedule; returns its pushes per key. Every pull must include the worker's
     * own pushes (read-your-writes); with {@code monotonic} (no replicas: per-key sequential
     * consistency) also every value it saw before. A replica may lag behind a value read from the
     * owner just before the replica was created, until its next refresh.
     */
    private static long[] work(int nodeId, int w, Worker worker, long seed, boolean monotonic) {
        long workerSeed = seed * 1_000_003L + nodeId * WORKERS + w;
        SplittableRandom random = new SplittableRandom(workerSeed);
        long[][] schedule = new long[CLOCKS + LOOKAHEAD][KEYS_PER_CLOCK];
        for (long[] keys : schedule) {
            for (int i = 0; i < KEYS_PER_CLOCK; i++) {
                keys[i] = key(nodeId, i, random);
            }
        }
        TableView table = worker.table(TABLE);
        long[] pushes = new long[ROWS];
        long[] lastSeen = new long[ROWS];
        long[] ownSince = new long[ROWS];
        float[] ones = new float[KEYS_PER_CLOCK * VALUE_LENGTH];
        Arrays.fill(ones, 1f);
        float[] values = new float[KEYS_PER_CLOCK * VALUE_LENGTH];
        String what = "intents of the first clocks";
        try {
            for (int c = 0; c < LOOKAHEAD; c++) {
                table.intent(schedule[c], c, c + 1);
            }
            for (int c = 0; c < CLOCKS; c++) {
                long[] keys = schedule[c];
                what = "clock " + c + " (keys " + Arrays.toString(keys) + ")";
                table.intent(schedule[c + LOOKAHEAD], c + LOOKAHEAD, c + LOOKAHEAD + 1);
                table.push(keys, ones);
                for (long key : keys) {
                    pushes[(int) key]++;
                    ownSince[(int) key]++;
                }
                table.pull(keys, values);
                // One key may be in a clock twice: each value must include what was known before
                // the pull; afterwards the largest is known.
                long[] seenNow = new long[KEYS_PER_CLOCK];
                for (int i = 0; i < KEYS_PER_CLOCK; i++) {
                    int key = (int) keys[i];
                    long count = ChildMain.wholeCount(values, i * VALUE_LENGTH, VALUE_LENGTH, key);
                    long least = monotonic ? lastSeen[key] + ownSince[key] : pushes[key];
                    if (count < least) {
                        throw new IllegalStateException("key " + key + " pulled " + count + " (expected >= " + least
                                + (monotonic ? " = " + lastSeen[key] + " seen before + " + ownSince[key]
                                + " own pushes since)" : ", its own pushes)"));
                    }
                    seenNow[i] = count;
                }
                for (int i = 0; i < KEYS_PER_CLOCK; i++) {
                    int key = (int) keys[i];
                    lastSeen[key] = Math.max(lastSeen[key], seenNow[i]);
                    ownSince[key] = 0;
                }
                if (c % SYNC_EVERY == SYNC_EVERY - 1) {
                    what = "waitSync at clock " + c;
                    worker.waitSync();
                }
                worker.advanceClock();
            }
            what = "waitAll";
            worker.waitAll();
            what = "waitSync at the end";
            worker.waitSync();
        } catch (RuntimeException e) {
            throw new IllegalStateException("node " + nodeId + ", worker " + w + " (seed " + workerSeed + "), " + what
                    + ": " + e.getMessage(), e);
        }
        return pushes;
    }

    /** Pulls every key with a fresh worker and returns the counts, each checked. */
    private static long[] pullEveryKey(AdaPS node) {
        long[] keys = LongStream.range(0, ROWS).toArray();
        float[] values = new float[ROWS * VALUE_LENGTH];
        node.worker().table(TABLE).pull(keys, values);
        long[] counts = new long[ROWS];
        Arrays.setAll(counts, key -> ChildMain.wholeCount(values, key * VALUE_LENGTH, VALUE_LENGTH, key));
        return counts;
    }

    /** Waits until the node's placement counters stay unchanged for a while; false if they did not in time. */
    private static boolean awaitQuiet(AdaPS node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(SETTLE_SECONDS).toNanos();
        String last = placement(node.metrics());
        while (System.nanoTime() - deadline < 0) {
            Thread.sleep(QUIET_MILLIS);
            String now = placement(node.metrics());
            if (now.equals(last)) {
                return true;
            }
            last = now;
        }
        return false;
    }

    private static String placement(NodeMetrics metrics) {
        ReplicationMetrics replication = metrics.replication();
        return metrics.relocationsIn() + " " + metrics.relocationsOut() + " " + replication.replicasHeld() + " "
                + replication.replicasCreated() + " " + replication.replicasDropped() + " "
                + replication.managedRelocations();
    }

    private static String join(long[] counts) {
        return Arrays.stream(counts).mapToObj(Long::toString).collect(Collectors.joining(" "));
    }
}
