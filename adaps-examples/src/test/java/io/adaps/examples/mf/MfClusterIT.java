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
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

/**
 * The {@code mf} application on a cluster of two JVMs, started by {@code launch}, under each
 * technique: the model reaches the noise level (the criterion of the single-node
 * {@link MfTrainerTest}) whether most accesses cross the network (STATIC, Hogwild on half of the
 * entries each) or almost none do (RELOCATION_ONLY, the blocked schedule), and with intent signals
 * (ADAPTIVE, Hogwild on each node's rows).
 */
class MfClusterIT {
    private static final double NOISE = 0.1;
    private static final int EPOCHS = 9;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void staticTwoNodesConvergeWithManyAccessesRemote() {
        String output = launch("STATIC");
        assertThat(output)
                .contains("[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique STATIC, "
                        + "consistency essp:4, Hogwild schedule")
                .contains("[node 0] node 0 of 2: trains on 54000 entries, tests on 6000")
                .contains("[node 1] node 1 of 2: trains on 54000 entries, tests on 6000");
        assertConverges(output);
        // Half of each node's rows and columns are here: the quarter of its entries with both here are
        // stepped in place, counted per entry; the others' rows are pulled and pushed once per batch
        // (0.77 local in a run of the build that added the in-place steps, 0.4-0.6 before them).
        assertThat(localFraction(output)).isBetween(0.5, 0.9);
        for (int node = 0; node < 2; node++) {
            Matcher metrics = metrics(output, node);
            for (int group = 1; group <= 4; group++) {
                assertThat(Long.parseLong(metrics.group(group))).isPositive();
            }
            assertThat(metrics.group(5)).as("relocated in").isEqualTo("0");
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void relocationOnTwoNodesConvergesWithAlmostAllAccessesLocal() {
        String output = launch("RELOCATION_ONLY");
        assertThat(output).contains("[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique "
                + "RELOCATION_ONLY, consistency essp:4, blocked schedule: 8 sub-epochs of 4 prefetched chunks");
        assertConverges(output);
        assertThat(localFraction(output)).isGreaterThan(0.9);
        long relocated = 0;
        for (int node = 0; node < 2; node++) {
            relocated += Long.parseLong(metrics(output, node).group(5));
        }
        assertThat(relocated).as("relocations into both nodes").isPositive();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void adaptiveOnTwoNodesConvergesWithIntentSignalsAndReportsResultLines() {
        String output = launch("ADAPTIVE");
        assertThat(output).contains("[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique "
                + "ADAPTIVE, consistency essp:4, Hogwild on the node's rows and its share of the hottest rows, with "
                + "intent signals for its rows per epoch and its columns per 2 chunks of 256 batches (at least 4 "
                + "chunks per thread), each 64 batches' entries by 8 blocks of columns");
        assertThat(output).containsPattern("\\[node 0] training: .* per 2 chunks of 256 batches \\(at least 4 chunks per "
                + "thread\\), each 64 batches' entries by 8 blocks of columns; shares by speed; steps of \\d+ rows and \\d+ "
                + "columns above 1/4096 of the entries and the mean scaled by "
                + "their frequency\\R");
        assertConverges(output);
        // Node 0, and only node 0, prints a machine-readable line per epoch.
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            Matcher result = line(output, "\\[node 0] RESULT epoch=" + epoch
                    + " seconds=\\d+\\.\\d{3} rmse=(\\d\\.\\d{6}) local=([01]\\.\\d{4}) bytes=(\\d+) entries=108000\\R");
            assertThat(Long.parseLong(result.group(3))).isPositive();
        }
        assertThat(output).doesNotContain("[node 1] RESULT");
        for (int node = 0; node < 2; node++) {
            assertThat(Long.parseLong(line(output, "\\[node " + node + "] node " + node
                    + " summary: sent \\d+ bytes .* (\\d+) intents signalled").group(1))).isPositive();
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void adaptiveOnTheBlockedScheduleHandsTheBlocksOnAndConverges() {
        String output = launch("ADAPTIVE", "--schedule=BLOCKED", "--consistency=bsp");
        assertThat(output).contains("[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique "
                + "ADAPTIVE, consistency bsp, blocked schedule: 8 sub-epochs of 4 chunks, with intent signals per "
                + "sub-epoch");
        assertConverges(output);
        assertThat(localFraction(output)).isGreaterThan(0.9);
        for (int node = 0; node < 2; node++) {
            long moved = Long.parseLong(line(output, "\\[node " + node + "]   replicas held \\d+, created \\d+, .* (\\d+) "
                    + "relocations asked for by the manager").group(1));
            assertThat(moved).as("node %d's relocations by intent", node).isPositive();
        }
    }

    /** The output of {@code mf} on a two-node cluster with one thread per node under {@code technique}. */
    private static String launch(String technique, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        List<String> args = new ArrayList<>(List.of("launch", "--nodes=2", "--heap=256m", "--", "mf", "--rows=400",
                "--cols=300", "--entries=120000", "--true-rank=4", "--noise=" + NOISE, "--rank=16",
                "--epochs=" + EPOCHS, "--threads=1", "--technique=" + technique));
        args.addAll(List.of(options));
        int exitCode = commandLine.execute(args.toArray(String[]::new));

        String output = out.toString();
        assertThat(exitCode).as("%s%n%s", output, err).isZero();
        return output;
    }

    /**
     * The model reaches the noise level in some epoch and is still near it after the last. Hogwild
     * with half of the accesses remote jumps now and then; a run whose last epoch had not yet
     * recovered from a jump (test RMSE 0.1245 after epoch 9 in one CI run, against 0.108-0.111 in
     * twenty others) has converged all the same, while a diverging one ends far above the floor.
     */
    private static void assertConverges(String output) {
        // The signal has standard deviation 1/sqrt(trueRank) = 0.5; the noise (0.1) is the floor.
        Matcher initial = line(output, "epoch +0: initial model +train RMSE (\\S+), test RMSE (\\S+)");
        assertThat(Double.parseDouble(initial.group(1))).isGreaterThan(4 * NOISE);
        assertThat(Double.parseDouble(initial.group(2))).isGreaterThan(4 * NOISE);
        Matcher epoch = Pattern.compile("epoch +(\\d+): .* train RMSE (\\S+), test RMSE (\\S+)").matcher(output);
        double bestTrain = Double.MAX_VALUE;
        double bestTest = Double.MAX_VALUE;
        int epochs = 0;
        double lastTrain = Double.NaN;
        double lastTest = Double.NaN;
        while (epoch.find()) {
            if (epoch.group(1).equals("0")) {
                continue; // the initial model
            }
            epochs++;
            lastTrain = Double.parseDouble(epoch.group(2));
            lastTest = Double.parseDouble(epoch.group(3));
            bestTrain = Math.min(bestTrain, lastTrain);
            bestTest = Math.min(bestTest, lastTest);
        }
        assertThat(epochs).as("epoch lines in%n%s", output).isEqualTo(EPOCHS);
        assertThat(bestTrain).as("best train RMSE in%n%s", output).isLessThan(1.2 * NOISE);
        assertThat(bestTest).as("best test RMSE in%n%s", output).isLessThan(1.2 * NOISE);
        assertThat(lastTrain).as("last train RMSE in%n%s", output).isLessThan(1.5 * NOISE);
        assertThat(lastTest).as("last test RMSE in%n%s", output).isLessThan(1.5 * NOISE);
    }

    /** The cluster's local fraction of the last epoch's training accesses. */
    private static double localFraction(String output) {
        return Double.parseDouble(line(output, "epoch +" + EPOCHS + ": .* (\\S+)% local,").group(1)) / 100;
    }

    /** Node {@code node}'s final metrics: local pulls, pushes, remote pulls, pushes, relocated in (groups 1-5). */
    private static Matcher metrics(String output, int node) {
        return line(output, "\\[node " + node + "] after training, node " + node + ": \\d workers; local pull/push/set "
                + "(\\d+)/(\\d+)/\\d+, remote (\\d+)/(\\d+)/\\d+ .* relocated in (\\d+),");
    }

    /** The first line matching {@code pattern}. */
    private static Matcher line(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertThat(matcher.find()).as("a line matching %s in%n%s", pattern, output).isTrue();
        return matcher;
    }
}
