package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.examples.RestartRuns;

/**
 * Shares by speed across a crash: {@code w2v} on two JVMs with periodic checkpoints, killed once
 * the newest checkpoint is cut in the middle of epoch 2 or later, when the nodes train shares that
 * the speeds of the epochs before set. The launcher ({@code --restarts 1}) starts both again with
 * {@code --resume}, and the restarted nodes must train the rest of the cut epoch in the same shares
 * (computed again from the rounds the checkpoint holds): then the words trained before the cut
 * and after it add up to the corpus's training words, none twice, none left out. Shares computed
 * afresh (even ones, or other speeds) would cut the remaining chunks from other sentences. Whether
 * the shares moved before the cut depends on how the two processors ran (they move only for a
 * difference of 22% or more); {@code SpeedRoundsTest} checks that a resumed run computes the shares
 * it continues with from the rounds it reads again.
 */
class W2vRestartIT {
    private static final int EPOCHS = 6;
    /** A few checkpoints per epoch, some of them cut mid-epoch. */
    private static final String PERIOD = "300ms";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aClusterKilledMidEpochTrainsTheRestOfItInTheSameShares() throws Exception {
        Path checkpoints = dir.resolve("checkpoints");
        RestartRuns.Resumed run = RestartRuns.killAndResume(checkpoints, launch(checkpoints), 2,
                "a checkpoint cut in the middle of epoch 2 or later",
                at -> at.epoch() >= 2 && at.begun() && at.step() < at.steps());
        String output = run.output();
        int epoch = run.epoch();
        assertThat(epoch).isGreaterThanOrEqualTo(2);
        long beforeCut = run.beforeCut();
        String afterRestart = run.afterRestart();
        long words = Long.parseLong(line(output, "training: \\d+ sentences, (\\d+) words").group(1));
        assertThat(beforeCut).isPositive().isLessThan(words);
        assertThat(RestartRuns.entries(afterRestart, epoch)).as(afterRestart).containsExactly(words - beforeCut);
        for (int e = epoch + 1; e <= EPOCHS; e++) {
            assertThat(RestartRuns.entries(afterRestart, e)).as("epoch %d after the restart", e).containsExactly(words);
        }
    }

    private static String[] launch(Path checkpoints) {
        return new String[] {"launch", "--nodes=2", "--heap=256m", "--restarts=1", "--", "w2v", "--max-lines=3000",
                "--dim=32", "--epochs=" + EPOCHS, "--threads=1", "--checkpoint-dir=" + checkpoints,
                "--checkpoint-every=" + PERIOD};
    }

    private static Matcher line(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertThat(matcher.find()).as("a line matching %s in%n%s", pattern, output).isTrue();
        return matcher;
    }
}
