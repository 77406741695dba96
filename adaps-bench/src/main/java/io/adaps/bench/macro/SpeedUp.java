package io.adaps.bench.macro;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;

/**
 * Speed-ups per epoch against the reference run of a node count ({@code STATIC}, with {@code NAIVE}
 * sampling where the workload samples: the classic parameter server), and the headline ratio of
 * the issue ({@code ADAPTIVE}, with {@code LOCAL} sampling, against that reference).
 */
final class SpeedUp {
    private SpeedUp() {
    }

    /** The successful reference run of {@code workload} on {@code nodes} nodes among {@code runs}, if any. */
    static Optional<RunOutcome> reference(List<RunOutcome> runs, Workload workload, int nodes) {
        return find(runs, workload, nodes, true);
    }

    /** The successful headline run of {@code workload} on {@code nodes} nodes among {@code runs}, if any. */
    static Optional<RunOutcome> headline(List<RunOutcome> runs, Workload workload, int nodes) {
        return find(runs, workload, nodes, false);
    }

    /**
     * How many times faster per epoch {@code run} is than {@code reference} (the reference's mean
     * epoch time over the run's); empty if either has no positive mean epoch time.
     */
    static OptionalDouble of(RunOutcome run, RunOutcome reference) {
        return ratio(reference.meanEpochSeconds(), run.meanEpochSeconds());
    }

    /** {@link #of} by median epoch times ({@link RunOutcome#medianEpochSeconds}). */
    static OptionalDouble ofMedians(RunOutcome run, RunOutcome reference) {
        return ratio(reference.medianEpochSeconds(), run.medianEpochSeconds());
    }

    private static OptionalDouble ratio(OptionalDouble reference, OptionalDouble run) {
        if (run.isEmpty() || reference.isEmpty() || run.getAsDouble() <= 0 || reference.getAsDouble() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(reference.getAsDouble() / run.getAsDouble());
    }

    /** The label of the reference configuration of {@code workload}: {@code STATIC} or {@code STATIC+NAIVE}. */
    static String referenceLabel(Workload workload) {
        return RunConfig.label(Technique.STATIC, workload.sampled() ? SamplingScheme.NAIVE : null);
    }

    /** The label of the headline configuration of {@code workload}: {@code ADAPTIVE} or {@code ADAPTIVE+LOCAL}. */
    static String headlineLabel(Workload workload) {
        return RunConfig.label(Technique.ADAPTIVE, workload.sampled() ? SamplingScheme.LOCAL : null);
    }

    private static Optional<RunOutcome> find(List<RunOutcome> runs, Workload workload, int nodes, boolean reference) {
        return runs.stream()
                .filter(run -> run.config().workload() == workload && run.config().nodes() == nodes
                        && (reference ? run.config().isReference() : run.config().isHeadline())
                        && run.failure() == null)
                .findFirst();
    }
}
