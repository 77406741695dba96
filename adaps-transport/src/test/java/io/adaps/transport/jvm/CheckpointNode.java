package io.adaps.transport.jvm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;

/**
 * One node of {@link CheckpointKillIT}, a JVM of its own with {@code ADAPS_*} in its environment.
 *
 * <p>Round after round, its worker adds 1 to every component of every row this node is home of,
 * then the cluster takes a checkpoint into {@code args[0]} and the node prints
 * {@code checkpoint G}; so in checkpoint G every value is G. It goes on until an operation fails
 * (a peer was killed), then exits 1, or after {@value #MAX_ROUNDS} rounds, then exits 0.
 */
public final class CheckpointNode {
    static final int ROWS = 150_000;
    static final int VALUE_LENGTH = 16;
    private static final int MAX_ROUNDS = 500;
    private static final int BATCH = 1024;

    private CheckpointNode() {
    }

    /** The table every node declares, and the restore in the test too. */
    static TableSpec table() {
        return TableSpec.of("values", ROWS, VALUE_LENGTH);
    }

    /** Runs the node; see the class comment. */
    public static void main(String[] args) {
        ChildMain.exitWith(() -> run(Path.of(args[0])));
    }

    private static int run(Path dir) {
        try (AdaPS node = AdaPS.builder().fromEnvironment().technique(Technique.STATIC).table(table())
                .heartbeatInterval(Duration.ofMillis(200))
                .failureTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(10))
                .barrierTimeout(Duration.ofSeconds(30))
                .build();
             Worker worker = node.worker()) {
            int share = (ROWS + node.clusterSize() - 1) / node.clusterSize(); // range partitioning
            long first = (long) node.nodeId() * share;
            long end = Math.min(ROWS, first + share);
            long[] keys = new long[BATCH];
            float[] ones = new float[BATCH * VALUE_LENGTH];
            Arrays.fill(ones, 1f);
            for (int round = 1; round <= MAX_ROUNDS; round++) {
                for (long row = first; row < end; row += BATCH) {
                    int n = (int) Math.min(BATCH, end - row);
                    for (int i = 0; i < n; i++) {
                        keys[i] = row + i;
                    }
                    worker.push(keys, 0, n, ones, 0);
                }
                CheckpointResult result = node.checkpoint(dir);
                System.out.println("checkpoint " + result.generation());
                System.out.flush();
            }
            return 0;
        }
    }
}
