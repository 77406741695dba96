package io.adaps.bench.macro;

import static io.adaps.bench.macro.ComparisonTable.NONE;
import static io.adaps.bench.macro.ComparisonTable.cell;
import static io.adaps.bench.macro.ComparisonTable.quality;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The Markdown table of how one workload scales: one row per configuration on each node count,
 * the single node first, with the speed-up over the single node ({@link SpeedUp#of}: its mean
 * epoch time over the row's), the median epoch time and the speed-up by medians
 * ({@link SpeedUp#ofMedians}; the median leaves out the warm-up that the first timed epochs still
 * carry, which the mean counts), the first epoch's time over the mean (the JIT's warm-up and the
 * placement's first moves, which the mean leaves out), the quality after the last epoch and how
 * far it is from the single node's, and what node 0 sent in the timed epochs
 * ({@link RunOutcome#firstTimedEpoch()} to the last): MiB per epoch, and bytes per training entry
 * of its share (the cluster's entries over the nodes), which says how much a technique sends for
 * the work it does, whatever the epoch's size.
 *
 * <p>The last figure is the whole run's wall time ({@link RunOutcome#runSeconds()}), with the
 * single node's over it in parentheses: what a user waits for, set-up and evaluations included,
 * which the epochs' figures leave out.
 *
 * <p>The parts that train alone ({@link RunConfig#alone()}) have a row of their own per node
 * count: their speed-up is the ceiling of that cluster's, and they have no quality of the whole
 * model to show.
 *
 * <p>The speed-up is over the single node, not over {@code STATIC} as in the {@linkplain
 * ComparisonTable technique comparison}: on pinned cores that is what adding nodes gains. Failed
 * and diverged runs read as in the comparison's table, and so does a configuration that ran more
 * than once ({@link RepeatedRuns}).
 */
final class ScalingTable {
    private ScalingTable() {
    }

    /**
     * The table of the {@code repeated} runs of {@code workload}, one row per configuration in
     * their order, each line ending with a newline; {@code baseline} is the single node's
     * representative run, if it ran.
     */
    static String markdown(Workload workload, List<RepeatedRuns> repeated, Optional<RunOutcome> baseline) {
        boolean spread = RepeatedRuns.anyRepeated(repeated);
        StringBuilder table = new StringBuilder("| configuration | mean epoch time (s) | speed-up over 1 node "
                + "| median epoch time (s) | speed-up by medians | first epoch over the mean | ")
                .append(workload.qualityLabel()).append(" after E | vs. 1 node | MiB sent per epoch (node 0) "
                        + "| bytes sent per entry (node 0) | whole run (s), speed-up |")
                .append(spread ? " range over the runs |" : "")
                .append("\n|---").append("|---:".repeat(10)).append(spread ? "|---" : "").append("|\n");
        Optional<RunOutcome> reference = baseline.filter(run -> run.failure() == null);
        for (RepeatedRuns group : repeated) {
            RunOutcome run = group.representative();
            String rangeCell = spread ? " " + group.rangeCell() + " |" : "";
            table.append("| ").append(run.config().configuration()).append(" | ");
            String failure = run.failure();
            if (failure != null) {
                table.append(failure).append((" | " + NONE).repeat(9)).append(" |").append(rangeCell).append('\n');
                continue;
            }
            OptionalDouble mean = run.meanEpochSeconds();
            OptionalDouble speedUp = reference.map(ref -> SpeedUp.of(run, ref)).orElse(OptionalDouble.empty());
            OptionalDouble medianSpeedUp = reference.map(ref -> SpeedUp.ofMedians(run, ref))
                    .orElse(OptionalDouble.empty());
            table.append(cell(mean, "%.2f")).append(" | ").append(cell(speedUp, "%.2fx")).append(" | ")
                    .append(cell(run.medianEpochSeconds(), "%.2f")).append(" | ").append(cell(medianSpeedUp, "%.2fx"))
                    .append(" | ")
                    .append(cell(firstOverMean(run), "%.2fx")).append(" | ")
                    .append(run.config().alone() ? NONE : quality(run)).append(" | ")
                    .append(cell(reference.filter(ref -> !run.config().alone()).map(ref -> relativeQuality(run, ref))
                            .orElse(OptionalDouble.empty()), "%+.1f%%"))
                    .append(" | ").append(cell(mibPerEpoch(run), "%.1f"))
                    .append(" | ").append(cell(bytesPerEntry(run), "%.1f"))
                    .append(" | ").append(wholeRun(run, reference)).append(" |").append(rangeCell).append('\n');
        }
        return table.toString();
    }

    /**
     * The whole run's seconds, and in parentheses the reference's over them when both were
     * measured; a dash if the run's were not.
     */
    private static String wholeRun(RunOutcome run, Optional<RunOutcome> reference) {
        if (!(run.runSeconds() > 0)) {
            return NONE;
        }
        OptionalDouble speedUp = reference.filter(ref -> ref.runSeconds() > 0)
                .map(ref -> OptionalDouble.of(ref.runSeconds() / run.runSeconds())).orElse(OptionalDouble.empty());
        return String.format(Locale.ROOT, "%.1f", run.runSeconds())
                + (speedUp.isPresent() ? String.format(Locale.ROOT, " (%.2fx)", speedUp.getAsDouble()) : "");
    }

    /** How much higher (+) or lower (-) the run's quality figure is than the reference's, in percent; empty if not finite. */
    private static OptionalDouble relativeQuality(RunOutcome run, RunOutcome reference) {
        double relative = 100 * (run.quality() - reference.quality()) / reference.quality();
        return Double.isFinite(relative) ? OptionalDouble.of(relative) : OptionalDouble.empty();
    }

    /** The first epoch's time over the mean of the timed ones; empty for a run of one epoch. */
    private static OptionalDouble firstOverMean(RunOutcome run) {
        OptionalDouble mean = run.meanEpochSeconds();
        Optional<EpochResult> first = run.result(1);
        return run.firstTimedEpoch() > 1 && first.isPresent() && mean.isPresent() && mean.getAsDouble() > 0
                ? OptionalDouble.of(first.get().seconds() / mean.getAsDouble()) : OptionalDouble.empty();
    }

    /** MiB node 0 sent per timed epoch; empty without the RESULT lines to tell. */
    private static OptionalDouble mibPerEpoch(RunOutcome run) {
        OptionalDouble bytes = timedBytes(run);
        int epochs = run.epochs() - run.firstTimedEpoch() + 1;
        return bytes.isPresent() ? OptionalDouble.of(bytes.getAsDouble() / epochs / 1048576.0) : OptionalDouble.empty();
    }

    /**
     * The bytes node 0 sent in the timed epochs over its share of their training entries (the
     * cluster's over the nodes); empty without the RESULT lines to tell or without entries.
     */
    private static OptionalDouble bytesPerEntry(RunOutcome run) {
        OptionalDouble bytes = timedBytes(run);
        double share = (double) run.results().stream().filter(result -> result.epoch() >= run.firstTimedEpoch())
                .mapToLong(EpochResult::entries).sum() / run.config().nodes();
        return bytes.isPresent() && share > 0 ? OptionalDouble.of(bytes.getAsDouble() / share) : OptionalDouble.empty();
    }

    /**
     * The bytes node 0 sent from the end of the epoch before the first timed one (its start, if
     * that is epoch 1) to the end of the last, between-epoch evaluation included.
     */
    private static OptionalDouble timedBytes(RunOutcome run) {
        int first = run.firstTimedEpoch();
        Optional<Long> before = first == 1 ? Optional.of(0L) : run.result(first - 1).map(EpochResult::bytesSent);
        Optional<Long> after = run.result(run.epochs()).map(EpochResult::bytesSent);
        return before.isPresent() && after.isPresent() ? OptionalDouble.of(after.get() - before.get())
                : OptionalDouble.empty();
    }
}
