package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;
import io.adaps.examples.ThreadCpu.Kind;

/**
 * Synthetic runs for the tests: epoch e reports quality 0.5 / e, local 0.25 e, 3 e MiB sent and
 * {@value #ENTRIES} training entries; the whole run takes {@value #SETUP_SECONDS} s more than its epochs.
 */
final class Runs {
    /** What a run takes besides its epochs: its whole run is this plus their times. */
    static final double SETUP_SECONDS = 2;
    /** The training entries of every epoch. */
    static final long ENTRIES = 1 << 20;

    private Runs() {
    }

    /** A successful mf run with the given epoch times (as many epochs as times). */
    static RunOutcome mf(int nodes, int threads, Technique technique, double... seconds) {
        return run(new RunConfig(Workload.MF, nodes, threads, technique, null), seconds);
    }

    /** A successful w2v run with the given epoch times; its similarity is 0.1 e. */
    static RunOutcome w2v(int nodes, int threads, Technique technique, SamplingScheme sampling, double... seconds) {
        return run(new RunConfig(Workload.W2V, nodes, threads, technique, sampling), seconds);
    }

    static RunOutcome run(RunConfig config, double... seconds) {
        List<EpochResult> results = new ArrayList<>();
        for (int epoch = 1; epoch <= seconds.length; epoch++) {
            Map<String, Double> figures = new LinkedHashMap<>();
            if (config.workload() == Workload.MF) {
                figures.put("rmse", 0.5 / epoch);
            } else {
                figures.put("loss", 0.6 / epoch);
                figures.put("heldout", 0.5 / epoch);
                figures.put("similarity", 0.1 * epoch);
            }
            results.add(new EpochResult(epoch, seconds[epoch - 1], 0.25 * epoch, epoch * 3L << 20, ENTRIES, figures));
        }
        return new RunOutcome(config, seconds.length, 0, false, null, results, List.of(),
                SETUP_SECONDS + Arrays.stream(seconds).sum());
    }

    /** {@code run} with the CPU lines {@code cpu}. */
    static RunOutcome withCpu(RunOutcome run, NodeCpu... cpu) {
        return new RunOutcome(run.config(), run.epochs(), run.exitCode(), run.timedOut(), run.outputProblem(),
                run.results(), List.of(cpu), run.runSeconds());
    }

    /**
     * The CPU line of {@code node} over epochs {@code first..last}: processor seconds training,
     * manager, transport, jit, gc, other in that order.
     */
    static NodeCpu cpu(int node, int first, int last, double wall, double... seconds) {
        Map<Kind, Double> byKind = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            byKind.put(kind, seconds[kind.ordinal()]);
        }
        return new NodeCpu(node, first, last, wall, byKind);
    }
}
