package io.adaps.bench.macro;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The Markdown table of a technique comparison: one row per run, in the order given.
 *
 * <p>Columns: the configuration (nodes x threads per node, technique); the mean epoch time over
 * epochs 2 to E; its ratio to that of {@code STATIC} on the same number of nodes; the test RMSE
 * after epoch E; the local-access fraction of epoch E; the MiB node 0 sent by the end of epoch E.
 * A failed run keeps its row, marked failed with its exit code (or as timed out), with dashes for
 * its figures. A dash also stands for a ratio without a successful STATIC run to compare with.
 */
final class ComparisonTable {
    static final String STATIC = "STATIC";
    private static final String NONE = "–";

    private ComparisonTable() {
    }

    /** The table of {@code runs}, each line ending with a newline. */
    static String markdown(List<RunOutcome> runs) {
        StringBuilder table = new StringBuilder();
        table.append("| configuration | mean epoch time, epochs 2..E (s) | vs. STATIC | test RMSE after E "
                + "| local accesses (epoch E) | MiB sent by node 0 |\n");
        table.append("|---|---:|---:|---:|---:|---:|\n");
        for (RunOutcome run : runs) {
            table.append("| ").append(run.configuration()).append(" | ");
            String failure = run.failure();
            if (failure != null) {
                table.append(failure).append(" | ").append(NONE).append(" | ").append(NONE).append(" | ")
                        .append(NONE).append(" | ").append(NONE).append(" |\n");
                continue;
            }
            OptionalDouble mean = run.meanEpochSeconds();
            OptionalDouble staticMean = staticMean(runs, run.nodes());
            EpochResult last = run.last();
            table.append(mean.isPresent() ? format("%.2f", mean.getAsDouble()) : NONE).append(" | ")
                    .append(mean.isPresent() && staticMean.isPresent()
                            ? format("%.2f", mean.getAsDouble() / staticMean.getAsDouble()) : NONE).append(" | ")
                    .append(format("%.4f", last.testRmse())).append(" | ")
                    .append(format("%.1f%%", 100 * last.local())).append(" | ")
                    .append(format("%.1f", last.bytesSent() / 1048576.0)).append(" |\n");
        }
        return table.toString();
    }

    /** The mean epoch time of the successful STATIC run on {@code nodes} nodes, if there is one. */
    private static OptionalDouble staticMean(List<RunOutcome> runs, int nodes) {
        for (RunOutcome run : runs) {
            if (run.nodes() == nodes && STATIC.equals(run.technique()) && run.failure() == null) {
                OptionalDouble mean = run.meanEpochSeconds();
                if (mean.isPresent() && mean.getAsDouble() > 0) {
                    return mean;
                }
            }
        }
        return OptionalDouble.empty();
    }

    private static String format(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }
}
