package io.adaps.bench.macro;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How one run of the comparison ended: its configuration, its exit code (or that it timed out) and
 * the epochs node 0 reported.
 *
 * @param nodes     the cluster's nodes
 * @param threads   training threads per node
 * @param technique the technique's name, or a label such as {@code single node}
 * @param exitCode  the process's exit code; meaningless if it timed out
 * @param timedOut  whether the run was stopped at its time limit
 * @param epochs    the epochs the run was asked for
 * @param results   the epochs node 0 reported, in order
 */
record RunOutcome(int nodes, int threads, String technique, int exitCode, boolean timedOut, int epochs,
                  List<EpochResult> results) {
    /** Copies the results. */
    RunOutcome {
        results = List.copyOf(results);
    }

    /** {@code nodes x threads, technique}. */
    String configuration() {
        return nodes + " x " + threads + ", " + technique;
    }

    /** Why the run failed, or {@code null} if it succeeded and reported its last epoch. */
    String failure() {
        if (timedOut) {
            return "failed (timed out)";
        }
        if (exitCode != 0) {
            return "failed (exit code " + exitCode + ")";
        }
        if (last() == null) {
            return "failed (no RESULT line for epoch " + epochs + ")";
        }
        return null;
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

    /** The mean time of epochs 2 and later (the first includes the JIT's warm-up); empty if there are none. */
    OptionalDouble meanEpochSeconds() {
        return results.stream().filter(result -> result.epoch() >= 2).mapToDouble(EpochResult::seconds).average();
    }
}
