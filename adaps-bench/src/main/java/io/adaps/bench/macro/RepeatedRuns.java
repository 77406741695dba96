package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The runs of one configuration when the comparison repeats each ({@code --repeats}), and the run
 * that stands for them in tables, headlines and charts: the successful run with the median mean
 * epoch time (the lower median for an even count), so that one slow or fast run, which a shared
 * machine produces, moves no figure. Its quality is that run's own, so time and quality in a row
 * always come from one real run; the ranges over all successful runs are printed beside them.
 *
 * @param config what was run
 * @param runs   its runs, in the order they ran; at least one
 */
record RepeatedRuns(RunConfig config, List<RunOutcome> runs) {
    /** Copies the runs and checks that they are runs of {@code config}. */
    RepeatedRuns {
        runs = List.copyOf(runs);
        if (runs.isEmpty() || runs.stream().anyMatch(run -> !run.config().equals(config))) {
            throw new IllegalArgumentException("runs=" + runs + " (expected at least one run, all of " + config + ")");
        }
    }

    /** {@code outcomes} grouped by configuration, in the order each configuration first ran. */
    static List<RepeatedRuns> group(List<RunOutcome> outcomes) {
        Map<RunConfig, List<RunOutcome>> byConfig = new LinkedHashMap<>();
        for (RunOutcome outcome : outcomes) {
            byConfig.computeIfAbsent(outcome.config(), config -> new ArrayList<>()).add(outcome);
        }
        return byConfig.entrySet().stream().map(entry -> new RepeatedRuns(entry.getKey(), entry.getValue())).toList();
    }

    /** The representative of each configuration of {@code outcomes}, in the order each first ran. */
    static List<RunOutcome> representatives(List<RunOutcome> outcomes) {
        return group(outcomes).stream().map(RepeatedRuns::representative).toList();
    }

    /**
     * Whether a configuration among {@code groups} ran more than once: then tables add a column of
     * {@linkplain #rangeCell ranges}.
     */
    static boolean anyRepeated(List<RepeatedRuns> groups) {
        return groups.stream().anyMatch(group -> group.runs().size() > 1);
    }

    /** The configuration's cell in the column of ranges: its {@link #spread()}, or a dash for a single run. */
    String rangeCell() {
        String spread = spread();
        return spread.isEmpty() ? ComparisonTable.NONE : spread;
    }

    /**
     * The successful run with the median mean epoch time (a diverged run counts: its times are
     * real); the first run if none succeeded, so that its failure is what the row says.
     */
    RunOutcome representative() {
        List<RunOutcome> timed = successful().stream()
                .filter(run -> run.meanEpochSeconds().isPresent())
                .sorted(Comparator.comparingDouble(run -> run.meanEpochSeconds().getAsDouble()))
                .toList();
        return timed.isEmpty() ? runs.get(0) : timed.get((timed.size() - 1) / 2);
    }

    /**
     * What the row adds when the configuration ran more than once: the range of the mean epoch
     * times and of the quality figures over the successful runs (not of parts alone, whose
     * figures are each part's own), and how many runs failed, e.g.
     * {@code 0.71–0.96 s, rmse 0.1205–0.1232}; empty for a single run.
     */
    String spread() {
        if (runs.size() < 2) {
            return "";
        }
        List<RunOutcome> successful = successful();
        List<String> parts = new ArrayList<>();
        range(successful, run -> run.meanEpochSeconds().orElse(Double.NaN), "%.2f").ifPresent(range ->
                parts.add(range + " s"));
        if (!config.alone()) {
            range(successful, RunOutcome::quality, "%.4f").ifPresent(range ->
                    parts.add(config.workload().qualityKey() + " " + range));
        }
        int failed = runs.size() - successful.size();
        if (failed > 0) {
            parts.add(failed + " of " + runs.size() + " failed");
        }
        return String.join(", ", parts);
    }

    private List<RunOutcome> successful() {
        return runs.stream().filter(run -> run.failure() == null).toList();
    }

    /** {@code min–max} of {@code figure} over the runs where it is finite; empty if it is nowhere. */
    private static Optional<String> range(List<RunOutcome> runs, ToDoubleFunction<RunOutcome> figure,
                                          String format) {
        OptionalDouble min = runs.stream().mapToDouble(figure).filter(Double::isFinite).min();
        OptionalDouble max = runs.stream().mapToDouble(figure).filter(Double::isFinite).max();
        if (min.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ComparisonTable.format(format, min.getAsDouble()) + "–"
                + ComparisonTable.format(format, max.getAsDouble()));
    }
}
