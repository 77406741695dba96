package io.adaps.examples.launch;

import static io.adaps.examples.Checks.checkNotNull;

import java.io.PrintWriter;

/**
 * Writes the nodes' output to the launcher's stdout and stderr, each line prefixed with
 * {@code [node i] }, and the launcher's notes prefixed with {@code [launch] } on stderr.
 *
 * <p>A node's redrawn text (its progress bar) is drawn in place on the launcher's stream; the
 * node's next line overwrites it, and a line of any other source first ends it with a newline, so
 * no line is drawn over another.
 */
public final class PrefixedConsole implements ClusterOutput {
    private final PrintWriter out;
    private final PrintWriter err;
    /** The stream showing a redrawn, unfinished line, or {@code null}. */
    private PrintWriter redrawn;
    private int redrawnNode;
    private boolean redrawnError;

    /** A console writing to {@code out} and {@code err}. */
    public PrefixedConsole(PrintWriter out, PrintWriter err) {
        this.out = checkNotNull(out, "out");
        this.err = checkNotNull(err, "err");
    }

    @Override
    public synchronized void line(int node, boolean error, String text) {
        PrintWriter target = error ? err : out;
        if (isRedrawnBy(node, error)) {
            target.print('\r');
            redrawn = null;
        } else {
            endRedrawn();
        }
        target.println(prefix(node) + text);
        target.flush();
    }

    @Override
    public synchronized void redraw(int node, boolean error, String text) {
        PrintWriter target = error ? err : out;
        if (!isRedrawnBy(node, error)) {
            endRedrawn();
        }
        target.print('\r' + prefix(node) + text);
        target.flush();
        redrawn = target;
        redrawnNode = node;
        redrawnError = error;
    }

    @Override
    public synchronized void note(String text) {
        endRedrawn();
        err.println("[launch] " + text);
        err.flush();
    }

    private boolean isRedrawnBy(int node, boolean error) {
        return redrawn != null && redrawnNode == node && redrawnError == error;
    }

    private void endRedrawn() {
        if (redrawn != null) {
            redrawn.println();
            redrawn.flush();
            redrawn = null;
        }
    }

    private static String prefix(int node) {
        return "[node " + node + "] ";
    }
}
