package io.adaps.bench.macro;

import static io.adaps.bench.macro.ComparisonTable.format;
import static io.adaps.bench.macro.ComparisonTable.quality;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The sentence that answers the question for one workload and node count: how many times
 * faster per epoch the headline configuration ({@code ADAPTIVE}, with {@code LOCAL} sampling where
 * the workload samples) is than the reference ({@code STATIC}, with {@code NAIVE}), at what
 * quality, and whether that meets the workload's target. Printed explicitly so that nobody has to
 * divide table cells to find it.
 */
final class Headline {
    private Headline() {
    }

    /** One Markdown list item for {@code subject}'s runs on {@code nodes} nodes, ending with a newline. */
    static String markdown(ReportSubject subject, int nodes, List<RunOutcome> runs) {
        Workload workload = subject.workload();
        String headline = SpeedUp.headlineLabel(workload);
        String reference = SpeedUp.referenceLabel(workload);
        String heading = subject.heading() + ", " + nodes + (nodes == 1 ? " node" : " nodes");
        Optional<RunOutcome> headlineRun = SpeedUp.headline(runs, workload, nodes);
        Optional<RunOutcome> referenceRun = SpeedUp.reference(runs, workload, nodes);
        if (headlineRun.isEmpty() || referenceRun.isEmpty()) {
            return "- " + heading + ", " + headline + " against " + reference + ": not measured (no successful "
                    + (headlineRun.isEmpty() ? headline : reference) + " run)\n";
        }
        RunOutcome run = headlineRun.get();
        RunOutcome ref = referenceRun.get();
        OptionalDouble speedUp = SpeedUp.of(run, ref);
        if (speedUp.isEmpty()) {
            return "- " + heading + ", " + headline + " against " + reference + ": not measured (no epoch time)\n";
        }
        StringBuilder line = new StringBuilder("- **").append(heading).append(": ").append(headline)
                .append(" runs an epoch ").append(format("%.2fx", speedUp.getAsDouble())).append(" as fast as ").append(reference)
                .append("** (").append(format("%.2f", run.meanEpochSeconds().getAsDouble())).append(" s against ")
                .append(format("%.2f", ref.meanEpochSeconds().getAsDouble())).append(" s); ")
                .append(workload.qualityLabel()).append(" after epoch ").append(run.epochs()).append(": ")
                .append(quality(run)).append(" against ").append(quality(ref)).append('.');
        OptionalDouble target = workload.headlineTarget(nodes);
        if (target.isPresent()) {
            line.append(" Target: at least ").append(format("%.0fx", target.getAsDouble())).append(", ")
                    .append(speedUp.getAsDouble() >= target.getAsDouble() ? "reached" : "**not reached**")
                    .append(" (the quality must also be comparable).");
        }
        return line.append('\n').toString();
    }
}
