package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.adaps.api.transport.PeerAddress;
import io.adaps.transport.netty.Ports;

/**
 * The node JVMs of a multi-process test, each a node of one AdaPS cluster on this machine.
 *
 * <p>{@link #start} runs a main class in N JVMs with this JVM's {@code java} and class path (the
 * test classes and the Netty transport included), Agrona's add-exports flag, a small heap, and
 * the environment that {@code AdaPS.builder().fromEnvironment()} reads: {@code ADAPS_NODE_ID},
 * {@code ADAPS_PEERS} (free loopback ports) and a fresh {@code ADAPS_CLUSTER_ID}. Their output is
 * read into a {@link NodeOutput} as it comes. {@link #awaitExit} bounds the run and stops what is
 * left; {@link #close()} stops every JVM still running, so a failed test leaves no process behind.
 * {@link #run} does all of it and fails with the output of the nodes that failed.
 */
final class NodeJvms implements AutoCloseable {
    private static final List<String> JVM_FLAGS =
            List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx128m");
    /** How long a stopped JVM may take to exit before it is killed, and its output to be read. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final NodeOutput output = new NodeOutput();

    private NodeJvms() {
    }

    /**
     * How the JVMs ended: every exit code in node order (-1 for one that outlived even a kill), and
     * whether they were stopped at the timeout.
     */
    record Exits(List<Integer> codes, boolean timedOut) {
        boolean allSucceeded() {
            return codes.stream().allMatch(code -> code == 0);
        }
    }

    /**
     * Starts {@code nodes} JVMs running {@code mainClass} with {@code args}.
     *
     * @throws IOException if a JVM could not be started; those started already are stopped
     */
    static NodeJvms start(int nodes, Class<?> mainClass, List<String> args) throws IOException {
        String peers = String.join(",", Ports.loopback(nodes).stream().map(PeerAddress::toString).toList());
        String clusterId = "test-" + UUID.randomUUID();
        NodeJvms jvms = new NodeJvms();
        try {
            for (int node = 0; node < nodes; node++) {
                jvms.startNode(node, peers, clusterId, mainClass, args);
            }
        } catch (IOException | RuntimeException e) {
            jvms.close();
            throw e;
        }
        return jvms;
    }

    /**
     * Runs {@code nodes} JVMs of {@code mainClass} with {@code args} to their end (stopping them
     * after {@code timeout}) and returns their output.
     *
     * @throws AssertionError unless every JVM exited 0: with the output of every node that did not
     *                        (see {@link #failWithTheFailedNodesOutput})
     */
    static NodeOutput run(int nodes, Class<?> mainClass, List<String> args, Duration timeout)
            throws IOException, InterruptedException {
        try (NodeJvms jvms = start(nodes, mainClass, args)) {
            Exits exits = jvms.awaitExit(timeout);
            if (!exits.allSucceeded()) {
                jvms.failWithTheFailedNodesOutput(mainClass.getSimpleName() + " " + args, exits, timeout);
            }
            return jvms.output;
        }
    }

    private void startNode(int node, String peers, String clusterId, Class<?> mainClass, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(JVM_FLAGS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("ADAPS_NODE_ID", Integer.toString(node));
        builder.environment().put("ADAPS_PEERS", peers);
        builder.environment().put("ADAPS_CLUSTER_ID", clusterId);
        Process process = builder.start();
        processes.add(process);
        read(process.getInputStream(), node, false);
        read(process.getErrorStream(), node, true);
    }

    /** The java binary of this JVM, so that the nodes run on the same Java. */
    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private void read(InputStream stream, int node, boolean error) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(node, error, line);
                }
            } catch (IOException closed) {
                // The process was killed through its Process object, which closes the pipes.
            }
        }, "node-" + node + (error ? "-err" : "-out"));
        reader.setDaemon(true);
        readers.add(reader);
        reader.start();
    }

    /** The process of {@code node}, e.g. to kill it or to close its stdin. */
    Process process(int node) {
        return processes.get(node);
    }

    /** What the nodes printed so far. */
    NodeOutput output() {
        return output;
    }

    /**
     * Waits until every JVM has exited, at most {@code timeout}; then stops those still running
     * (killed {@link #STOP_GRACE} later if they ignore it), and returns once their output is read.
     */
    Exits awaitExit(Duration timeout) throws InterruptedException {
        boolean timedOut = !exitedWithin(timeout);
        if (timedOut) {
            stop();
        }
        long readDeadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (Thread reader : readers) {
            reader.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(readDeadline - System.nanoTime())));
        }
        List<Integer> codes = new ArrayList<>();
        for (Process process : processes) {
            codes.add(process.isAlive() ? -1 : process.exitValue());
        }
        return new Exits(codes, timedOut);
    }

    /**
     * Fails with the output of every node that did not exit 0, in the order in which they reported
     * a failed worker ({@link ChildMain#FAILURE}): the first is usually the cause, and the others
     * failed for want of it (a node that failed without such a report comes last).
     */
    private void failWithTheFailedNodesOutput(String run, Exits exits, Duration timeout) {
        List<Integer> failed = new ArrayList<>();
        for (int node = 0; node < exits.codes().size(); node++) {
            if (exits.codes().get(node) != 0) {
                failed.add(node);
            }
        }
        failed.sort(Comparator.comparingLong(node -> {
            NodeOutput.Line report = output.firstLine(node, ChildMain.FAILURE);
            return report == null ? Long.MAX_VALUE : report.nanos();
        }));
        StringBuilder report = new StringBuilder(run + ": exit codes " + exits.codes())
                .append(exits.timedOut() ? " (nodes still running after " + timeout.toSeconds() + " s were stopped)" : "")
                .append("; failed nodes in the order they reported it: ").append(failed);
        for (int node : failed) {
            report.append(String.format("%n--- output of node %d (exit code %d):%n", node, exits.codes().get(node)))
                    .append(output.text(node));
        }
        fail(report.toString());
    }

    /** Stops every JVM that still runs: a stop request, a kill {@link #STOP_GRACE} later. */
    private void stop() {
        // Through the ProcessHandle, which (unlike Process.destroy) leaves the pipes open, so that
        // what a node prints while it stops is still read.
        signal(ProcessHandle::destroy);
        try {
            if (!exitedWithin(STOP_GRACE)) {
                signal(ProcessHandle::destroyForcibly);
                exitedWithin(STOP_GRACE);
            }
        } catch (InterruptedException e) {
            signal(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }

    /** Whether every JVM has exited within {@code timeout}. */
    private boolean exitedWithin(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Process process : processes) {
            if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    private void signal(Consumer<ProcessHandle> signal) {
        for (Process process : processes) {
            if (process.isAlive()) {
                signal.accept(process.toHandle());
            }
        }
    }

    /** Stops every JVM that still runs (see {@link #awaitExit}); idempotent. */
    @Override
    public void close() {
        stop();
    }
}
