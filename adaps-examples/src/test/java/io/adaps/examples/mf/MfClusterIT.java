package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.adaps.examples.Examples;
import picocli.CommandLine;

/**
 * The {@code mf} application on a cluster of two JVMs, started by {@code launch}: each node trains
 * on its half of the entries, most accesses cross the network, and the model still reaches the
 * noise level (the criterion of the single-node {@link MfTrainerTest}).
 */
class MfClusterIT {
    private static final double NOISE = 0.1;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void twoNodesConvergeToTheNoiseLevelOnALowRankMatrix() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        int exitCode = commandLine.execute("launch", "--nodes=2", "--heap=256m", "--", "mf", "--rows=400",
                "--cols=300", "--entries=120000", "--true-rank=4", "--noise=" + NOISE, "--rank=16", "--epochs=9",
                "--threads=1");

        String output = out.toString();
        assertThat(exitCode).as("%s%n%s", output, err).isZero();
        assertThat(output)
                .contains("[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries")
                .contains("[node 0] node 0 of 2: trains on 54000 entries, tests on 6000")
                .contains("[node 1] node 1 of 2: trains on 54000 entries, tests on 6000");
        // The signal has standard deviation 1/sqrt(trueRank) = 0.5; the noise (0.1) is the floor.
        double[] initial = rmses(output, "epoch +0: initial model +train RMSE (\\S+), test RMSE (\\S+)");
        assertThat(initial[0]).isGreaterThan(4 * NOISE);
        assertThat(initial[1]).isGreaterThan(4 * NOISE);
        double[] last = rmses(output, "epoch +9: .* train RMSE (\\S+), test RMSE (\\S+)");
        assertThat(last[0]).isLessThan(1.2 * NOISE);
        assertThat(last[1]).isLessThan(1.2 * NOISE);
        for (int node = 0; node < 2; node++) {
            Matcher metrics = Pattern.compile("\\[node " + node + "] after epoch 9, node " + node
                    + ": 2 workers; local pull/push/set (\\d+)/(\\d+)/0, remote (\\d+)/(\\d+)/0").matcher(output);
            assertThat(metrics.find()).as(output).isTrue();
            for (int group = 1; group <= 4; group++) {
                assertThat(Long.parseLong(metrics.group(group))).isPositive();
            }
        }
    }

    /** The train and test RMSE on the first line matching {@code pattern}. */
    private static double[] rmses(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertThat(matcher.find()).as("a line matching %s in%n%s", pattern, output).isTrue();
        return new double[] {Double.parseDouble(matcher.group(1)), Double.parseDouble(matcher.group(2))};
    }
}
