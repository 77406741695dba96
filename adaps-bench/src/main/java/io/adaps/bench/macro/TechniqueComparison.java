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
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.adaps.api.Technique;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Compares AdaPS's techniques on the {@code mf} example: for each number of nodes and each
 * technique, runs {@code bin/adaps-example launch --nodes N -- mf --threads 1 --epochs E
 * --technique T} as a separate process (the launcher starts one JVM per node), plus a single-node
 * baseline {@code bin/adaps-example mf --threads 2 --epochs E}, reads the {@code RESULT} lines node
 * 0 prints per epoch and writes a Markdown table ({@link ComparisonTable}) to stdout and to a file.
 *
 * <p>The runs go one after the other, each bounded by a time limit; a run that fails or times out
 * is in the table as failed, with its exit code. Each run's stdout and stderr are kept in the log
 * directory. The children get the environment of this process without its {@code ADAPS_}
 * variables, so that neither a technique nor a cluster from the environment leaks into a run.
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
            "Runs the mf example under each technique on local clusters (bin/adaps-example launch) and a "
                    + "single-node baseline, one run after the other, and writes a Markdown table of epoch time, "
                    + "test RMSE, local-access fraction and bytes sent.",
            ""})
public final class TechniqueComparison implements Callable<Integer> {
    /** The techniques compared by default: the baselines first, the adaptive technique last. */
    static final String DEFAULT_TECHNIQUES = "STATIC,RELOCATION_ONLY,REPLICATION_ONLY,FULL_REPLICATION,ADAPTIVE";
    /** How long a stopped run may take to exit before it is killed. */
    private static final Duration KILL_GRACE = Duration.ofSeconds(15);

    @Spec
    private CommandSpec spec;

    @Option(names = "--techniques", paramLabel = "T,...", split = ",", defaultValue = DEFAULT_TECHNIQUES,
            description = "Techniques to run on every node count (default: ${DEFAULT-VALUE}).")
    private List<Technique> techniques;

