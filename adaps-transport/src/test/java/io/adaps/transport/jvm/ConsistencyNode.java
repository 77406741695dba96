package io.adaps.transport.jvm;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.StalenessMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;

/**
 * One node of {@link ConsistencyIT}, a JVM of its own with {@code ADAPS_*} in its environment; its
 * argument is the table's {@link Consistency} model ({@code ssp:1}, {@code bsp}, ...).
 *
 * <p>The invariant of {@code ConsistencyContract} across processes: each of the cluster's
 * {@code W} workers ({@value #WORKERS} per node) reads every key of table {@value #TABLE}, adds 1
 * to it and advances its clock, {@value #CLOCKS} times; a read at clock {@code c} must see at
 * least {@code c + (W - 1) max(0, c - s)} and at most {@code c + (W - 1)(c + s + 1)}. Intents
 * (technique ADAPTIVE) make every node replicate the keys. At the end every key holds
 * {@code W * CLOCKS} on every node.
 *
 * <p>Prints {@code reads N, out of bounds V} (and the first violations), {@code sums exact: K keys = X}
 * or the mismatches, and the node's staleness metrics; exits 0 if all was well, else 1.
 */
public final class ConsistencyNode {
    static final String TABLE = "t";
    static final int KEYS = 6;
    static final int WORKERS = 2;
    static final int CLOCKS = 24;

    private ConsistencyNode() {
    }

    public static void main(String[] args) {
        ChildMain.exitWith(() -> run(Consistency.parse(args[0])));
    }

    private static int run(Consistency model) throws InterruptedException {
        try (AdaPS node = AdaPS.builder().fromEnvironment()
                .table(TableSpec.of(TABLE, KEYS, 1).withConsistency(model))
                .technique(Technique.ADAPTIVE)
                .heartbeatInterval(Duration.ofMillis(200))
                .failureTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(20))
                .barrierTimeout(Duration.ofSeconds(30))
                .build()) {
            int workers = node.clusterSize() * WORKERS;
            int s = model.staleness();
            long[] keys = new long[KEYS];
            Arrays.setAll(keys, i -> i);
            // The workers open before any advances: a node that has not opened one holds the others at clock 0.
            List<long[]> results = ChildMain.runWorkers(node, WORKERS, "consistency-worker", Duration.ofSeconds(60),
                    (index, worker) -> work(worker, workers, s, keys));
            long reads = 0;
            long violations = 0;
            for (long[] result : results) {
                reads += result[0];
                violations += result[1];
            }
            node.barrier(); // every worker of the cluster is done
            float[] values = new float[KEYS];
            try (Worker reader = node.worker()) {
                reader.table(TABLE).pull(keys, values);
            }
            int mismatches = 0;
            for (int k = 0; k < KEYS; k++) {
                if (values[k] != (float) workers * CLOCKS) {
                    mismatches++;
                    System.out.println("mismatch: key " + k + " is " + values[k] + " (expected " + workers * CLOCKS + ")");
                }
            }
            if (mismatches == 0) {
                System.out.println("sums exact: " + KEYS + " keys = " + workers * CLOCKS);
            }
            System.out.println("reads " + reads + ", out of bounds " + violations);
            StalenessMetrics staleness = node.metrics().staleness(TABLE);
            System.out.println("staleness " + staleness.consistency() + ": max " + staleness.maxStaleness()
                    + ", reads counted " + staleness.reads());
            boolean withinBound = s < 0 || staleness.maxStaleness() <= s;
            node.barrier(); // nobody leaves while another still reads
            return mismatches == 0 && violations == 0 && withinBound && staleness.consistency().equals(model) ? 0 : 1;
        }
    }

    /** One worker's clocks; returns its reads and how many values were out of bounds. */
    private static long[] work(Worker worker, int workers, int s, long[] keys) {
        TableView table = worker.table(TABLE);
        table.intent(keys, 0, CLOCKS);
        float[] ones = new float[KEYS];
        Arrays.fill(ones, 1f);
        float[] values = new float[KEYS];
        long reads = 0;
        long violations = 0;
        for (int c = 0; c < CLOCKS; c++) {
            table.pull(keys, values);
            reads++;
            long least = c + (workers - 1L) * (s < 0 ? 0 : Math.max(0, c - s));
            long most = s < 0 ? Long.MAX_VALUE : c + (workers - 1L) * (c + s + 1);
            for (int k = 0; k < KEYS; k++) {
                long value = (long) values[k];
                if (value < least || value > most) {
                    if (violations++ < 10) {
                        System.out.println("out of bounds: key " + k + " read at clock " + c + " is " + value
                                + " (expected " + least + ".." + most + ")");
                    }
                }
            }
            table.push(keys, ones);
            worker.advanceClock();
        }
        worker.waitAll();
        worker.waitSync();
        worker.close();
        return new long[] {reads, violations};
    }
}
