package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;

/** Synthetic runs for the tests: epoch e reports quality 0.5 / e, local 0.25 e and 3 e MiB sent. */
final class Runs {
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
            results.add(new EpochResult(epoch, seconds[epoch - 1], 0.25 * epoch, epoch * 3L << 20, figures));
        }
        return new RunOutcome(config, seconds.length, 0, false, null, results);
    }
}
