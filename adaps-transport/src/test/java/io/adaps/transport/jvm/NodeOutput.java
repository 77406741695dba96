package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.adaps.testing.Await;

/**
 * What the node JVMs of a test printed, line by line with the time each line arrived (a test
 * measures how soon a node reported something), also echoed to this JVM's stdout, which the test
 * reports keep.
 */
final class NodeOutput {
    /** A line of {@code node}'s stdout or stderr ({@code error}), received at {@code nanos}. */
    record Line(int node, boolean error, String text, long nanos) {
        @Override
        public String toString() {
            return "[node " + node + (error ? " err] " : "] ") + text;
        }
    }

    private final List<Line> lines = new ArrayList<>();

    /** Records a line; called by the threads that read the JVMs' output. */
    void add(int node, boolean error, String text) {
        Line line = new Line(node, error, text, System.nanoTime());
        synchronized (this) {
            lines.add(line);
        }
        System.out.println(line);
    }

    /** The lines of {@code node} (stdout and stderr, in arrival order), joined by newlines. */
    synchronized String text(int node) {
        return lines.stream().filter(line -> line.node() == node).map(Line::text).collect(Collectors.joining("\n"));
    }

    /** The first line of {@code node} that contains {@code fragment}, or null. */
    synchronized Line firstLine(int node, String fragment) {
        return lines.stream().filter(line -> line.node() == node && line.text().contains(fragment)).findFirst()
                .orElse(null);
    }

    /**
     * The first line of {@code node} that contains {@code fragment}, waiting for it.
     *
     * @throws AssertionError if none arrives within {@code timeout}
     */
    Line awaitLine(int node, String fragment, Duration timeout) throws InterruptedException {
        Await.until("node " + node + " printing a line with '" + fragment + "'", timeout,
                () -> firstLine(node, fragment) != null);
        return firstLine(node, fragment);
    }

    /**
     * Group {@code group} of the first match of {@code pattern} in the output of {@code node}.
     *
     * @throws AssertionError with the node's output if nothing matches
     */
    String group(int node, Pattern pattern, int group) {
        String text = text(node);
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            fail("node %d printed no line matching '%s'; its output:%n%s", node, pattern, text);
        }
        return matcher.group(group);
    }

    /** {@link #group} as a number. */
    long number(int node, Pattern pattern, int group) {
        return Long.parseLong(group(node, pattern, group));
    }

    /** Every line of every node, in arrival order. */
    @Override
    public synchronized String toString() {
        return lines.stream().map(Line::toString).collect(Collectors.joining("\n"));
    }
}
