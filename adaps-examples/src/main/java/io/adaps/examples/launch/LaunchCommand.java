package io.adaps.examples.launch;

import static io.adaps.examples.Checks.checkNonNegative;
import static io.adaps.examples.Checks.checkPositive;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import io.adaps.examples.Examples;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code launch} subcommand: runs an application as a cluster of JVMs on this machine
 * ({@link LocalCluster}), shows their output prefixed by node ({@link PrefixedConsole}) and exits
 * with the first failed node's exit code, or 0.
 *
 * <p>Everything after the options (or after {@code --}) is the application's command line, passed
 * unchanged to every node; the command line parser stops at the application's name
 * ({@link Examples#commandLine()}).
 */
@Command(name = LaunchCommand.NAME,
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Starts a cluster of AdaPS nodes as JVMs on this machine and runs an application on every node.",
            "",
            "Each node gets ADAPS_NODE_ID, ADAPS_PEERS (free ports on 127.0.0.1) and a fresh ADAPS_CLUSTER_ID. "
                    + "Output lines are prefixed with [node i]. When a node fails, the others are stopped a few "
                    + "seconds later; the exit code is that of the first node that failed, 0 if none did. Ctrl-C "
                    + "stops all nodes.",
            ""},
        footer = {"", "Example: adaps-example launch --nodes 2 -- mf --threads 1",
            "         adaps-example launch --nodes 2 --pin-cores --alone -- mf --threads 1",
            "         adaps-example launch --nodes 3 --restarts 2 -- mf --checkpoint-dir /tmp/mf-checkpoints "
                    + "--checkpoint-every 30s"})
public final class LaunchCommand implements Callable<Integer> {
    /** The subcommand's name. */
    public static final String NAME = "launch";
    /** How long the other nodes may run on after one failed: long enough to notice and report it. */
    static final Duration FAILURE_GRACE = Duration.ofSeconds(5);
    private static final String RESUME = "--resume";
    private static final String CHECKPOINT_DIR = "--checkpoint-dir";

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2",
            description = "Nodes, one JVM each (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = "1g",
            description = "Maximum heap of each node's JVM, as for -Xmx (default: ${DEFAULT-VALUE}).")
    private String heap;

    @Option(names = "--pin-cores",
            description = "Run node i on processor i mod processors only (taskset), so that each node has a core "
                    + "of its own as on a cluster of machines; with --nodes 1 the single node gets one core.")
    private boolean pinCores;

    @Option(names = "--first-core", paramLabel = "N", defaultValue = "0",
            description = "With --pin-cores, run node i on processor (N + i) mod processors instead, e.g. a single "
                    + "node on processor 1 (default: ${DEFAULT-VALUE}).")
    private int firstCore;

    @Option(names = "--alone",
            description = "Start the N JVMs as single nodes that do not connect, node i training alone the share of "
                    + "the data that node i of the cluster would (the application gets --part i/N): with --pin-cores, "
                    + "what the cluster's nodes could reach on these processors if communication cost nothing.")
    private boolean alone;

    @Option(names = "--restarts", paramLabel = "N", defaultValue = "0",
            description = "When a node fails, stop the others and start every node again with --resume, at most N "
                    + "times; the application must take --checkpoint-dir, whose newest checkpoint the restarted "
                    + "nodes continue from (default: ${DEFAULT-VALUE}).")
    private int restarts;

    @Parameters(paramLabel = "APPLICATION", arity = "1..*",
            description = "The application and its flags, run on every node, e.g. mf --threads 1.")
    private List<String> application;

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        PrefixedConsole console = new PrefixedConsole(spec.commandLine().getOut(), spec.commandLine().getErr());
        List<String> args = application;
        for (int restart = 0; ; restart++) {
            LocalCluster.Outcome outcome = run(args, console);
            if (outcome.exitCode() == 0 || restart == restarts) {
                return outcome.exitCode();
            }
            spec.commandLine().getErr().printf("launch: node %d failed (exit code %d); starting every node again with "
                    + "--resume (restart %d of %d)%n", outcome.failedNode(), outcome.exitCode(), restart + 1, restarts);
            spec.commandLine().getErr().flush();
            if (!args.contains(RESUME)) {
                args = new ArrayList<>(args);
                args.add(RESUME);
            }
        }
    }

    /** Runs {@code args} on a fresh cluster until every node has exited. */
    private LocalCluster.Outcome run(List<String> args, PrefixedConsole console) throws IOException, InterruptedException {
        LocalCluster.Spec cluster = new LocalCluster.Spec(nodes, Examples.class.getName(), args,
                System.getProperty("java.class.path"), heap, FAILURE_GRACE, pinCores, alone, firstCore);
        try (LocalCluster running = LocalCluster.start(cluster, console)) {
            Thread cleanup = new Thread(running::close, "adaps-launch-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            try {
                return running.await();
            } finally {
                removeHook(cleanup);
            }
        }
    }

    private void validate() {
        try {
            checkPositive(nodes, "--nodes");
            LocalCluster.Spec.checkHeap(heap, "--heap");
            checkNonNegative(restarts, "--restarts");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        int processors = Runtime.getRuntime().availableProcessors();
        if (firstCore < 0 || firstCore >= processors || firstCore > 0 && !pinCores) {
            throw new ParameterException(spec.commandLine(), "--first-core=" + firstCore + " (expected "
                    + (pinCores ? "0.." + (processors - 1) + ", a processor of this machine" : "0 without --pin-cores")
                    + ")");
        }
        if (alone && restarts > 0) {
            throw new ParameterException(spec.commandLine(), "--restarts=" + restarts + " (expected 0 with --alone: "
                    + "single nodes that fail are not restarted)");
        }
        if (restarts > 0 && application.stream().noneMatch(arg -> arg.startsWith(CHECKPOINT_DIR))) {
            throw new ParameterException(spec.commandLine(), "--restarts=" + restarts + " (expected an application "
                    + "with " + CHECKPOINT_DIR + ", whose newest checkpoint the restarted nodes resume from)");
        }
        Set<String> applications = new TreeSet<>(spec.parent().subcommands().keySet());
        applications.remove(NAME);
        if (!applications.contains(application.get(0))) {
            throw new ParameterException(spec.commandLine(), "APPLICATION=" + application.get(0) + " (expected one of "
                    + applications + ")");
        }
    }

    /** Removes the hook, unless the JVM is shutting down already (and running it). */
    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs (or ran) and stops the nodes.
        }
    }
}
