package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;

/**
 * Which runs the comparison makes, in order: per workload, the single-node baseline, then per
 * node count the parts alone (if asked for) and the cluster runs.
 *
 * <p>For a sampled workload every technique with every scheme would be 20 runs per node count, most
 * of them uninformative (a scheme's locality matters only where the technique can act on it), so by
 * default it runs the {@linkplain #defaultSetups default matrix}; naming schemes ({@code --samplings})
 * runs every chosen technique with every named scheme instead.
 */
final class RunMatrix {
    private RunMatrix() {
    }

    /**
     * The runs.
     *
     * @param workloads       the workloads, in order
     * @param nodeCounts      the clusters' node counts, one thread per node
     * @param techniques      the techniques of the cluster runs
     * @param samplings       the sampling schemes of sampled workloads, crossed with every technique;
     *                        empty for the default matrix
     * @param baselineThreads the threads of the single-node baseline; 0 for none
     * @param alone           whether each node count of 2 or more also runs as parts alone
     *                        ({@link RunConfig#alone(Workload, int)}), before its cluster runs
     */
    static List<RunConfig> runs(List<Workload> workloads, List<Integer> nodeCounts, List<Technique> techniques,
                                List<SamplingScheme> samplings, int baselineThreads, boolean alone) {
        List<RunConfig> runs = new ArrayList<>();
        for (Workload workload : workloads) {
            // On one node every key is local, so NAIVE's exact draws are the efficient reference.
            SamplingScheme baselineSampling = workload.sampled() ? SamplingScheme.NAIVE : null;
            if (baselineThreads > 0) {
                runs.add(new RunConfig(workload, 1, baselineThreads, null, baselineSampling));
            }
            List<Setup> setups = workload.sampled()
                    ? (samplings.isEmpty() ? defaultSetups(techniques) : crossed(techniques, samplings))
                    : techniques.stream().map(technique -> new Setup(technique, null)).toList();
            for (int nodes : nodeCounts) {
                if (alone && nodes >= 2) {
                    runs.add(RunConfig.alone(workload, nodes));
                }
                for (Setup setup : setups) {
                    runs.add(new RunConfig(workload, nodes, 1, setup.technique(), setup.sampling()));
                }
            }
        }
        return runs;
    }

    /**
     * The runs of turn {@code turn} (from 1) when the matrix repeats: in their order in odd turns,
     * reversed in even ones (A B C, C B A, A B C ...). This machine's speed drifts by up to 1.8x
     * within minutes, and in the same order every turn a slow stretch falls on the same
     * configurations each time (a report once put one technique 22% behind another that direct
     * pairs showed even); alternating the order spreads it over early and late runs alike.
     */
    static List<RunConfig> turn(List<RunConfig> runs, int turn) {
        if (turn < 1) {
            throw new IllegalArgumentException("turn=" + turn + " (expected >= 1)");
        }
        List<RunConfig> ordered = new ArrayList<>(runs);
        if (turn % 2 == 0) {
            Collections.reverse(ordered);
        }
        return ordered;
    }

    /**
     * Where pinned runs' nodes ran, for the reports: {@code node i on processor i mod P}, or with
     * several turns, which start on the next processor each ({@code --first-core}), {@code node i on
     * processor (i + t) mod P in turn t = 0, 1, ...}.
     */
    static String pinning(int processors, int repeats) {
        return repeats == 1 ? "node i on processor i mod " + processors
                : "node i on processor (i + t) mod " + processors + " in turn t = 0, 1, ...";
    }

    /**
     * The default matrix of a sampled workload, restricted to {@code techniques} and in their
     * order: every technique with {@code NAIVE} (the techniques compared as they are); {@code
     * ADAPTIVE} also with {@code PRELOCALIZE}, {@code POOL} and {@code LOCAL} (what each scheme adds
     * to the adaptive technique; {@code ADAPTIVE+LOCAL} is the headline); {@code STATIC} also with
     * {@code LOCAL} (how much of the gain local sampling alone brings, without moving parameters).
     * With every technique: 9 runs per node count.
     */
    static List<Setup> defaultSetups(List<Technique> techniques) {
        List<Setup> setups = new ArrayList<>();
        for (Technique technique : techniques) {
            setups.add(new Setup(technique, SamplingScheme.NAIVE));
            if (technique == Technique.ADAPTIVE) {
                setups.add(new Setup(technique, SamplingScheme.PRELOCALIZE));
                setups.add(new Setup(technique, SamplingScheme.POOL));
                setups.add(new Setup(technique, SamplingScheme.LOCAL));
            } else if (technique == Technique.STATIC) {
                setups.add(new Setup(technique, SamplingScheme.LOCAL));
            }
        }
        return setups;
    }

    private static List<Setup> crossed(List<Technique> techniques, List<SamplingScheme> samplings) {
        List<Setup> setups = new ArrayList<>();
        for (Technique technique : techniques) {
            for (SamplingScheme sampling : samplings) {
                setups.add(new Setup(technique, sampling));
            }
        }
        return setups;
    }

    /** A technique with a sampling scheme ({@code null} for workloads that do not sample). */
    record Setup(Technique technique, SamplingScheme sampling) {
    }
}
