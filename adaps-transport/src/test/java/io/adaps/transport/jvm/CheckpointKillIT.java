package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.Worker;

/**
 * A node JVM killed with SIGKILL in the middle of writing its data file, while the cluster
 * checkpoints round after round (three JVMs over Netty, 9 MiB per checkpoint): the newest
 * published checkpoint in the directory is complete and exact, and restores (onto a single node)
 * with every value equal to its generation; the killed node's half-written file is left behind,
 * part of no checkpoint.
 */
class CheckpointKillIT {
    private static final int NODES = 3;
    private static final int VICTIM = 1;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theNewestPublishedCheckpointSurvivesAKilledNode() throws Exception {
        try (NodeJvms jvms = NodeJvms.start(NODES, CheckpointNode.class, List.of(dir.toString()))) {
            jvms.output().awaitLine(0, "checkpoint 3", Duration.ofSeconds(60));
            Path writing = awaitVictimWriting(Duration.ofSeconds(30));
            jvms.process(VICTIM).destroyForcibly();
            assertThat(writing).as("the victim's file it was writing when killed").exists();
            NodeJvms.Exits exits = jvms.awaitExit(Duration.ofSeconds(60));
            assertThat(exits.timedOut()).as("the survivors stop on their own; output:%n%s", jvms.output()).isFalse();
            assertThat(exits.codes().get(VICTIM)).isEqualTo(128 + 9);
        }
        List<String> left = names();
        Path newest = left.stream().filter(name -> name.matches("MANIFEST-\\d+")).sorted()
                .reduce((a, b) -> b).map(dir::resolve).orElseThrow();
        long generation = Long.parseLong(newest.getFileName().toString().substring("MANIFEST-".length()));
        assertThat(generation).as("files left: %s", left).isGreaterThanOrEqualTo(3);

        try (AdaPS restored = AdaPS.builder().table(CheckpointNode.table()).restoreFrom(dir).build();
             Worker worker = restored.worker()) {
            assertThat(restored.restoredFrom().orElseThrow().generation()).isEqualTo(generation);
            assertThat(restored.restoredFrom().orElseThrow().nodes()).isEqualTo(NODES);
            float[] value = new float[CheckpointNode.VALUE_LENGTH];
            for (long row = 0; row < CheckpointNode.ROWS; row++) {
                worker.pull(row, value, 0);
                for (float component : value) {
                    if (component != generation) {
                        throw new AssertionError("row " + row + " holds " + component + " in checkpoint " + generation
                                + " (expected " + generation + ", one push per round); files left: " + left);
                    }
                }
            }
        }
    }

    /**
     * Waits (in steps of a millisecond) until the victim is writing a data file of a checkpoint
     * after the third, and returns that file's temporary name.
     */
    private Path awaitVictimWriting(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String name : names()) {
                if (name.matches("g\\d+-t0-n" + VICTIM + "\\.data\\.tmp")
                        && Long.parseLong(name.substring(1, name.indexOf('-'))) > 3) {
                    return dir.resolve(name);
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("node " + VICTIM + " wrote no data file after checkpoint 3 within " + timeout
                + "; files: " + names());
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
