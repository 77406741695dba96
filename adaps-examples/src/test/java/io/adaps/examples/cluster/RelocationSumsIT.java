package io.adaps.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.adaps.examples.launch.LocalCluster;
import io.adaps.examples.launch.RecordingOutput;

/**
 * Three node JVMs push to, pull from and {@code localize} the few rows of a small table all at
 * once, so that rows move between the nodes while the others access them (see
 * {@link RelocationNode}, which checks every pull): no update is lost or applied twice, each
 * node sees the same, exact sum at the end, and rows really moved.
 */
class RelocationSumsIT {
    private static final int NODES = 3;
    private static final Pattern PUSHED = Pattern.compile("^pushed (\\d+)$", Pattern.MULTILINE);
    private static final Pattern SEEN = Pattern.compile("^sum seen (\\d+)$", Pattern.MULTILINE);
    private static final Pattern MOVES = Pattern.compile("^relocations in (\\d+) out (\\d+) forwarded (\\d+)$",
            Pattern.MULTILINE);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void pushesAddUpExactlyOnEveryNodeWhileRowsMove() throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        LocalCluster.Spec spec = new LocalCluster.Spec(NODES, RelocationNode.class.getName(), List.of(),
                System.getProperty("java.class.path"), "128m", Duration.ofSeconds(10));
        try (LocalCluster cluster = LocalCluster.start(spec, output)) {
            LocalCluster.Outcome outcome = cluster.await(Duration.ofSeconds(60));

            failWithTheFailedNodesOutput(outcome, output);
            long pushed = 0;
            long[] seen = new long[NODES];
            long movedIn = 0;
            long movedOut = 0;
            long forwarded = 0;
            for (int node = 0; node < NODES; node++) {
                String text = output.text(node);
                pushed += number(PUSHED, text, 1, node);
                seen[node] = number(SEEN, text, 1, node);
                movedIn += number(MOVES, text, 1, node);
                movedOut += number(MOVES, text, 2, node);
                forwarded += number(MOVES, text, 3, node);
            }
            assertThat(pushed).as("increments pushed by all nodes").isPositive();
            for (int node = 0; node < NODES; node++) {
                assertThat(seen[node]).as("sum of all rows seen from node %d (all nodes pushed %d)", node, pushed)
                        .isEqualTo(pushed);
            }
            assertThat(movedIn).as("rows moved in, over all nodes").isPositive().isEqualTo(movedOut);
            assertThat(forwarded).as("requests forwarded, over all nodes").isPositive();
        }
    }

    /**
     * Fails if a node did not exit 0, with the output of every node that did not, in the order in
     * which they reported a failed worker: the first is usually the cause, and the others failed
     * for want of it (a node that failed without such a report comes last).
     */
    private static void failWithTheFailedNodesOutput(LocalCluster.Outcome outcome, RecordingOutput output)
            throws InterruptedException {
        List<Integer> codes = outcome.exitCodes();
        if (codes.stream().allMatch(code -> code == 0)) {
            return;
        }
        List<Integer> failed = new ArrayList<>();
        long[] reported = new long[codes.size()];
        for (int node = 0; node < codes.size(); node++) {
            if (codes.get(node) != 0) {
                failed.add(node);
                reported[node] = Long.MAX_VALUE;
                try {
                    // The output is complete (the nodes have exited): look without waiting.
                    reported[node] = output.awaitLine(node, RelocationNode.FAILURE, Duration.ofNanos(1)).nanos();
                } catch (AssertionError noReport) {
                    // Failed without a worker failing (start-up, barrier, final check, stopped).
                }
            }
        }
        failed.sort(Comparator.comparingLong((Integer node) -> reported[node]));
        StringBuilder report = new StringBuilder("exit codes " + codes)
                .append(outcome.timedOut() ? " (nodes still running after 60 s were stopped)" : "")
                .append("; failed nodes in the order they reported it: ").append(failed);
        for (int node : failed) {
            report.append(String.format("%n--- output of node %d (exit code %d):%n", node, codes.get(node)))
                    .append(output.text(node));
        }
        fail(report.toString());
    }

    /** Group {@code group} of the line of {@code node} that {@code pattern} matches, as a number. */
    private static long number(Pattern pattern, String text, int group, int node) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            fail("node %d printed no line matching '%s'; its output:%n%s", node, pattern, text);
        }
        return Long.parseLong(matcher.group(group));
    }
}
