package io.adaps.bench.macro;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Compares AdaPS's techniques, and for word2vec its sampling schemes, on the examples: for each
 * workload ({@code mf}, {@code w2v}), a single-node baseline {@code bin/adaps-example <workload>
 * --threads 2}, then for each node count and each configuration of the {@linkplain RunMatrix run
 * matrix} {@code bin/adaps-example launch --nodes N -- <workload> --threads 1 --technique T
 * [--sampling S]}, each a separate process (the launcher starts one JVM per node). Reads the
 * {@code RESULT} lines node 0 prints per epoch (and every node's {@code CPU} lines) and writes each
 * workload's {@linkplain ComparisonReport report} (headline ratios, a table and two PNG charts per
 * node count) into the workload's generated region of a Markdown page ({@link ReportRegion};
 * {@code docs/benchmarks.md} by default), with the charts in {@code img/} beside it, and to stdout.
 *
 * <p>With {@code --pin-cores} every run goes through the launcher with {@code --pin-cores}, so that
 * each node's JVM has a processor of its own as on a cluster of machines, and the baseline is one
 * node on one processor with one thread by default, like each node of the clusters: only then does
 * a cluster of N nodes have N times the single node's processors, and their epoch times say how it
 * scales. Each node count then also runs as parts alone ({@link RunConfig#alone(Workload, int)}):
 * the cluster's nodes' shares of the data trained at once by single nodes that do not communicate,
 * whose epochs are the ceiling of that cluster's speed-up. Each workload's {@linkplain ScalingReport
 * scaling report} (speed-up over the single node, bytes per training entry, where each node's core
 * goes) then goes into its scaling region, at the top of the page.
 *
 * <p>The runs go one after the other, so that they do not compete for the machine's cores. With
 * {@code --repeats N} the whole matrix runs N times in turn, in reverse order every other turn
 * (A B C C B A A B C ...), so that the machine's drift spreads over every configuration alike;
 * with {@code --pin-cores} each turn also starts its nodes on the next processor ({@code launch
 * --first-core}), so that the single node runs on each processor in turn as the clusters do (one
 * processor of a shared host can run slower than the other for minutes), and each turn begins by
 * measuring each processor's speed ({@link ProcessorSpeed}), which the scaling report
 * prints. Each configuration is
 * reported by its run with the median epoch time ({@link RepeatedRuns}). A run that fails, times out or
 * diverges is a row that says so ({@link RunExecutor}).
 *
 * <pre>
 * ./mvnw -o -q -pl adaps-bench -am package -DskipTests
 * java -cp adaps-bench/target/benchmarks.jar io.adaps.bench.macro.TechniqueComparison --epochs 5 --nodes 2,4
 * </pre>
 */
@Command(name = "technique-comparison",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs the mf and w2v examples under each technique (and, for w2v, sampling scheme) on local clusters "
                    + "(bin/adaps-example launch) and a single-node baseline, one run after the other, and writes "
                    + "Markdown tables (epoch time, speed-up over STATIC, quality, local-access fraction, bytes sent), "
                    + "the headline ratios and PNG charts into the generated region of a Markdown page.",
            "",
            "With --pin-cores each node runs on a processor of its own and the report also says how each workload "
                    + "scales: speed-up = T(single node on one processor) / T(N nodes, a processor each), 1.00x "
                    + "meaning no gain, with bytes sent per training entry and each node's processor time by kind of "
                    + "thread.",
            ""})
public final class TechniqueComparison implements Callable<Integer> {
    /** The techniques compared by default: the baselines first, the adaptive technique last. */
    static final String DEFAULT_TECHNIQUES = "STATIC,RELOCATION_ONLY,REPLICATION_ONLY,FULL_REPLICATION,ADAPTIVE";

    @Spec
    private CommandSpec spec;

    @Option(names = "--workloads", paramLabel = "W,...", split = ",", defaultValue = "mf,w2v",
            description = "Workloads, from mf and w2v (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads;

    @Option(names = "--techniques", paramLabel = "T,...", split = ",", defaultValue = DEFAULT_TECHNIQUES,
            description = "Techniques to run on every node count (default: ${DEFAULT-VALUE}).")
    private List<Technique> techniques;

    @Option(names = "--samplings", paramLabel = "S,...", split = ",",
            description = "Sampling schemes of the w2v runs, from NAIVE, PRELOCALIZE, POOL, LOCAL: every technique "
                    + "runs with each. Default: every technique with NAIVE, ADAPTIVE also with PRELOCALIZE, POOL and "
                    + "LOCAL, STATIC also with LOCAL (9 runs per node count).")
    private List<SamplingScheme> samplings = new ArrayList<>();

    @Option(names = "--nodes", paramLabel = "N,...", split = ",", defaultValue = "2",
            description = "Node counts of the clusters, one training thread per node (default: ${DEFAULT-VALUE}).")
    private List<Integer> nodeCounts;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "5",
            description = "Epochs per run; the mean epoch time leaves out the first when there are 2 or more "
                    + "(default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "1",
            description = "Runs of each configuration, the whole matrix N times in turn; each row is the run with "
                    + "the median epoch time, with the ranges over the runs beside it (default: ${DEFAULT-VALUE}).")
    private int repeats;

    @Option(names = "--baseline-threads", paramLabel = "N",
            description = "Threads of the single-node baseline of each workload; 0 skips it (default: 2, or 1 with "
                    + "--pin-cores, like each node of the clusters).")
    private Integer baselineThreads;

    @Option(names = "--pin-cores",
            description = "Run every node's JVM on a processor of its own (bin/adaps-example launch --pin-cores: node "
                    + "i on processor (i + t) mod processors in turn t = 0, 1, ... of --repeats), the single-node "
                    + "baseline too, on one processor; also writes "
                    + "each workload's scaling report (speed-up over the single node, bytes sent per training entry, "
                    + "each node's processor time by kind of thread, and per node count the parts alone: the cluster's "
                    + "nodes' shares trained at once without communication, the ceiling of its speed-up) into the "
                    + "region between <!-- scaling:W:begin --> "
                    + "and <!-- scaling:W:end --> of --out (at the top, under the page's introduction, if it has none).")
    private boolean pinCores;

    @Option(names = "--mf-arg", paramLabel = "FLAG",
            description = "A further flag for every mf run, e.g. --mf-arg=--entries=1000000; repeatable.")
    private List<String> mfArgs = new ArrayList<>();

    @Option(names = "--w2v-arg", paramLabel = "FLAG",
            description = "A further flag for every w2v run, as --mf-arg; repeatable.")
    private List<String> w2vArgs = new ArrayList<>();

    @Option(names = "--label", paramLabel = "NAME", defaultValue = "",
            description = "Names the data of this comparison's runs (as chosen with --mf-arg or --w2v-arg, e.g. "
                    + "--mf-arg=--rows=100000): " + ReportSubject.LABEL_EXPECTED + ". Its regions "
                    + "are then technique-comparison:W:NAME and scaling:W:NAME, and its headings, charts and logs "
                    + "carry it, so that comparisons of several data shapes or corpora share a page (default: none).")
    private String label;

    @Option(names = "--repo", paramLabel = "DIR", defaultValue = ".",
            description = "The repository's root, which holds bin/adaps-example (default: the current directory).")
    private Path repo;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "docs/benchmarks.md",
            description = "The Markdown page whose region between <!-- technique-comparison:W:begin --> and "
                    + "<!-- technique-comparison:W:end --> is replaced by the report of workload W (appended if it "
                    + "has none; created if missing); the charts go to img/ beside it (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--logs", paramLabel = "DIR", defaultValue = "target/technique-comparison",
            description = "Where each run's stdout and stderr go (default: ${DEFAULT-VALUE}).")
    private Path logs;

    @Option(names = "--timeout-minutes", paramLabel = "MINUTES", defaultValue = "20",
            description = "Time limit of each run (default: ${DEFAULT-VALUE}).")
    private long timeoutMinutes;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line; workloads, techniques and schemes may be given in any case ({@code mf}, {@code adaptive}). */
    static CommandLine commandLine() {
        return new CommandLine(new TechniqueComparison()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        List<RunConfig> runs = RunMatrix.runs(workloads, nodeCounts, techniques, samplings, baselineThreads(),
                pinCores);
        PrintWriter err = spec.commandLine().getErr();
        err.printf("technique-comparison: %d runs of %d epoch(s), each limited to %d minute(s)%n",
                runs.size() * repeats, epochs, timeoutMinutes);
        Files.createDirectories(logs);
        Path launcher = repo.resolve("bin").resolve("adaps-example").toAbsolutePath().normalize();
        RunExecutor executor = new RunExecutor(launcher, repo, logs, Duration.ofMinutes(timeoutMinutes), pinCores,
                err);
        Map<Workload, List<String>> extraArgs = Map.of(Workload.MF, mfArgs, Workload.W2V, w2vArgs);
        List<RunOutcome> outcomes = new ArrayList<>();
        int processors = Runtime.getRuntime().availableProcessors();
        List<ProcessorSpeed.Measured[]> processorSpeed = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            int firstCore = pinCores ? (repeat - 1) % processors : 0;
            if (pinCores) {
                processorSpeed.add(ProcessorSpeed.perProcessor(processors));
                err.printf("technique-comparison: turn %d, processor speed: %s%n", repeat,
                        ProcessorSpeed.describe(processorSpeed.get(repeat - 1)));
                err.flush();
            }
            for (RunConfig run : RunMatrix.turn(runs, repeat)) {
                String logName = (label.isEmpty() ? "" : label + "-") + run.logName()
                        + (repeats == 1 ? "" : "-run" + repeat);
                outcomes.add(executor.run(run, epochs, firstCore, extraArgs.get(run.workload()), logName));
            }
        }
        Path page = out.toAbsolutePath().normalize();
        for (Workload workload : workloads) {
            ReportSubject subject = new ReportSubject(workload, label);
            ComparisonReport report = new ComparisonReport(subject, nodeCounts, epochs, repeats, processors,
                    baselineThreads(), pinCores, extraArgs.get(workload));
            write(ReportRegion.comparison(subject), page, report.markdown(outcomes, page.resolveSibling("img"), "img"));
            if (pinCores) {
                write(ReportRegion.scaling(subject), page, new ScalingReport(subject, epochs, repeats, processors,
                        baselineThreads(), extraArgs.get(workload), processorSpeed).markdown(outcomes));
            }
        }
        err.println("technique-comparison: wrote " + out + " and its charts in " + page.resolveSibling("img"));
        err.flush();
        return outcomes.stream().allMatch(outcome -> outcome.failure() == null) ? 0 : 1;
    }

    /** Prints {@code markdown} to stdout and writes it into {@code region} of {@code page}. */
    private void write(ReportRegion region, Path page, String markdown) throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.print(markdown);
        stdout.flush();
        region.write(page, markdown);
    }

    private void validate() throws IOException {
        String problem = null;
        if (epochs < 1) {
            problem = "--epochs=" + epochs + " (expected >= 1)";
        } else if (repeats < 1) {
            problem = "--repeats=" + repeats + " (expected >= 1)";
        } else if (baselineThreads() < 0) {
            problem = "--baseline-threads=" + baselineThreads() + " (expected >= 0)";
        } else if (pinCores && baselineThreads() == 0) {
            problem = "--baseline-threads=0 (expected >= 1 with --pin-cores: the speed-ups are over the single node)";
        } else if (timeoutMinutes <= 0) {
            problem = "--timeout-minutes=" + timeoutMinutes + " (expected > 0)";
        } else if (nodeCounts.stream().anyMatch(nodes -> nodes <= 0) || hasDuplicates(nodeCounts)) {
            problem = "--nodes=" + nodeCounts + " (expected distinct counts > 0)";
        } else if (hasDuplicates(workloads)) {
            problem = "--workloads=" + workloads + " (expected distinct workloads)";
        } else if (hasDuplicates(techniques)) {
            problem = "--techniques=" + techniques + " (expected distinct techniques)";
        } else if (hasDuplicates(samplings)) {
            problem = "--samplings=" + samplings + " (expected distinct schemes)";
        } else if (!label.isEmpty() && !ReportSubject.isLabel(label)) {
            problem = "--label=" + label + " (expected " + ReportSubject.LABEL_EXPECTED + ")";
        } else if (!Files.isExecutable(repo.resolve("bin").resolve("adaps-example"))) {
            problem = "--repo=" + repo + " (expected the repository's root, with an executable bin/adaps-example)";
        } else {
            problem = outProblem();
        }
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), problem);
        }
    }

    /** The single node's threads: as given, else 1 with pinned cores (as each node of a cluster), 2 without. */
    private int baselineThreads() {
        return baselineThreads != null ? baselineThreads : pinCores ? 1 : 2;
    }

    /** Why the reports could not be written to {@code --out}, or {@code null}. */
    private String outProblem() throws IOException {
        try {
            for (Workload workload : workloads) {
                ReportSubject subject = new ReportSubject(workload, label);
                ReportRegion.comparison(subject).check(out);
                if (pinCores) {
                    ReportRegion.scaling(subject).check(out);
                }
            }
            return null;
        } catch (IllegalArgumentException e) {
            return "--out=" + out + " (" + e.getMessage() + ")";
        }
    }

    private static boolean hasDuplicates(List<?> values) {
        return new HashSet<>(values).size() != values.size();
    }
}
