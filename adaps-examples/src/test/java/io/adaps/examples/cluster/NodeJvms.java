package io.adaps.examples.cluster;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaps.examples.launch.LocalCluster;
import io.adaps.examples.launch.RecordingOutput;

/** Runs the node JVMs of a multi-process test to their end and reads what they printed. */
final class NodeJvms {
    /** How long the other nodes may run on after one failed (they notice within their failure timeout). */
    private static final Duration FAILURE_GRACE = Duration.ofSeconds(10);

    private NodeJvms() {
    }

    /**
     * Starts {@code nodes} JVMs running {@code mainClass} with {@code args} (heap 128 MiB, this
     * JVM's class path), waits until all exited (stopping them after {@code timeout}) and returns
     * their output. Fails, with the output (stdout and stderr) of every node that did not exit 0,
     * if any did not, naming the main class and its arguments.
     */
    static RecordingOutput run(int nodes, Class<?> mainClass, List<String> args, Duration timeout)
            throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        LocalCluster.Spec spec = new LocalCluster.Spec(nodes, mainClass.getName(), args,
                System.getProperty("java.class.path"), "128m", FAILURE_GRACE);
        try (LocalCluster cluster = LocalCluster.start(spec, output)) {
            LocalCluster.Outcome outcome = cluster.await(timeout);
            failWithTheFailedNodesOutput(mainClass.getSimpleName() + " " + args, outcome, output, timeout);
        }
        return output;
    }

    /**
     * Fails if a node did not exit 0, with the output of every node that did not, in the order in
     * which they reported a failed worker ({@link ChildMain#FAILURE}): the first is usually the
     * cause, and the others failed for want of it (a node that failed without such a report comes
     * last).
     */
    private static void failWithTheFailedNodesOutput(String run, LocalCluster.Outcome outcome, RecordingOutput output,
                                                     Duration timeout) throws InterruptedException {
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
                    reported[node] = output.awaitLine(node, ChildMain.FAILURE, Duration.ofNanos(1)).nanos();
                } catch (AssertionError noReport) {
                    // Failed without a worker failing (start-up, barrier, final check, stopped).
                }
            }
        }
        failed.sort(Comparator.comparingLong((Integer node) -> reported[node]));
        StringBuilder report = new StringBuilder(run + ": exit codes " + codes)
                .append(outcome.timedOut() ? " (nodes still running after " + timeout.toSeconds() + " s were stopped)" : "")
                .append("; failed nodes in the order they reported it: ").append(failed);
        for (int node : failed) {
            report.append(String.format("%n--- output of node %d (exit code %d):%n", node, codes.get(node)))
                    .append(output.text(node));
        }
        fail(report.toString());
    }

    /** Group {@code group} of the line of {@code node} that {@code pattern} matches, as a number. */
    static long number(Pattern pattern, String text, int group, int node) {
        return Long.parseLong(group(pattern, text, group, node));
    }

    /** Group {@code group} of the line of {@code node} that {@code pattern} matches. */
    static String group(Pattern pattern, String text, int group, int node) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            fail("node %d printed no line matching '%s'; its output:%n%s", node, pattern, text);
        }
        return matcher.group(group);
    }
}
