package io.adaps.examples.launch;

import static io.adaps.examples.Checks.checkNonNegative;
import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A cluster of AdaPS nodes as JVM processes on this machine: {@link #start} picks free ports on
 * 127.0.0.1, starts one JVM per node with {@code ADAPS_NODE_ID}, {@code ADAPS_PEERS} and a fresh
 * {@code ADAPS_CLUSTER_ID} in its environment, and copies the nodes' output to a
 * {@link ClusterOutput}.
 *
 * <p>{@link #await} is the watchdog: when a node exits with an error, the others get
 * {@link Spec#failureGrace()} to finish or fail on their own (a node notices a failed peer within
 * its failure timeout), then they are stopped; nodes that ignore the stop are killed
 * {@value #KILL_GRACE_SECONDS} s later. {@link #close()} stops every node that still runs, also
 * from a shutdown hook when the launcher is interrupted (Ctrl-C) or fails. Nothing is left behind.
 *
 * <p>The ports are free when chosen and bound by the nodes a moment later; another program that
 * takes one in between makes that node fail at start-up (and so the run, cleanly).
 */
public final class LocalCluster implements AutoCloseable {
    /**
     * The JVM flags of every node: Agrona reads {@code jdk.internal.misc}; and C2 alone, without
     * tiered compilation. A cluster's code paths change as rows move and replicas come and go, so
     * compiled methods keep being deoptimized; with tiered compilation each one goes back through
     * C1's profiling tier and is compiled twice more, and on a node with one core the compiler
     * threads then took about as much processor as the training thread's overheads (see
     * {@code docs/architecture.md}, Decisions). Nor does C2 speculate on loop predicates from
     * profiles: in a cluster's first epoch those speculations failed over and over (each failure a
     * recompilation of a large method), and without them the first epoch is a third shorter and
     * the later ones as fast. A JVM that does not know that flag ignores it. And C2 inlines hot
     * methods of up to 100 bytecodes instead of 325: each deoptimization then recompiles a smaller
     * method, and the first epoch of a cluster node compiles a third less (MF on 2 pinned nodes:
     * its first epoch 2.1-3.0 s -> 1.5-1.7 s); the single node's epochs stay as fast. C2 compiles
     * Netty's methods at a tenth of its thresholds: they run once per read or write of a connection,
     * a few hundred times per epoch, and under C2 alone stayed interpreted for many epochs unless
     * thousands of small requests (such as an evaluation pulling one batch at a time) warmed them.
     * And Netty's allocator leaves out its flight-recorder events, whose registration loaded the
     * JDK's recorder metadata while a node first connected (0.4 s on its one core). The single node
     * runs with the same flags.
     */
    public static final List<String> JVM_FLAGS = List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-XX:-TieredCompilation", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:-UseProfiledLoopPredicate",
            "-XX:FreqInlineSize=100", "-XX:CompileCommand=quiet",
            "-XX:CompileCommand=CompileThresholdScaling,io/netty/*.*,0.1", "-Dio.netty.jfr.enabled=false");
    private static final long KILL_GRACE_SECONDS = 5;
    private static final long PUMP_DRAIN_MILLIS = 5_000;
    private static final long NEVER = Long.MAX_VALUE;

    private final Spec spec;
    private final ClusterOutput output;
    private final List<String> peers;
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
    private boolean closed;

    private LocalCluster(Spec spec, ClusterOutput output, List<String> peers) {
        this.spec = spec;
        this.output = output;
        this.peers = peers;
    }

    /**
     * Starts the nodes of {@code spec}, sending their output to {@code output}.
     *
     * @throws IOException if no free ports could be found or a JVM could not be started; the nodes
     *                     started already are stopped
     */
    public static LocalCluster start(Spec spec, ClusterOutput output) throws IOException {
        checkNotNull(spec, "spec");
        checkNotNull(output, "output");
        List<String> peers = new ArrayList<>();
        for (int port : spec.alone() ? List.<Integer>of() : freePorts(spec.nodes())) {
            peers.add("127.0.0.1:" + port);
        }
        LocalCluster cluster = new LocalCluster(spec, output, List.copyOf(peers));
        try {
            String clusterId = "local-" + UUID.randomUUID();
            for (int node = 0; node < spec.nodes(); node++) {
                cluster.startNode(node, clusterId);
            }
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * {@code count} distinct ports on 127.0.0.1 that are free now: each is bound with port 0 (the
     * system picks), all are held until the last is picked, then released.
     */
    public static List<Integer> freePorts(int count) throws IOException {
        checkPositive(count, "count");
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            List<Integer> ports = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                ports.add(socket.getLocalPort());
            }
            return List.copyOf(ports);
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    private void startNode(int node, String clusterId) throws IOException {
        List<String> command = new ArrayList<>();
        if (spec.pinCores()) {
            command.addAll(List.of(TASKSET, "-c",
                    Integer.toString(spec.processorOf(node, Runtime.getRuntime().availableProcessors()))));
        }
        command.add(javaBinary());
        command.addAll(JVM_FLAGS);
        command.add("-Xmx" + spec.heap());
        // The whole heap from the start, so that its young generation is a third of it, not of the
        // JVM's small default initial heap. A node's first epochs grow its buffers to their high
        // marks once (replica slabs, message buffers, a round's deltas: 160 MB on a w2v node of a
        // 2-node cluster), more than the default young generation's 100 MB: the serial collector
        // (a JVM on one processor uses it) then copied what had just grown, 0.45-1.4 s of its one
        // core per run, in the first epochs (4 runs); with the heap sized once, 0.00-0.02 s.
        command.add("-Xms" + spec.heap());
        command.add(spec.mainClass());
        command.addAll(spec.args());
        if (spec.alone()) {
            command.addAll(List.of(PART, node + "/" + spec.nodes()));
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        // The class path goes in the environment, not on the command line: a long one (a test's,
        // with every dependency) would pass the kernel's limit for one argument, and it hid the
        // command line from ProcessHandle.Info (which reads one page of /proc/<pid>/cmdline).
        builder.environment().put("CLASSPATH", spec.classPath());
        if (spec.alone()) {
            // A single node: no cluster from this launcher, nor one inherited from its environment.
            builder.environment().keySet().removeAll(List.of("ADAPS_NODE_ID", "ADAPS_PEERS", "ADAPS_CLUSTER_ID"));
        } else {
            builder.environment().put("ADAPS_NODE_ID", Integer.toString(node));
            builder.environment().put("ADAPS_PEERS", String.join(",", peers));
            builder.environment().put("ADAPS_CLUSTER_ID", clusterId);
        }
        Process process = builder.start();
        processes.add(process);
        process.onExit().thenRun(() -> exits.add(node));
        pump(new OutputPump(process.getInputStream(), node, false, output), "adaps-launch-node-" + node + "-out");
        pump(new OutputPump(process.getErrorStream(), node, true, output), "adaps-launch-node-" + node + "-err");
    }

    /** Runs a command on chosen processors (util-linux, on every Linux). */
    private static final String TASKSET = "taskset";
    /** The examples' option that makes a single node train one part of the data ({@code PartOption}). */
    private static final String PART = "--part";

    /** The java binary of this JVM, so that the nodes run on the same Java. */
    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private void pump(OutputPump pump, String name) {
        Thread thread = new Thread(pump, name);
        thread.setDaemon(true);
        pumps.add(thread);
        thread.start();
    }

    /** Nodes in the cluster. */
    public int size() {
        return processes.size();
    }

    /** Every node's address, in node id order: the {@code ADAPS_PEERS} of the nodes; none when they run alone. */
    public List<String> peers() {
        return peers;
    }

    /** The process of {@code node}, e.g. to write to its stdin or to kill it. */
    public Process process(int node) {
        return processes.get(node);
    }

    /**
     * Waits until every node has exited, stopping the others {@link Spec#failureGrace()} after the
     * first one that fails, and returns once their output is copied. Call it (or
     * {@link #await(Duration)}) once.
     */
    public Outcome await() throws InterruptedException {
        return await(NEVER);
    }

    /**
     * {@link #await()}, but stops every node that still runs once {@code timeout} has passed.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public Outcome await(Duration timeout) throws InterruptedException {
        checkNotNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout=" + timeout + " (expected > 0)");
        }
        return await(timeout.toNanos());
    }

    private Outcome await(long timeoutNanos) throws InterruptedException {
        long deadline = timeoutNanos == NEVER ? NEVER : System.nanoTime() + timeoutNanos;
        Integer[] codes = new Integer[processes.size()];
        int running = processes.size();
        int failed = -1;
        boolean timedOut = false;
        long stopAt = NEVER;
        long killAt = NEVER;
        while (running > 0) {
            long now = System.nanoTime();
            if (deadline != NEVER && now - deadline >= 0) {
                deadline = NEVER;
                timedOut = true;
                output.note("nodes still running after " + Duration.ofNanos(timeoutNanos) + "; stopping them");
                stopAt = now;
            }
            if (stopAt != NEVER && now - stopAt >= 0) {
                stopAt = NEVER;
                killAt = now + TimeUnit.SECONDS.toNanos(KILL_GRACE_SECONDS);
                forEachRunning(codes, ProcessHandle::destroy);
            }
            if (killAt != NEVER && now - killAt >= 0) {
                killAt = NEVER;
                output.note("killing the nodes that ignored the stop");
                forEachRunning(codes, ProcessHandle::destroyForcibly);
            }
            long wake = Math.min(deadline, Math.min(stopAt, killAt));
            Integer node = wake == NEVER ? exits.take() : exits.poll(wake - now, TimeUnit.NANOSECONDS);
            if (node == null) {
                continue;
            }
            running--;
            codes[node] = processes.get(node).exitValue();
            if (codes[node] != 0 && failed < 0) {
                failed = node;
                if (running > 0 && stopAt == NEVER && killAt == NEVER) {
                    output.note("node " + node + " exited with code " + codes[node] + "; stopping the other nodes in "
                            + spec.failureGrace().toSeconds() + " s unless they finish");
                    stopAt = System.nanoTime() + spec.failureGrace().toNanos();
                }
            }
        }
        drainPumps();
        return new Outcome(List.of(codes), failed, timedOut);
    }

    /**
     * Signals every node that has not exited through its {@link ProcessHandle}, which (unlike
     * {@link Process#destroy()}) leaves the output pipes open, so that what a node prints while it
     * stops still reaches the output.
     */
    private void forEachRunning(Integer[] codes, Consumer<ProcessHandle> signal) {
        for (int node = 0; node < processes.size(); node++) {
            if (codes[node] == null) {
                signal.accept(processes.get(node).toHandle());
            }
        }
    }

    private void drainPumps() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PUMP_DRAIN_MILLIS);
        for (Thread pump : pumps) {
            pump.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }

    /**
     * Stops every node that still runs (and anything it started): a stop request first, a kill
     * {@value #KILL_GRACE_SECONDS} s later. Idempotent; safe from a shutdown hook.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Process process : processes) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.toHandle().destroy();
        }
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(KILL_GRACE_SECONDS);
        for (Process process : processes) {
            try {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    kill(process);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                kill(process);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.toHandle().destroyForcibly();
    }

    /**
     * What to start.
     *
     * @param nodes        nodes (JVMs), > 0
     * @param mainClass    the class each JVM runs
     * @param args         its arguments, the same for every node
     * @param classPath    the class path of each JVM
     * @param heap         each JVM's maximum heap, as for {@code -Xmx}: e.g. {@code 512m}, {@code 2g}
     * @param failureGrace how long the other nodes may run on after one failed, > 0
     * @param pinCores     whether node {@code i}'s JVM runs on processor {@code (firstCore + i) mod
     *                     processors} only ({@code taskset}), so that each node has a core of its
     *                     own as on a cluster of machines; one node is then pinned to one core too
     * @param alone        whether the JVMs are single nodes that do not form a cluster, JVM
     *                     {@code i} training alone the part of the data that node {@code i} of the
     *                     cluster would ({@code --part i/N} after {@code args}): with
     *                     {@code pinCores}, what the cluster's nodes could do without communication
     * @param firstCore    with {@code pinCores}, the processor of node 0, >= 0 (0 without): a
     *                     benchmark can run its single node on each processor in turn, since one
     *                     processor of a shared host can be slower than the other for minutes
     */
    public record Spec(int nodes, String mainClass, List<String> args, String classPath, String heap,
                       Duration failureGrace, boolean pinCores, boolean alone, int firstCore) {
        private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[kKmMgG]?");

        /**
         * Checks the parameters.
         *
         * @throws IllegalArgumentException naming the first one out of range
         */
        public Spec {
            checkPositive(nodes, "nodes");
            checkNotNull(mainClass, "mainClass");
            args = List.copyOf(checkNotNull(args, "args"));
            checkNotNull(classPath, "classPath");
            checkHeap(heap, "heap");
            checkNotNull(failureGrace, "failureGrace");
            if (failureGrace.isNegative() || failureGrace.isZero()) {
                throw new IllegalArgumentException("failureGrace=" + failureGrace + " (expected > 0)");
            }
            checkNonNegative(firstCore, "firstCore");
            if (firstCore > 0 && !pinCores) {
                throw new IllegalArgumentException("firstCore=" + firstCore + " (expected 0 without pinCores)");
            }
        }

        /** A cluster, its JVMs pinned to a processor each from processor 0 or not, single nodes or not. */
        public Spec(int nodes, String mainClass, List<String> args, String classPath, String heap,
                    Duration failureGrace, boolean pinCores, boolean alone) {
            this(nodes, mainClass, args, classPath, heap, failureGrace, pinCores, alone, 0);
        }

        /** The processor that node {@code node}'s JVM is pinned to on a machine of {@code processors}. */
        int processorOf(int node, int processors) {
            return (firstCore + node) % processors;
        }

        /** A cluster whose JVMs run on any processor. */
        public Spec(int nodes, String mainClass, List<String> args, String classPath, String heap,
                    Duration failureGrace) {
            this(nodes, mainClass, args, classPath, heap, failureGrace, false);
        }

        /** A cluster, its JVMs pinned to a processor each or not. */
        public Spec(int nodes, String mainClass, List<String> args, String classPath, String heap,
                    Duration failureGrace, boolean pinCores) {
            this(nodes, mainClass, args, classPath, heap, failureGrace, pinCores, false);
        }

        /**
         * Returns {@code heap} if it is a JVM heap size such as {@code 512m} or {@code 2g}, else throws
         * naming {@code name}.
         */
        public static String checkHeap(String heap, String name) {
            checkNotNull(heap, name);
            if (!HEAP.matcher(heap).matches()) {
                throw new IllegalArgumentException(name + "=" + heap + " (expected a size such as 512m or 2g)");
            }
            return heap;
        }
    }

    /**
     * How the nodes ended.
     *
     * @param exitCodes  every node's exit code, in node id order
     * @param failedNode the first node that exited with an error, or -1 if none did
     * @param timedOut   whether the nodes were stopped because the wait's timeout passed
     */
    public record Outcome(List<Integer> exitCodes, int failedNode, boolean timedOut) {
        /** Copies {@code exitCodes}. */
        public Outcome {
            exitCodes = List.copyOf(exitCodes);
        }

        /** 0 if every node succeeded, else the exit code of the first node that failed (1 after a timeout). */
        public int exitCode() {
            if (failedNode >= 0) {
                return exitCodes.get(failedNode);
            }
            return timedOut ? 1 : 0;
        }
    }
}
