package io.adaps.transport.jvm;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;

/**
 * One node of {@link RelocationSumsIT}, a JVM of its own with {@code ADAPS_*} in its environment,
 * always with {@link Technique#RELOCATION_ONLY} (whatever {@code ADAPS_TECHNIQUE} says).
 *
 * <p>{@value #WORKERS} threads each run {@value #OPERATIONS} random operations on 1 to
 * {@value #MAX_IDS} random rows of table {@value #TABLE}, which has only {@value #ROWS} rows, so
 * that the workers of all nodes fight over them while they move: synchronous and asynchronous
 * pushes of ones (every component of a row counts the pushes it got), pulls, and blocking and
 * asynchronous {@code localize} calls. Each pull is checked: all components of a value equal (a
 * push adds to all at once, so a torn read would differ), and for every (worker, row) the pulled
 * count never goes back and includes the worker's own synchronous pushes completed since its
 * previous pull of the row ({@code value >= last pulled + own pushes since}). The first violation
 * or failed operation stops the node with its description.
 *
 * <p>After {@code waitAll}, a barrier, and a pull of every row, the node prints (the test parses
 * these lines):
 * <pre>
 * pushed P                                  (+1 increments this node's workers pushed)
 * sum seen S                                (sum over all rows of the counts pulled here)
 * relocations in I out O forwarded F        (this node's NodeMetrics)
 * </pre>
 * then passes a last barrier (so that no node leaves while another still pulls) and exits 0. A
 * worker that fails prints {@code FAILURE of worker W: ...} to stderr at once; the node then exits
 * 1 with the stack trace on stderr ({@link ChildMain#runWorkers}).
 */
public final class RelocationNode {
    static final String TABLE = "contended";
    static final int ROWS = 30;
    static final int VALUE_LENGTH = 4;
    static final int WORKERS = 2;
    static final int OPERATIONS = 3_000;
    static final int MAX_IDS = 4;
    private static final long WORKER_SECONDS = 45;

    private RelocationNode() {
    }

    /** Runs the node; exits 0 if every check passed. */
    public static void main(String[] args) {
        ChildMain.exitWith(() -> run());
    }

    /** What one worker did. */
    private record Counts(long pushed, long pullsChecked, long localizeCalls) {
    }

