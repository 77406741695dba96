package io.adaps.examples.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A {@link ClusterOutput} for tests: keeps every line, waits for a line with a bound, and (when
 * asked) echoes everything to stdout, which the test reports keep.
 */
public final class RecordingOutput implements ClusterOutput {
    /** A line of a node (or, with node -1, a note of the launcher). */
    public record Line(int node, boolean error, String text) {
    }

    private final boolean echo;
    private final List<Line> lines = new ArrayList<>();
    private final List<String> events = new ArrayList<>();

    /** A recorder; {@code echo} copies everything to {@code System.out}. */
    public RecordingOutput(boolean echo) {
        this.echo = echo;
    }

    @Override
    public synchronized void line(int node, boolean error, String text) {
        lines.add(new Line(node, error, text));
        record("line " + node + (error ? " err: " : " out: ") + text);
    }

    @Override
    public synchronized void redraw(int node, boolean error, String text) {
        record("redraw " + node + (error ? " err: " : " out: ") + text);
    }

    @Override
    public synchronized void note(String text) {
        lines.add(new Line(-1, true, text));
        record("note: " + text);
    }

    private void record(String event) {
        events.add(event);
        if (echo) {
            System.out.println(event);
        }
        notifyAll();
    }

    /** Everything received, in order: {@code line|redraw <node> out|err: <text>} or {@code note: <text>}. */
    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** The lines of {@code node} (stdout and stderr), joined by newlines. */
    public synchronized String text(int node) {
        return lines.stream().filter(line -> line.node() == node).map(Line::text).collect(Collectors.joining("\n"));
    }

    /**
     * The first line of {@code node} that contains {@code fragment}, waiting up to {@code timeout}
     * for it.
     *
     * @throws AssertionError if none arrives in time, listing what did
     */
    public synchronized Line awaitLine(int node, String fragment, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (Line line : lines) {
                if (line.node() == node && line.text().contains(fragment)) {
                    return line;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("node " + node + " printed no line containing '" + fragment + "' within "
                        + timeout + "; it printed:\n" + text(node));
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
