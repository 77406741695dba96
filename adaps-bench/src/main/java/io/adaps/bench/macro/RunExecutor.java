package io.adaps.bench.macro;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one configuration of the comparison as a separate process ({@code bin/adaps-example}, whose
 * launcher starts one JVM per node) and collects what node 0 reported and where each node's
 * processor time went.
 *
 * <p>Each run is bounded by a time limit, after which it and its children (the nodes) are stopped.
 * Its stdout and stderr are kept in the log directory. The children get the environment of this
 * process without its {@code ADAPS_} variables, so that neither a technique nor a cluster from the
 * environment leaks into a run. A run that fails, times out or prints malformed results is an
 * outcome that says so, not an exception, so that one broken run costs its row and not the report.
 *
 * @param launcher the examples' launcher, {@code bin/adaps-example}
 * @param workDir  the directory runs start in (the repository's root)
 * @param logs     where each run's stdout and stderr go
 * @param timeout  the time limit of each run
 * @param pinCores whether every run's nodes are pinned to a core each ({@link RunConfig#command})
 * @param err      where progress is reported
 */
record RunExecutor(Path launcher, Path workDir, Path logs, Duration timeout, boolean pinCores, PrintWriter err) {
    /** How long a stopped run may take to exit before it is killed. */
    private static final Duration KILL_GRACE = Duration.ofSeconds(15);

    /**
     * Runs {@code config} for {@code epochs} epochs with the further flags {@code extraArgs}, its
     * output going to {@code logName.out} and {@code logName.err} in the log directory; pinned, its
     * node 0 runs on processor {@code firstCore}.
     */
    RunOutcome run(RunConfig config, int epochs, int firstCore, List<String> extraArgs, String logName)
            throws IOException, InterruptedException {
        List<String> command = config.command(launcher.toString(), epochs, pinCores, firstCore, extraArgs);
        Path stdout = logs.resolve(logName + ".out");
        Path stderr = logs.resolve(logName + ".err");
        report("%s, %s: %s", config.workload().subcommand(), config.configuration(), String.join(" ", command));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(variable -> variable.startsWith("ADAPS_"));
        long start = System.nanoTime();
        Process process = builder.start();
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            stop(process);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int exitCode = finished ? process.exitValue() : -1;
        RunOutcome outcome;
        List<String> lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
        try {
            outcome = new RunOutcome(config, epochs, exitCode, !finished, null, EpochResult.parseAll(lines),
                    NodeCpu.parseAll(lines), seconds);
        } catch (IllegalArgumentException e) {
            outcome = new RunOutcome(config, epochs, exitCode, !finished, e.getMessage(), List.of(), List.of(),
                    seconds);
        }
        String failure = outcome.failure();
        report("%s, %s: %s after %.0f s (logs: %s)%s", config.workload().subcommand(), config.configuration(),
                failure == null ? (outcome.diverged() ? "diverged" : "done") : failure, seconds, stdout,
                outcome.outputProblem() == null ? "" : ": " + outcome.outputProblem());
        return outcome;
    }

    private void report(String format, Object... args) {
        err.printf(Locale.ROOT, "technique-comparison: " + format + "%n", args);
        err.flush();
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