    private static int run() throws InterruptedException {
        try (AdaPS node = AdaPS.builder().fromEnvironment()
                .technique(Technique.RELOCATION_ONLY)
                .table(TableSpec.of(TABLE, ROWS, VALUE_LENGTH))
                .heartbeatInterval(Duration.ofMillis(200))
                .failureTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(10))
                .barrierTimeout(Duration.ofSeconds(40))
                .build()) {
            node.barrier(); // every node is up: the workers of all nodes start together
            long pushed = 0;
            long pullsChecked = 0;
            long localizeCalls = 0;
            for (Counts counts : ChildMain.runWorkers(node, WORKERS, "relocation-worker",
                    Duration.ofSeconds(WORKER_SECONDS),
                    (w, worker) -> work(node.nodeId(), worker, node.nodeId() * 1_000L + w))) {
                pushed += counts.pushed();
                pullsChecked += counts.pullsChecked();
                localizeCalls += counts.localizeCalls();
            }
            node.barrier(); // every worker of every node is done: the cluster is quiet
            long seen = pullEveryRow(node);
            NodeMetrics metrics = node.metrics();
            System.out.println("pulls checked " + pullsChecked + ", localize calls " + localizeCalls);
            System.out.println(metrics.describe());
            System.out.println("pushed " + pushed);
            System.out.println("sum seen " + seen);
            System.out.println("relocations in " + metrics.relocationsIn() + " out " + metrics.relocationsOut()
                    + " forwarded " + metrics.forwarded());
            System.out.flush();
            node.barrier(); // nobody leaves while another node still pulls
            return 0;
        }
    }

    private static Counts work(int nodeId, Worker worker, long seed) {
        TableView table = worker.table(TABLE);
        SplittableRandom random = new SplittableRandom(seed);
        long[] lastSeen = new long[ROWS];
        long[] ownSince = new long[ROWS];
        long[] seenNow = new long[ROWS];
        float[] ones = new float[MAX_IDS * VALUE_LENGTH];
        Arrays.fill(ones, 1f);
        float[] values = new float[MAX_IDS * VALUE_LENGTH];
        long[] ids = new long[MAX_IDS];
        long pushed = 0;
        long pullsChecked = 0;
        long localizeCalls = 0;
        String what = "nothing yet";
        try {
            for (int op = 0; op < OPERATIONS; op++) {
                int n = 1 + random.nextInt(MAX_IDS);
                for (int i = 0; i < n; i++) {
                    ids[i] = random.nextInt(ROWS);
                }
                int kind = random.nextInt(8);
                what = "operation " + op + " (kind " + kind + ", rows " + Arrays.toString(Arrays.copyOf(ids, n)) + ")";
                switch (kind) {
                    case 0, 1, 2 -> {
                        table.push(ids, 0, n, ones, 0);
                        pushed += n;
                        for (int i = 0; i < n; i++) {
                            ownSince[(int) ids[i]]++;
                        }
                    }
                    case 3 -> {
                        table.pushAsync(ids, 0, n, ones, 0);
                        pushed += n; // counted, but not expected in pulls until it completes
                    }
                    case 4, 5 -> {
                        table.pull(ids, 0, n, values, 0);
                        // A batch is not a snapshot (and one row may be in it twice): every value must
                        // include what was known before the call; afterwards the largest is known.
                        for (int i = 0; i < n; i++) {
                            int row = (int) ids[i];
                            long count = wholeCount(values, i * VALUE_LENGTH, row);
                            long least = lastSeen[row] + ownSince[row];
                            if (count < least) {
                                throw new IllegalStateException("row " + row + " pulled " + count + " (expected >= "
                                        + least + " = " + lastSeen[row] + " pulled before + " + ownSince[row]
                                        + " own synchronous pushes since)");
                            }
                            seenNow[row] = Math.max(seenNow[row], count);
                        }
                        for (int i = 0; i < n; i++) {
                            int row = (int) ids[i];
                            lastSeen[row] = Math.max(lastSeen[row], seenNow[row]);
                            ownSince[row] = 0;
                            seenNow[row] = 0;
                        }
                        pullsChecked += n;
                    }
                    case 6 -> {
                        table.localize(ids, 0, n);
                        localizeCalls++;
                    }
                    default -> {
                        long ticket = table.localizeAsync(ids, 0, n);
                        localizeCalls++;
                        if (random.nextInt(4) == 0) {
                            worker.waitFor(ticket);
                        }
                    }
                }
            }
            what = "waitAll";
            worker.waitAll();
        } catch (RuntimeException e) {
            throw new IllegalStateException("node " + nodeId + ", seed " + seed + ", " + what + ": " + e.getMessage(), e);
        }
        return new Counts(pushed, pullsChecked, localizeCalls);
    }

    /** The count in the value at {@code offset}: all components equal and a whole number >= 0. */
    private static long wholeCount(float[] values, int offset, int row) {
        return ChildMain.wholeCount(values, offset, VALUE_LENGTH, row);
    }

    /** Pulls every row with a fresh worker, checks each value, and returns the sum of the counts. */
    private static long pullEveryRow(AdaPS node) {
        long[] rows = new long[ROWS];
        Arrays.setAll(rows, i -> i);
        float[] values = new float[ROWS * VALUE_LENGTH];
        node.worker().table(TABLE).pull(rows, values);
        long sum = 0;
        for (int row = 0; row < ROWS; row++) {
            sum += wholeCount(values, row * VALUE_LENGTH, row);
        }
        return sum;
    }
}