    @Option(names = "--nodes", paramLabel = "N,...", split = ",", defaultValue = "2",
            description = "Node counts of the clusters, one training thread per node (default: ${DEFAULT-VALUE}).")
    private List<Integer> nodeCounts;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "5",
            description = "Epochs per run, at least 2: the mean epoch time leaves out the first "
                    + "(default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--baseline-threads", paramLabel = "N", defaultValue = "2",
            description = "Threads of the single-node baseline; 0 skips it (default: ${DEFAULT-VALUE}).")
    private int baselineThreads;

    @Option(names = "--mf-arg", paramLabel = "FLAG",
            description = "A further flag for every mf run, e.g. --mf-arg=--entries=1000000; repeatable.")
    private List<String> mfArgs = new ArrayList<>();

    @Option(names = "--repo", paramLabel = "DIR", defaultValue = ".",
            description = "The repository's root, which holds bin/adaps-example (default: the current directory).")
    private Path repo;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "target/technique-comparison.md",
            description = "Where the Markdown table goes, besides stdout (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--logs", paramLabel = "DIR", defaultValue = "target/technique-comparison",
            description = "Where each run's stdout and stderr go (default: ${DEFAULT-VALUE}).")
    private Path logs;

    @Option(names = "--timeout-minutes", paramLabel = "MINUTES", defaultValue = "20",
            description = "Time limit of each run (default: ${DEFAULT-VALUE}).")
    private long timeoutMinutes;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new TechniqueComparison()).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        Path launcher = repo.resolve("bin").resolve("adaps-example").toAbsolutePath().normalize();
        Files.createDirectories(logs);
        PrintWriter err = spec.commandLine().getErr();
        List<RunOutcome> outcomes = new ArrayList<>();
        if (baselineThreads > 0) {
            List<String> command = new ArrayList<>(List.of(launcher.toString(), "mf", "--threads",
                    Integer.toString(baselineThreads), "--epochs", Integer.toString(epochs)));
            command.addAll(mfArgs);
            outcomes.add(run(command, 1, baselineThreads, "single node", err));
        }
        for (int nodes : nodeCounts) {
            for (Technique technique : techniques) {
                List<String> command = new ArrayList<>(List.of(launcher.toString(), "launch", "--nodes",
                        Integer.toString(nodes), "--", "mf", "--threads", "1", "--epochs", Integer.toString(epochs),
                        "--technique", technique.name()));
                command.addAll(mfArgs);
                outcomes.add(run(command, nodes, 1, technique.name(), err));
            }
        }
        String report = report(outcomes);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.print(report);
        stdout.flush();
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, report, StandardCharsets.UTF_8);
        err.println("technique-comparison: wrote " + out);
        err.flush();
        return outcomes.stream().allMatch(outcome -> outcome.failure() == null) ? 0 : 1;
    }

    private void validate() {
        String problem = null;
        if (epochs < 2) {
            problem = "--epochs=" + epochs + " (expected >= 2: the mean epoch time leaves out the first)";
        } else if (baselineThreads < 0) {
            problem = "--baseline-threads=" + baselineThreads + " (expected >= 0)";
        } else if (timeoutMinutes <= 0) {
            problem = "--timeout-minutes=" + timeoutMinutes + " (expected > 0)";
        } else if (nodeCounts.stream().anyMatch(nodes -> nodes <= 0)) {
            problem = "--nodes=" + nodeCounts + " (expected counts > 0)";
        } else if (!Files.isExecutable(repo.resolve("bin").resolve("adaps-example"))) {
            problem = "--repo=" + repo + " (expected the repository's root, with an executable bin/adaps-example)";
        }
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), problem);
        }
    }

    /** The report: what was run, then the table. */
    private String report(List<RunOutcome> outcomes) {
        return String.format(Locale.ROOT, "## Technique comparison: mf, %d epochs%s%n%n"
                        + "Clusters of local JVMs with 1 training thread per node (`bin/adaps-example launch`), and a "
                        + "single-node baseline with %d threads; %d processors. Time: mean over epochs 2..%d; "
                        + "ratio: to STATIC on as many nodes; RMSE and local fraction: the cluster's, after epoch %d; "
                        + "MiB: sent by node 0 by the end of epoch %d.%n%n%s",
                epochs, mfArgs.isEmpty() ? "" : " (" + String.join(" ", mfArgs) + ")", baselineThreads,
                Runtime.getRuntime().availableProcessors(), epochs, epochs, epochs, ComparisonTable.markdown(outcomes));
    }

    /** Runs {@code command}, bounded by the time limit, and collects what node 0 reported. */
    private RunOutcome run(List<String> command, int nodes, int threads, String technique, PrintWriter err)
            throws IOException, InterruptedException {
        String name = (nodes + "x" + threads + "-" + technique).replace(' ', '-').toLowerCase(Locale.ROOT);
        Path stdout = logs.resolve(name + ".out");
        Path stderr = logs.resolve(name + ".err");
        err.printf(Locale.ROOT, "technique-comparison: %d x %d, %s: %s%n", nodes, threads, technique,
                String.join(" ", command));
        err.flush();
        ProcessBuilder builder = new ProcessBuilder(command).directory(repo.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(variable -> variable.startsWith("ADAPS_"));
        long start = System.nanoTime();
        Process process = builder.start();
        boolean finished = process.waitFor(timeoutMinutes, TimeUnit.MINUTES);
        if (!finished) {
            stop(process);
        }
        int exitCode = finished ? process.exitValue() : -1;
        List<EpochResult> results = EpochResult.parseAll(Files.readAllLines(stdout, StandardCharsets.UTF_8));
        RunOutcome outcome = new RunOutcome(nodes, threads, technique, exitCode, !finished, epochs, results);
        String failure = outcome.failure();
        err.printf(Locale.ROOT, "technique-comparison: %d x %d, %s: %s after %.0f s (logs: %s)%n", nodes, threads,
                technique, failure == null ? "done" : failure, (System.nanoTime() - start) / 1e9, stdout);
        err.flush();
        return outcome;
    }

    /**
     * Stops a run that exceeded its time limit: asks the process and its children (the launcher's
     * nodes) to terminate, then kills whatever is left after a grace period.
     */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        if (!process.waitFor(KILL_GRACE.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }
}
