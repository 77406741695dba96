package io.adaps.bench.macro;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A training application of the examples that the comparison runs, and how to read its results.
 *
 * <p>Every workload is started the same way ({@code adaps-example launch --nodes N -- <subcommand>
 * --threads 1 --technique T ...}, or {@code adaps-example <subcommand> --threads 2 ...} on one node)
 * and reports the same {@code RESULT} line, with its own quality figures among the key=value pairs
 * ({@link EpochResult}). Both workloads' quality figures are losses: lower is better.
 */
enum Workload {
    /** Matrix factorization; quality: the cluster's test RMSE. */
    MF("mf", "rmse", "test RMSE", List.of(), false, OptionalDouble.empty()),
    /**
     * Word2vec with negative sampling, which also chooses a sampling scheme per run; quality: the
     * loss on held-out text, with the similarity score shown beside it. Its headline comparison is
     * issue 6's target: {@code ADAPTIVE+LOCAL} at least 3x faster per epoch than {@code STATIC+NAIVE}
     * on 2 nodes.
     */
    W2V("w2v", "heldout", "held-out loss", List.of(new Figure("similarity", "similarity")), true,
            OptionalDouble.of(3.0));

    /** The nodes of the cluster that a workload's {@linkplain #headlineTarget target} is about. */
    static final int TARGET_NODES = 2;

    private final String subcommand;
    private final String qualityKey;
    private final String qualityLabel;
    private final List<Figure> extraFigures;
    private final boolean sampled;
    private final OptionalDouble target;

    Workload(String subcommand, String qualityKey, String qualityLabel, List<Figure> extraFigures, boolean sampled,
             OptionalDouble target) {
        this.subcommand = subcommand;
        this.qualityKey = qualityKey;
        this.qualityLabel = qualityLabel;
        this.extraFigures = extraFigures;
        this.sampled = sampled;
        this.target = target;
    }

    /** The examples' subcommand, which is also the workload's name on the command line and in file names. */
    String subcommand() {
        return subcommand;
    }

    /** The key of the RESULT line that holds the quality figure (lower is better). */
    String qualityKey() {
        return qualityKey;
    }

    /** How tables and charts name the quality figure. */
    String qualityLabel() {
        return qualityLabel;
    }

    /** Further RESULT figures shown in the table after the quality. */
    List<Figure> extraFigures() {
        return extraFigures;
    }

    /** Whether runs choose a sampling scheme ({@code --sampling}). */
    boolean sampled() {
        return sampled;
    }

    /**
     * The speed-up per epoch of the headline configuration over the reference that the issue asks
     * for on {@code nodes} nodes, if it asks for one.
     */
    OptionalDouble headlineTarget(int nodes) {
        return nodes == TARGET_NODES ? target : OptionalDouble.empty();
    }

    /**
     * A further figure of the RESULT line.
     *
     * @param key   its key in the line
     * @param label its column heading
     */
    record Figure(String key, String label) {
    }
}
