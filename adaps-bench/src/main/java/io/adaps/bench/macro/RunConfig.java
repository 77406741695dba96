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
 *
 * @param workload  the application
 * @param nodes     the cluster's nodes; 1 with no technique for the single-node baseline
 * @param threads   training threads per node
 * @param technique the technique, or {@code null} for the single-node baseline
 * @param sampling  the sampling scheme, {@code null} exactly when the workload is not sampled
 * @param consistency the consistency model ({@code --consistency}), or {@code null} for the example's default
 */
record RunConfig(Workload workload, int nodes, int threads, Technique technique, SamplingScheme sampling,
                 String consistency) {
    /** A run with the example's default consistency model. */
    RunConfig(Workload workload, int nodes, int threads, Technique technique, SamplingScheme sampling) {
        this(workload, nodes, threads, technique, sampling, null);
    }

    /** Checks that the sampling scheme is there exactly when the workload samples. */
    RunConfig {
        if (workload.sampled() != (sampling != null)) {
            throw new IllegalArgumentException("sampling=" + sampling + " (expected "
                    + (workload.sampled() ? "a scheme" : "none") + " for workload " + workload.subcommand() + ")");
        }
    }

    /** The label of a configuration: {@code ADAPTIVE}, {@code ADAPTIVE+LOCAL}, {@code single node (NAIVE)}. */
    static String label(Technique technique, SamplingScheme sampling) {
        if (technique == null) {
            return sampling == null ? "single node" : "single node (" + sampling + ")";
        }
        return sampling == null ? technique.name() : technique + "+" + sampling;
    }

    /** {@link #label(Technique, SamplingScheme)} of this run, and its consistency model if it names one. */
    String label() {
        return label(technique, sampling) + (consistency == null ? "" : " " + consistency);
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
     * {@code launcher <workload> --threads T --epochs E [--sampling S] [extra]}. With
     * {@code pinCores} every run goes through the launcher with {@code --pin-cores}, the baseline
     * too ({@code launch --nodes 1 --pin-cores -- <workload> ...}: one node on one core), so that
     * each node of every run has a core of its own.
     */
    List<String> command(String launcher, int epochs, boolean pinCores, List<String> extraArgs) {
        List<String> command = new ArrayList<>(List.of(launcher));
        if (technique != null || pinCores) {
            command.addAll(List.of("launch", "--nodes", Integer.toString(nodes)));
            if (pinCores) {
                command.add("--pin-cores");
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
