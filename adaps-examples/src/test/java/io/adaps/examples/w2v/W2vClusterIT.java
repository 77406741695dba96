package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaps.examples.Examples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The {@code w2v} application on a cluster of two JVMs, started by {@code launch}, on the first
 * Europarl lines: node 0 (and only node 0) prints a machine-readable line per epoch, and the
 * training and held-out losses fall, whether half of the accesses cross the network (STATIC) or
 * the library decides by the intents (ADAPTIVE with PRELOCALIZE, whose sampling scheme moves the
 * negatives here): a chunk reads each table in one call per clock, so ADAPTIVE leaves the words'
 * rows where they are, while the sampling scheme's relocations still happen.
 */
class W2vClusterIT {
    private static final int EPOCHS = 3;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void adaptiveWithPrelocalizedSamplesLeavesTheBatchReadRowsInPlaceAndLearns() {
        String output = launch("ADAPTIVE", "PRELOCALIZE");
        assertThat(output).containsPattern("\\[node 0] training: 2 node\\(s\\) x 1 thread\\(s\\), \\d+ chunks per thread "
                + "and epoch \\(about " + ChunkSchedule.DEFAULT_CHUNK_WORDS + " words each at even shares; shares by speed\\), "
                + "intent 2 chunks ahead; technique ADAPTIVE, sampling PRELOCALIZE, consistency essp:4");
        // Shares that follow the nodes' speeds are printed when they move (after epoch 2 at the earliest).
        Matcher shares = Pattern.compile("\\[node 0]  +shares of the next epoch's sentences, by speed: "
                + "(\\d+\\.\\d)% / (\\d+\\.\\d)%").matcher(output);
        int lines = 0;
        while (shares.find()) {
            lines++;
            double sum = Double.parseDouble(shares.group(1)) + Double.parseDouble(shares.group(2));
            assertThat(sum).isBetween(99.9, 100.1);
        }
        assertThat(lines).isLessThanOrEqualTo(EPOCHS - 2);
        double[] local = assertLearns(output);
        assertThat(local[EPOCHS]).isGreaterThan(0.35);
        for (int node = 0; node < 2; node++) {
            Matcher metrics = line(output, "\\[node " + node + "] after training, node " + node
                    + ": \\d workers; .* relocated in (\\d+),");
            assertThat(Long.parseLong(metrics.group(1))).as("relocations into node %d", node).isPositive();
            Matcher left = line(output, "\\[node " + node + "]   replicas held .* (\\d+) keys left in place;");
            assertThat(Long.parseLong(left.group(1))).as("keys left in place by node %d", node).isPositive();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void staticLearnsWithAboutHalfTheAccessesRemote() {
        String output = launch("STATIC", "NAIVE");
        double[] local = assertLearns(output);
        // Hash partitioning spreads the frequent words over both nodes.
        assertThat(local[EPOCHS]).isBetween(0.35, 0.65);
        assertThat(output).containsPattern("\\[node 1] after training, node 1: \\d workers; .* relocated in 0,");
    }

    /** The output of {@code w2v} on a two-node cluster with one thread per node. */
    private static String launch(String technique, String sampling) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        int exitCode = commandLine.execute("launch", "--nodes=2", "--heap=256m", "--", "w2v", "--max-lines=3000",
                "--dim=32", "--epochs=" + EPOCHS, "--threads=1", "--technique=" + technique, "--sampling=" + sampling);

        String output = out.toString();
        assertThat(exitCode).as("%s%n%s", output, err).isZero();
        return output;
    }

    /**
     * Checks node 0's RESULT lines (and that node 1 prints none): the training and held-out losses
     * fall epoch by epoch, and node 0 sent bytes in every epoch (its total grows); returns the
     * cluster's local fractions.
     */
    private static double[] assertLearns(String output) {
        assertThat(output).doesNotContain("[node 1] RESULT");
        double initial = Double.parseDouble(line(output, "\\[node 0] epoch +0: initial model +held-out loss (\\S+),")
                .group(1));
        double previousLoss = Double.POSITIVE_INFINITY;
        double previousHeldOut = initial;
        long previousBytes = 0;
        double[] local = new double[EPOCHS + 1];
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            Matcher result = line(output, "\\[node 0] RESULT epoch=" + epoch + " seconds=\\d+\\.\\d{3} "
                    + "loss=(\\d\\.\\d{6}) heldout=(\\d\\.\\d{6}) similarity=(0\\.\\d{4}) local=([01]\\.\\d{4}) "
                    + "bytes=(\\d+) entries=[1-9]\\d*\\R");
            double loss = Double.parseDouble(result.group(1));
            double heldOut = Double.parseDouble(result.group(2));
            assertThat(loss).as("training loss of epoch %d", epoch).isLessThan(previousLoss);
            assertThat(heldOut).as("held-out loss after epoch %d", epoch).isLessThan(previousHeldOut);
            long bytes = Long.parseLong(result.group(5));
            assertThat(bytes).as("bytes sent by node 0 up to epoch %d", epoch).isGreaterThan(previousBytes);
            previousBytes = bytes;
            local[epoch] = Double.parseDouble(result.group(4));
            previousLoss = loss;
            previousHeldOut = heldOut;
        }
        return local;
    }

    /** The first line matching {@code pattern}. */
    private static Matcher line(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertThat(matcher.find()).as("a line matching %s in%n%s", pattern, output).isTrue();
        return matcher;
    }
}
