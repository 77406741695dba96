package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.examples.Examples;
import io.adaps.testing.Await;
import picocli.CommandLine;

/**
 * Durable training across a crash: {@code mf} on three JVMs with a checkpoint after every epoch;
 * once the second checkpoint is published, one node's JVM is killed with SIGKILL in the middle of
 * the next epoch. The launcher ({@code --restarts 1}) stops the others and starts every node
 * again with {@code --resume}: the restarted cluster continues with the epoch after the newest
 * checkpoint, trains every later epoch exactly once and reaches the noise level that an
 * uninterrupted run reaches ({@link MfClusterIT}'s criterion).
 */
class MfRestartIT {
    private static final double NOISE = 0.1;
    private static final int EPOCHS = 6;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aClusterKilledMidEpochResumesFromItsLastCheckpoint() throws Exception {
        Path checkpoints = dir.resolve("checkpoints");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        AtomicInteger exitCode = new AtomicInteger(-1);
        Thread launcher = new Thread(() -> exitCode.set(commandLine.execute("launch", "--nodes=3", "--heap=256m",
                "--restarts=1", "--", "mf", "--rows=600", "--cols=400", "--entries=400000", "--true-rank=4",
                "--noise=" + NOISE, "--rank=16", "--epochs=" + EPOCHS, "--threads=1",
                "--checkpoint-dir=" + checkpoints)), "launcher");
        launcher.start();

        Await.until("the second checkpoint", Duration.ofSeconds(120),
                () -> Files.exists(checkpoints.resolve("MANIFEST-00000002")));
        List<ProcessHandle> nodes = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        assertThat(nodes).as("the nodes' JVMs").hasSize(3);
        assertThat(nodes.get(1).destroyForcibly()).as("SIGKILL sent").isTrue();

        launcher.join(TimeUnit.SECONDS.toMillis(200));
        String output = out.toString();
        assertThat(launcher.isAlive()).as("launcher still running%n%s%n%s", output, err).isFalse();
        assertThat(exitCode.get()).as("%s%n%s", output, err).isZero();
        assertThat(err.toString()).contains("starting every node again with --resume (restart 1 of 1)");

        Matcher resumed = Pattern.compile("\\[node 0] resumed from " + Pattern.quote(checkpoints.toString())
                + "/MANIFEST-\\d+ after epoch (\\d+)").matcher(output);
        assertThat(resumed.find()).as(output).isTrue();
        int done = Integer.parseInt(resumed.group(1));
        assertThat(done).isBetween(2, EPOCHS - 1);
        String afterRestart = output.substring(resumed.end());
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            long trained = Pattern.compile("\\[node 0] RESULT epoch=" + epoch + " ").matcher(afterRestart).results()
                    .count();
            assertThat(trained).as("epoch %d after the restart", epoch).isEqualTo(epoch <= done ? 0 : 1);
        }
        Matcher last = Pattern.compile("epoch +" + EPOCHS + ": .* train RMSE (\\S+), test RMSE (\\S+)")
                .matcher(afterRestart);
        assertThat(last.find()).as(afterRestart).isTrue();
        assertThat(Double.parseDouble(last.group(1))).isLessThan(1.2 * NOISE);
        assertThat(Double.parseDouble(last.group(2))).isLessThan(1.2 * NOISE);
    }
}
