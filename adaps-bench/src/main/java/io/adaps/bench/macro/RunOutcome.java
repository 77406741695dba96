package io.adaps.bench.macro;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How one run of the comparison ended: its configuration, its exit code (or that it timed out, or
 * that its output was malformed) and the epochs node 0 reported.
 *
 * @param config        what was run
 * @param epochs        the epochs the run was asked for
 * @param exitCode      the process's exit code; meaningless if it timed out
 * @param timedOut      whether the run was stopped at its time limit
 * @param outputProblem why node 0's RESULT lines could not be read, or {@code null} if they could
 * @param results       the epochs node 0 reported, in order
 */
record RunOutcome(RunConfig config, int epochs, int exitCode, boolean timedOut, String outputProblem,
                  List<EpochResult> results) {
    /** Copies the results. */
    RunOutcome {
        results = List.copyOf(results);
    }

    /**
     * Why the run failed, or {@code null} if it succeeded and reported its last epoch with the
     * workload's quality figure. A run whose quality is {@code NaN} did not fail: it {@linkplain
     * #diverged diverged}, and its times still count.
     */
    String failure() {
        if (timedOut) {
            return "failed (timed out)";
        }
        if (exitCode != 0) {
            return "failed (exit code " + exitCode + ")";
        }
        if (outputProblem != null) {
            return "failed (malformed RESULT line)";
        }
        EpochResult last = last();
        if (last == null) {
            return "failed (no RESULT line for epoch " + epochs + ")";
        }
        if (last.figure(config.workload().qualityKey()).isEmpty()) {
            return "failed (no " + config.workload().qualityKey() + "= in the RESULT line of epoch " + epochs + ")";
        }
        return null;
    }

    /** Whether the run succeeded but its quality after the last epoch is not a number (the training diverged). */
    boolean diverged() {
        return failure() == null && !Double.isFinite(quality());
    }

    /** The result of the last epoch asked for, or {@code null} if there is none. */
    EpochResult last() {
        for (EpochResult result : results) {
            if (result.epoch() == epochs) {
                return result;
            }
        }
        return null;
    }

    /** The workload's quality figure after the last epoch; only for a run without {@link #failure()}. */
    double quality() {
        return last().figure(config.workload().qualityKey()).orElseThrow();
    }

    /**
     * The mean epoch time: over epochs 2 and later when the run has more than one epoch, since the
     * first includes the JIT's warm-up and the placement's first moves; empty if there are none.
     */
    OptionalDouble meanEpochSeconds() {
        int first = epochs >= 2 ? 2 : 1;
        return results.stream().filter(result -> result.epoch() >= first).mapToDouble(EpochResult::seconds).average();
    }
}
