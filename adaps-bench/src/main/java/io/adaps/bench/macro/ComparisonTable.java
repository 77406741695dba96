package io.adaps.bench.macro;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The Markdown table of one workload's runs on one node count, one row per run in the order given
 * (the single-node baseline may be among them as a reference point).
 *
 * <p>Columns: the configuration (nodes x threads per node, technique, sampling scheme); the mean
 * epoch time ({@link RunOutcome#meanEpochSeconds}); the speed-up per epoch over the reference run
 * of the table's node count ({@link SpeedUp}); the workload's quality figure after the last epoch
 * and its further figures; the local-access fraction of the last epoch; the MiB node 0 sent by
 * its end. A failed run keeps its row, saying why, with dashes for its figures; a diverged run
 * keeps its times and says {@code diverged (NaN)} (or {@code Infinity}) for its quality. A dash also stands for a
 * speed-up without a successful reference run. When a configuration ran more than once, its row is
 * its {@linkplain RepeatedRuns#representative() representative run} and a last column gives the
 * {@linkplain RepeatedRuns#spread() ranges} over its runs.
 */
final class ComparisonTable {
    /** The cell of a figure that is not there. */
    static final String NONE = "–";

    private ComparisonTable() {
    }

    /**
     * The table of the {@code repeated} runs of {@code workload} for {@code nodes} nodes, one row per
     * configuration, each line ending with a newline.
     */
    static String markdown(Workload workload, int nodes, List<RepeatedRuns> repeated) {
        List<RunOutcome> runs = repeated.stream().map(RepeatedRuns::representative).toList();
        boolean spread = RepeatedRuns.anyRepeated(repeated);
        StringBuilder table = new StringBuilder();
        List<Workload.Figure> extras = workload.extraFigures();
        table.append("| configuration | mean epoch time (s) | speed-up vs. ").append(SpeedUp.referenceLabel(workload))
                .append(" | ").append(workload.qualityLabel()).append(" after E");
        extras.forEach(figure -> table.append(" | ").append(figure.label()).append(" after E"));
        table.append(" | local accesses (epoch E) | MiB sent by node 0 |")
                .append(spread ? " range over the runs |" : "")
                .append("\n|---").append("|---:".repeat(5 + extras.size())).append(spread ? "|---" : "").append("|\n");
        Optional<RunOutcome> reference = SpeedUp.reference(runs, workload, nodes);
        for (int i = 0; i < runs.size(); i++) {
            RunOutcome run = runs.get(i);
            String rangeCell = spread ? " " + repeated.get(i).rangeCell() + " |" : "";
            table.append("| ").append(run.config().configuration()).append(" | ");
            String failure = run.failure();
            if (failure != null) {
                table.append(failure).append((" | " + NONE).repeat(4 + extras.size())).append(" |").append(rangeCell)
                        .append('\n');
                continue;
            }
            OptionalDouble mean = run.meanEpochSeconds();
            OptionalDouble speedUp = reference.map(ref -> SpeedUp.of(run, ref)).orElse(OptionalDouble.empty());
            EpochResult last = run.last();
            table.append(cell(mean, "%.2f")).append(" | ").append(cell(speedUp, "%.2fx")).append(" | ")
                    .append(quality(run));
            for (Workload.Figure figure : extras) {
                table.append(" | ").append(cell(last.figure(figure.key()), "%.4f"));
            }
            table.append(" | ").append(format("%.1f%%", 100 * last.local()))
                    .append(" | ").append(format("%.1f", last.bytesSent() / 1048576.0)).append(" |").append(rangeCell)
                    .append('\n');
        }
        return table.toString();
    }

    /** The quality figure of a successful run after its last epoch, or {@code diverged (NaN)}. */
    static String quality(RunOutcome run) {
        return run.diverged() ? "diverged (" + run.quality() + ")" : format("%.4f", run.quality());
    }

    /** The cell of {@code value} in {@code format}, or a dash if it is not there. */
    static String cell(OptionalDouble value, String format) {
        return value.isPresent() ? format(format, value.getAsDouble()) : NONE;
    }

    /** {@code value} in {@code format}, independent of the default locale. */
    static String format(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }
}
