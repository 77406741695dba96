package io.adaps.bench.macro;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaps.api.Consistency;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Compares the consistency models on the examples (issue 14; the claim of Dai et al., AAAI'15:
 * ESSP reaches a quality in fewer clocks than SSP with the same bound, and in less time): per
 * workload a single-node baseline, then per node count one run per model, all with one technique
 * ({@code ADAPTIVE} by default; {@code LOCAL} sampling for w2v), one after the other. Writes, into
 * the workload's region {@code consistency-comparison:<workload>} of a Markdown page, a table per
 * node count (epoch time, final quality against the single node, quality after every epoch, the
 * staleness node 0's reads saw and the time its workers waited, from its {@code STALENESS} lines)
 * and two charts: quality per epoch (every epoch is the same number of clocks) and over time.
 *
 * <pre>
 * java -cp adaps-bench/target/benchmarks.jar io.adaps.bench.macro.ConsistencyComparison --pin-cores --workloads mf
 * </pre>
 */
@Command(name = "consistency-comparison", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs the examples under each consistency model on local clusters and a single-node baseline, "
                + "and writes a Markdown table and charts of quality per epoch and over time into a generated region.")
public final class ConsistencyComparison implements Callable<Integer> {
    private static final Pattern STALENESS = Pattern.compile("\\[node 0] STALENESS table=(\\S+) model=\\S+ reads=\\d+ "
            + "mean=([\\d.]+) p99=(\\d+) max=(\\d+) clockwait=([\\d.]+) replicawait=([\\d.]+)");

    @Spec
    private CommandSpec spec;

    @Option(names = "--workloads", paramLabel = "W,...", split = ",", defaultValue = "mf",
            description = "Workloads: mf, w2v (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads;

    @Option(names = "--models", paramLabel = "M,...", split = ",",
            defaultValue = "asp,bsp,ssp:1,ssp:4,ssp:16,essp:1,essp:4,essp:16",
            description = "Consistency models (default: ${DEFAULT-VALUE}).")
    private List<String> models;

    @Option(names = "--technique", paramLabel = "T", defaultValue = "ADAPTIVE",
            description = "The technique of every cluster run (default: ${DEFAULT-VALUE}).")
    private Technique technique;

    @Option(names = "--nodes", paramLabel = "N,...", split = ",", defaultValue = "2",
            description = "Node counts, one thread per node (default: ${DEFAULT-VALUE}).")
    private List<Integer> nodeCounts;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "10", description = "Epochs per run (default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--pin-cores", description = "Every node on a processor of its own, the baseline on one.")
    private boolean pinCores;

    @Option(names = "--repo", paramLabel = "DIR", defaultValue = ".", description = "The repository (default: .).")
    private Path repo;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "docs/benchmarks.md",
            description = "The Markdown page to write (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--logs", paramLabel = "DIR", defaultValue = "target/consistency-comparison",
            description = "Where each run's output goes (default: ${DEFAULT-VALUE}).")
    private Path logs;

    @Option(names = "--timeout-minutes", paramLabel = "MINUTES", defaultValue = "20",
            description = "Longest run (default: ${DEFAULT-VALUE}).")
    private long timeoutMinutes;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ConsistencyComparison()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        for (String model : models) {
            try {
                Consistency.parse(model);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--models: " + e.getMessage());
            }
        }
        if (epochs < 1) {
            throw new ParameterException(spec.commandLine(), "--epochs=" + epochs + " (expected >= 1)");
        }
        Path page = out.toAbsolutePath().normalize();
        for (Workload workload : workloads) {
            region(workload).check(page);
        }
        Files.createDirectories(logs);
        PrintWriter err = spec.commandLine().getErr();
        RunExecutor executor = new RunExecutor(repo.resolve("bin").resolve("adaps-example").toAbsolutePath().normalize(),
                repo, logs, Duration.ofMinutes(timeoutMinutes), pinCores, err);
        boolean allDone = true;
        for (Workload workload : workloads) {
            SamplingScheme sampling = workload.sampled() ? SamplingScheme.LOCAL : null;
            RunConfig single = new RunConfig(workload, 1, 1, null, workload.sampled() ? SamplingScheme.NAIVE : null);
            RunOutcome baseline = executor.run(single, epochs, 0, List.of(), single.logName());
            StringBuilder markdown = new StringBuilder(String.format(Locale.ROOT, "Generated by `ConsistencyComparison%s "
                    + "--workloads %s --epochs %d` on %d processors: %s%s runs of one thread per node, one per model; "
                    + "the baseline one node with one thread%s. Epoch time: the median of %s.%n", pinCores
                    ? " --pin-cores" : "", workload.subcommand(), epochs, Runtime.getRuntime().availableProcessors(),
                    technique, sampling == null ? "" : "+" + sampling, pinCores ? " on one processor" : "",
                    RunOutcome.timedEpochs(epochs)));
            allDone &= baseline.failure() == null;
            for (int nodes : nodeCounts) {
                List<RunOutcome> runs = new ArrayList<>(List.of(baseline));
                List<String> staleness = new ArrayList<>(List.of(""));
                for (String model : models) {
                    RunConfig run = new RunConfig(workload, nodes, 1, technique, sampling, model);
                    RunOutcome outcome = executor.run(run, epochs, 0, List.of(), run.logName());
                    allDone &= outcome.failure() == null;
                    runs.add(outcome);
                    staleness.add(staleness(logs.resolve(run.logName() + ".out")));
                }
                markdown.append(table(workload, nodes, runs, staleness));
                String name = "consistency-" + workload.subcommand() + "-" + nodes + "-nodes";
                Path images = page.resolveSibling("img");
                Files.createDirectories(images);
                String title = workload.subcommand() + ", " + nodes + " nodes, " + technique;
                if (ComparisonCharts.qualityPerEpoch(title + ": quality per epoch", workload, runs,
                        images.resolve(name + "-per-epoch.png"))) {
                    markdown.append(String.format("%n![%s per epoch](img/%s-per-epoch.png)%n", title, name));
                }
                if (ComparisonCharts.qualityOverTime(title + ": quality over time", workload, runs,
                        images.resolve(name + "-over-time.png"))) {
                    markdown.append(String.format("%n![%s over time](img/%s-over-time.png)%n", title, name));
                }
            }
            spec.commandLine().getOut().print(markdown);
            region(workload).write(page, markdown.toString());
        }
        spec.commandLine().getOut().flush();
        return allDone ? 0 : 1;
    }

    private static ReportRegion region(Workload workload) {
        return new ReportRegion("consistency-comparison", workload.subcommand(), ReportRegion.Placement.END);
    }

    /** One table: per run its configuration, epoch time, final quality and against the baseline, quality per epoch, staleness. */
    private String table(Workload workload, int nodes, List<RunOutcome> runs, List<String> staleness) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%n#### %s, %d nodes%n%n| configuration "
                + "| epoch s | final %s | vs single | after each epoch | node 0: staleness mean / p99 / max (clocks), "
                + "waited s (clock + replica) |%n|---|---|---|---|---|---|%n", workload.subcommand(), nodes,
                workload.qualityLabel()));
        double reference = runs.get(0).failure() == null ? runs.get(0).quality() : Double.NaN;
        for (int i = 0; i < runs.size(); i++) {
            RunOutcome run = runs.get(i);
            if (run.failure() != null) {
                table.append(String.format("| %s | %s | | | | |%n", run.config().configuration(), run.failure()));
                continue;
            }
            OptionalDouble seconds = run.medianEpochSeconds();
            StringBuilder perEpoch = new StringBuilder();
            for (EpochResult result : run.results()) {
                perEpoch.append(perEpoch.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.4f",
                        result.figure(workload.qualityKey()).orElse(Double.NaN)));
            }
            table.append(String.format(Locale.ROOT, "| %s | %s | %.4f | %s | %s | %s |%n", run.config().configuration(),
                    seconds.isPresent() ? String.format(Locale.ROOT, "%.3f", seconds.getAsDouble()) : "",
                    run.quality(), i == 0 ? "" : String.format(Locale.ROOT, "%+.1f%%", 100 * (run.quality() / reference - 1)),
                    perEpoch, staleness.get(i)));
        }
        return table.toString();
    }

    /** Node 0's {@code STALENESS} lines of the model's tables, e.g. {@code cols 0.27 / 1 / 1, 2.1 + 0.3}. */
    private static String staleness(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = STALENESS.matcher(line);
            if (m.find() && !m.group(1).contains("stats") && !m.group(1).equals("epoch.clocks")) {
                parts.add(String.format(Locale.ROOT, "%s %s / %s / %s, %.1f + %.1f", m.group(1), m.group(2), m.group(3),
                        m.group(4), Double.parseDouble(m.group(5)), Double.parseDouble(m.group(6))));
            }
        }
        return String.join("; ", parts);
    }
}
