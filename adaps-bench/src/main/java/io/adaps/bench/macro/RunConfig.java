package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;

/**
 * One run of the comparison: a workload on a number of nodes with a technique and, for sampled
 * workloads, a sampling scheme. The single-node baseline has no technique: on one node every
 * parameter is local, so the technique does not matter, and it runs with more threads instead.
 * Nor do the parts that train {@code alone}: as many single nodes as a cluster has nodes, run at
 * once, each training the share of the data that the cluster's node of its number trains, with
 * no communication (the launcher's {@code --alone}); on pinned cores their epochs are the ceiling
 * of that cluster's speed-up on this machine.
 *
 * @param workload  the application
 * @param nodes     the cluster's nodes; 1 with no technique for the single-node baseline
 * @param threads   training threads per node
 * @param technique the technique, or {@code null} for the single-node baseline
 * @param sampling  the sampling scheme, {@code null} exactly when the workload is not sampled
 * @param consistency the consistency model ({@code --consistency}), or {@code null} for the example's default
 * @param alone     whether the run is {@code nodes} single nodes that train their parts alone; then
 *                  {@code technique} is {@code null} and {@code nodes} at least 2
 */
record RunConfig(Workload workload, int nodes, int threads, Technique technique, SamplingScheme sampling,
                 String consistency, boolean alone) {
    /** How tables name parts that train alone. */
    static final String ALONE = "parts alone, no communication";

    /** A run with the example's default consistency model. */
    RunConfig(Workload workload, int nodes, int threads, Technique technique, SamplingScheme sampling) {
        this(workload, nodes, threads, technique, sampling, null);
    }

    /** A cluster run, or the single-node baseline. */
    RunConfig(Workload workload, int nodes, int threads, Technique technique, SamplingScheme sampling,
              String consistency) {
        this(workload, nodes, threads, technique, sampling, consistency, false);
    }

    /**
     * Checks that the sampling scheme is there exactly when the workload samples, and that parts
     * alone are at least 2 and have no technique.
     */
    RunConfig {
        if (workload.sampled() != (sampling != null)) {
            throw new IllegalArgumentException("sampling=" + sampling + " (expected "
                    + (workload.sampled() ? "a scheme" : "none") + " for workload " + workload.subcommand() + ")");
        }
        if (alone && (technique != null || nodes < 2)) {
            throw new IllegalArgumentException("alone with technique=" + technique + ", nodes=" + nodes
                    + " (expected no technique and nodes >= 2)");
        }
    }

    /** N parts alone of {@code workload}, one thread each, sampling (if it samples) as the baseline does. */
    static RunConfig alone(Workload workload, int nodes) {
        return new RunConfig(workload, nodes, 1, null, workload.sampled() ? SamplingScheme.NAIVE : null, null, true);
    }

    /** Whether this is the single-node baseline that the speed-ups are over. */
    boolean isBaseline() {
        return technique == null && !alone;
    }

    /** The label of a configuration: {@code ADAPTIVE}, {@code ADAPTIVE+LOCAL}, {@code single node (NAIVE)}. */
    static String label(Technique technique, SamplingScheme sampling) {
        if (technique == null) {
            return sampling == null ? "single node" : "single node (" + sampling + ")";
        }
        return sampling == null ? technique.name() : technique + "+" + sampling;
    }

    /**
     * {@link #label(Technique, SamplingScheme)} of this run, and its consistency model if it names
     * one; for parts alone, {@link #ALONE}.
     */
    String label() {
        return (alone ? ALONE : label(technique, sampling)) + (consistency == null ? "" : " " + consistency);
    }

    /** {@code nodes x threads, label}, as the tables show it. */
    String configuration() {
        return nodes + " x " + threads + ", " + label();
    }

    /** Whether this is the run that others on as many nodes are compared with: {@code STATIC}, with {@code NAIVE} sampling. */
    boolean isReference() {
        return technique == Technique.STATIC && (sampling == null || sampling == SamplingScheme.NAIVE);
    }

    /** Whether this is the headline configuration: {@code ADAPTIVE}, with {@code LOCAL} sampling. */
    boolean isHeadline() {
        return technique == Technique.ADAPTIVE && (sampling == null || sampling == SamplingScheme.LOCAL);
    }

    /** The file name of the run's logs, without extension, e.g. {@code w2v-2x1-adaptive-local}. */
    String logName() {
        return (workload.subcommand() + "-" + nodes + "x" + threads + "-" + label())
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "-").replaceAll("-$", "");
    }

    /**
     * The command line of the run: {@code launcher launch --nodes N -- <workload> --threads T
     * --epochs E --technique X [--sampling S] [extra]}, or for the single-node baseline
     * {@code launcher <workload> --threads T --epochs E [--sampling S] [extra]}, and for parts alone
     * {@code launcher launch --nodes N [--pin-cores] --alone -- <workload> ...} (no technique). With
     * {@code pinCores} every run goes through the launcher with {@code --pin-cores}, the baseline
     * too ({@code launch --nodes 1 --pin-cores -- <workload> ...}: one node on one core), so that
     * each node of every run has a core of its own, node 0 on processor {@code firstCore} ({@code
     * --first-core}, given when above 0; 0 without {@code pinCores}).
     */
    List<String> command(String launcher, int epochs, boolean pinCores, int firstCore, List<String> extraArgs) {
        List<String> command = new ArrayList<>(List.of(launcher));
        if (technique != null || pinCores || alone) {
            command.addAll(List.of("launch", "--nodes", Integer.toString(nodes)));
            if (pinCores) {
                command.add("--pin-cores");
            }
            if (firstCore > 0) {
                command.addAll(List.of("--first-core", Integer.toString(firstCore)));
            }
            if (alone) {
                command.add("--alone");
            }
            command.add("--");
        }
        command.addAll(List.of(workload.subcommand(), "--threads", Integer.toString(threads),
                "--epochs", Integer.toString(epochs)));
        if (technique != null) {
            command.addAll(List.of("--technique", technique.name()));
        }
        if (sampling != null) {
            command.addAll(List.of("--sampling", sampling.name()));
        }
        if (consistency != null) {
            command.addAll(List.of("--consistency", consistency));
        }
        command.addAll(extraArgs);
        return command;
    }
}
