package io.adaps.examples.mf;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

import io.adaps.api.NodeMetrics;
import io.adaps.api.StalenessMetrics;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * What the examples' runs print besides their own figures: the progress bar of an epoch and each
 * node's summary at the end. Shared by {@code mf} and {@code w2v}.
 */
public final class RunOutput {
    /**
     * Width of the progress bar on a cluster: an 80-column line still fits behind the
     * {@code [node 0] } prefix that the launcher puts before each line of a node.
     */
    private static final int CLUSTER_BAR_WIDTH = 70;
    /** Width of a single node's progress bar without a console: the usual 80-column line. */
    private static final int PIPED_BAR_WIDTH = 80;

    private RunOutput() {
    }

    /**
     * A bar on stderr for epoch {@code epoch} over {@code max} units of work, of which {@code done}
     * are done already (in an epoch resumed mid-way); the training threads move it in coarse
     * steps, and it redraws on its own thread. Make it before an epoch's clock starts.
     *
     * <p>With a console it draws in colour, as wide as the terminal. Without one (output piped or
     * logged, as every node of a local cluster's is) it draws plain ASCII of a fixed width to a
     * consumer of its own: the library would otherwise build a terminal for every bar only to find
     * it dumb, which takes tens of milliseconds on the main thread and, worse, leaves the JIT
     * compiling the terminal's capability parser while the next epoch trains (on a node pinned to
     * one core, C2 time taken from its training thread).
     *
     * @param cluster whether the node is one of several, whose lines the launcher prefixes
     */
    public static ProgressBar progressBar(int epoch, long max, long done, boolean cluster) {
        boolean console = System.console() != null;
        ProgressBarBuilder bar = new ProgressBarBuilder()
                .setTaskName("epoch " + epoch)
                .setInitialMax(max)
                .startsFrom(done, Duration.ZERO)
                .setUpdateIntervalMillis(250)
                .setStyle(console ? ProgressBarStyle.COLORFUL_UNICODE_BLOCK : ProgressBarStyle.ASCII);
        if (!console) {
            int width = cluster ? CLUSTER_BAR_WIDTH : PIPED_BAR_WIDTH;
            bar.setConsumer(new ConsoleProgressBarConsumer(System.err, width));
        } else if (cluster) {
            bar.setMaxRenderedLength(CLUSTER_BAR_WIDTH);
        }
        return bar.build();
    }

    /** Prints a node's summary line and its metrics after training. */
    public static void printSummary(PrintWriter out, NodeMetrics metrics) {
        out.printf(Locale.ROOT, "node %d summary: sent %d bytes (%.1f MiB), %.1f%% of its accesses local, "
                        + "%d intents signalled%n", metrics.nodeId(), metrics.bytesSent(),
                metrics.bytesSent() / 1048576.0, 100 * metrics.localFraction(), metrics.intentsSignaled());
        out.println("after training, " + metrics.describe());
        for (StalenessMetrics table : metrics.staleness()) {
            if (table.reads() > 0) {
                out.printf(Locale.ROOT, "STALENESS table=%s model=%s reads=%d mean=%.3f p99=%d max=%d clockwait=%.3f "
                                + "replicawait=%.3f%n", table.table(), table.consistency(), table.reads(),
                        table.meanStaleness(), table.staleness(0.99), table.maxStaleness(), table.clockWaitNanos() / 1e9,
                        table.replicaWaitNanos() / 1e9);
            }
        }
        out.flush();
    }

    /**
     * Parameter values a node's workers accessed in its memory and at other nodes.
     *
     * @param local  pulled, pushed or set here
     * @param remote pulled, pushed or set at other nodes
     */
    public record Accesses(long local, long remote) {
        /** The accesses counted in {@code metrics}. */
        public static Accesses of(NodeMetrics metrics) {
            return new Accesses(metrics.localPulls() + metrics.localPushes() + metrics.localSets(),
                    metrics.remotePulls() + metrics.remotePushes() + metrics.remoteSets());
        }

        /** The accesses since {@code earlier}. */
        public Accesses minus(Accesses earlier) {
            return new Accesses(local - earlier.local, remote - earlier.remote);
        }

        /** The local fraction, 0 to 1; {@code NaN} for no accesses. */
        public double localFraction() {
            return (double) local / (local + remote);
        }
    }
}
