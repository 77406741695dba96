package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.examples.Examples;
import io.adaps.examples.RestartRuns;
import picocli.CommandLine;

/**
 * Durable training across a crash: {@code mf} on three JVMs with periodic checkpoints, which are
 * cut mid-epoch; once the newest is one cut mid-epoch, one node's JVM is killed with SIGKILL. The
 * launcher ({@code --restarts 1}) stops the others and starts every node again with
 * {@code --resume}: the restarted cluster continues within the epoch, with the steps after the
 * cut, trains every entry of every epoch exactly once (the entries the killed run trained before
 * the cut and those the runs reported add up to an uninterrupted run's) and ends with the test
 * RMSE of an uninterrupted run.
 *
 * <p>The runs use {@code RELOCATION_ONLY}, the blocked schedule in which every parameter has one
 * writer at a time: it trains the same way in every run (three runs of these flags ended at the
 * same test RMSE, 0.1127, to four digits), so a restore that lost or doubled anything shows. The
 * Hogwild plans of the other techniques, with replicas of every column of this small matrix on
 * three nodes sharing two cores, ended anywhere from 0.117 to 0.32 in runs of the same flags
 * (issue 14: concurrent replicas' steps are added), which no bound can tell from a bad restore.
 */
class MfRestartIT {
    private static final double NOISE = 0.1;
    private static final int EPOCHS = 10;
    /** Training entries: 90% of the generated ones. */
    private static final long ENTRIES = 360_000;
    /**
     * A few checkpoints per second: some cut mid-epoch (in two runs the third, in epoch 1, whose
     * training the JIT makes long, then none until epoch 7), the others at the barriers around
     * the evaluation, which takes about as long as training here. Long against a checkpoint's
     * write (50 to 250 ms in all here), so that the kill follows the newest checkpoint before the
     * next is taken.
     */
    private static final String PERIOD = "500ms";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aClusterKilledMidEpochResumesAfterTheCutOfItsLastCheckpoint() throws Exception {
        Path checkpoints = dir.resolve("checkpoints");
        RestartRuns.Resumed run = RestartRuns.killAndResume(checkpoints, launch(checkpoints, 1), 3,
                "a checkpoint cut mid-epoch", at -> at.begun() && at.step() < at.steps());
        int epoch = run.epoch();
        assertThat(run.step()).isPositive().isLessThan(run.steps());
        long beforeCut = run.beforeCut();
        String beforeRestart = run.beforeRestart();
        String afterRestart = run.afterRestart();
        long trained = beforeCut;
        for (int e = 1; e <= EPOCHS; e++) {
            List<Long> before = RestartRuns.entries(beforeRestart, e);
            List<Long> after = RestartRuns.entries(afterRestart, e);
            if (e < epoch) {
                assertThat(before).as("epoch %d before the restart", e).hasSize(1);
                assertThat(after).as("epoch %d after the restart", e).isEmpty();
                trained += before.get(0);
            } else {
                assertThat(after).as("epoch %d after the restart", e).hasSize(1);
                trained += after.get(0);
            }
        }
        // The epoch cut was trained in part before the cut, the rest after the restart: no entry
        // twice, none left out.
        assertThat(beforeCut).isPositive().isLessThan(ENTRIES);
        assertThat(RestartRuns.entries(afterRestart, epoch).get(0)).isEqualTo(ENTRIES - beforeCut);
        assertThat(trained).isEqualTo(EPOCHS * ENTRIES);

        // An uninterrupted run of the same flags ends at the same test RMSE: the blocked schedule is
        // deterministic, so 1% leaves room only for the order of floating-point sums.
        CommandLine uninterrupted = Examples.commandLine();
        StringWriter plain = new StringWriter();
        uninterrupted.setOut(new PrintWriter(plain, true));
        uninterrupted.setErr(new PrintWriter(new StringWriter(), true));
        assertThat(uninterrupted.execute(launch(dir.resolve("uninterrupted"), 0))).isZero();
        long uninterruptedEntries = 0;
        for (int e = 1; e <= EPOCHS; e++) {
            uninterruptedEntries += RestartRuns.entries(plain.toString(), e).get(0);
        }
        assertThat(uninterruptedEntries).isEqualTo(trained);
        double restarted = finalTestRmse(afterRestart);
        double reference = finalTestRmse(plain.toString());
        assertThat(restarted).as("restarted against uninterrupted %s", reference).isCloseTo(reference,
                withPercentage(1)).isLessThan(1.5 * NOISE);
    }

    private static String[] launch(Path checkpoints, int restarts) {
        return new String[] {"launch", "--nodes=3", "--heap=256m", "--restarts=" + restarts, "--", "mf", "--rows=600",
                "--cols=400", "--entries=400000", "--true-rank=4", "--noise=" + NOISE, "--rank=16",
                "--epochs=" + EPOCHS, "--threads=1", "--technique=RELOCATION_ONLY", "--checkpoint-dir=" + checkpoints,
                "--checkpoint-every=" + PERIOD};
    }

    private static double finalTestRmse(String output) {
        Matcher last = Pattern.compile("epoch +" + EPOCHS + ": .* train RMSE (\\S+), test RMSE (\\S+)").matcher(output);
        assertThat(last.find()).as(output).isTrue();
        return Double.parseDouble(last.group(2));
    }
}
