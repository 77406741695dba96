package io.adaps.bench.macro;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.DoubleStream;

/**
 * How one run of the comparison ended: its configuration, its exit code (or that it timed out, or
 * that its output was malformed), the epochs node 0 reported and where each node's processor time
 * went.
 *
 * @param config        what was run
 * @param epochs        the epochs the run was asked for
 * @param exitCode      the process's exit code; meaningless if it timed out
 * @param timedOut      whether the run was stopped at its time limit
 * @param outputProblem why the RESULT or CPU lines could not be read, or {@code null} if they could
 * @param results       the epochs node 0 reported, in order
 * @param cpu           the CPU lines of every node, in the order printed
 * @param runSeconds    the whole run's wall time, from starting the launch command to its exit
 *                      (the JVMs' start, the data's set-up, the first evaluation, every epoch and
 *                      evaluation); {@code NaN} if it was not measured
 */
record RunOutcome(RunConfig config, int epochs, int exitCode, boolean timedOut, String outputProblem,
                  List<EpochResult> results, List<NodeCpu> cpu, double runSeconds) {
    /** Copies the results and CPU lines. */
    RunOutcome {
        results = List.copyOf(results);
        cpu = List.copyOf(cpu);
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
            return "failed (malformed RESULT or CPU line)";
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
        return result(epochs).orElse(null);
    }

    /** The workload's quality figure after the last epoch; only for a run without {@link #failure()}. */
    double quality() {
        return last().figure(config.workload().qualityKey()).orElseThrow();
    }

    /** The result of epoch {@code epoch}, if node 0 reported it. */
    Optional<EpochResult> result(int epoch) {
        return results.stream().filter(result -> result.epoch() == epoch).findFirst();
    }

    /**
     * The first epoch that the mean figures count: 2 when the run has more than one epoch, since
     * the first includes the JIT's warm-up and the placement's first moves; else 1.
     */
    int firstTimedEpoch() {
        return epochs >= 2 ? 2 : 1;
    }

    /** How reports name the timed epochs of runs of {@code epochs} epochs: {@code epoch 1}, {@code epoch 2}, {@code epochs 2..E}. */
    static String timedEpochs(int epochs) {
        return epochs <= 2 ? "epoch " + epochs : "epochs 2.." + epochs;
    }

    /** The mean epoch time over epochs {@link #firstTimedEpoch()} and later; empty if there are none. */
    OptionalDouble meanEpochSeconds() {
        return timedSeconds().average();
    }

    /**
     * The median epoch time over epochs {@link #firstTimedEpoch()} and later (the mean of the middle
     * two for an even count); empty if there are none. Unlike the mean, it leaves out the warm-up
     * that the first timed epochs may still carry (the JIT's late compilations).
     */
    OptionalDouble medianEpochSeconds() {
        double[] seconds = timedSeconds().sorted().toArray();
        if (seconds.length == 0) {
            return OptionalDouble.empty();
        }
        int mid = seconds.length / 2;
        return OptionalDouble.of(seconds.length % 2 == 1 ? seconds[mid] : (seconds[mid - 1] + seconds[mid]) / 2);
    }

    private DoubleStream timedSeconds() {
        int first = firstTimedEpoch();
        return results.stream().filter(result -> result.epoch() >= first).mapToDouble(EpochResult::seconds);
    }

    /** Where {@code node}'s processor time went in epochs {@link #firstTimedEpoch()} to the last, if it printed that. */
    Optional<NodeCpu> timedCpu(int node) {
        return cpu.stream().filter(line -> line.node() == node && line.firstEpoch() == firstTimedEpoch()
                && line.lastEpoch() == epochs).findFirst();
    }
}
