package io.adaps.examples;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a node's processor time goes while it trains, by kind of thread: the training threads,
 * the adaptive manager, the transport, the JIT compilers, the garbage collector and the rest, read
 * from {@code /proc/self/task} (Linux; elsewhere every figure is 0). A run times each epoch's
 * training with {@link #start()} and {@link #stop(int)} (evaluation is left out) and prints the
 * first epoch (the JIT's warm-up) and the others apart, per node, so that the cost of a cluster
 * can be compared with one node's thread by thread.
 *
 * <p>Times are in the kernel's clock ticks of {@value #TICKS_PER_SECOND} per second (its
 * {@code USER_HZ} on every Linux platform the JVM runs on), user and system time together.
 *
 * <p>HotSpot starts and stops compiler threads as its queue of methods to compile grows and
 * shrinks, and a thread's time leaves {@code /proc/self/task} with it: summing the live threads
 * made the JIT's share of an epoch come out negative. The process's own total
 * ({@code /proc/self/stat}) keeps the time of ended threads, so the difference between it and the
 * live threads' sum is counted as JIT time (the only threads of a node that end while it trains).
 */
public final class ThreadCpu {
    /** The kernel's clock ticks per second in {@code /proc}. */
    static final int TICKS_PER_SECOND = 100;
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path PROCESS = Path.of("/proc/self/stat");

    /** Kinds of thread, by their names (the kernel keeps the first 15 characters). */
    public enum Kind {
        TRAINING("training"), MANAGER("manager"), TRANSPORT("transport"), JIT("jit"), GC("gc"), OTHER("other");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The kind's key in the {@linkplain #lines CPU lines}, e.g. {@code training}. */
        public String label() {
            return label;
        }

        /** The kind of the thread called {@code name}. */
        static Kind of(String name) {
            if (name.startsWith("adaps-mf") || name.startsWith("adaps-w2v")) {
                return TRAINING;
            } else if (name.startsWith("adaps-manager")) {
                return MANAGER;
            } else if (name.startsWith("adaps-netty") || name.startsWith("adaps-injvm")) {
                return TRANSPORT;
            } else if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                return JIT;
            } else if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")) {
                // A JVM that sees one processor (a node of launch --pin-cores) runs the serial
                // collector, whose pauses run on the VM thread; its other safepoint work is small.
                return GC;
            }
            return OTHER;
        }
    }

    private final long[] warmUpTicks = new long[Kind.values().length];
    private final long[] steadyTicks = new long[Kind.values().length];
    private double warmUpSeconds;
    private double steadySeconds;
    private int lastEpoch;
    /** The first epoch timed, or 0 before any. */
    private int firstEpoch;
    private long[] startTicks;
    private long startNanos;

    /** Starts timing an epoch's training. */
    public void start() {
        startTicks = now();
        startNanos = System.nanoTime();
    }

    /** Ends timing epoch {@code epoch}'s training; returns its wall time in seconds. */
    public double stop(int epoch) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long[] ticks = now();
        if (firstEpoch == 0) {
            firstEpoch = epoch; // 1, or the first epoch after the one a resumed run's checkpoint saved
        }
        long[] into = epoch == firstEpoch ? warmUpTicks : steadyTicks;
        for (int k = 0; k < ticks.length; k++) {
            into[k] += ticks[k] - startTicks[k];
        }
        if (epoch == firstEpoch) {
            warmUpSeconds += seconds;
        } else {
            steadySeconds += seconds;
        }
        lastEpoch = Math.max(lastEpoch, epoch);
        return seconds;
    }

    /**
     * The machine-readable lines of the epochs timed: the first (epoch 1, or the first after a
     * resumed checkpoint's), then the others up to the last, e.g.
     * {@code CPU node=0 epochs=2-10 wall=3.21 training=2.95 manager=0.12 transport=0.08 jit=0.03
     * gc=0.01 other=0.02}: seconds of processor time by kind of thread, and the epochs' wall time.
     */
    public List<String> lines(int node) {
        List<String> lines = new ArrayList<>(2);
        int first = Math.max(1, firstEpoch);
        lines.add(line(node, Integer.toString(first), warmUpSeconds, warmUpTicks));
        if (lastEpoch > first) {
            lines.add(line(node, (first + 1) + "-" + lastEpoch, steadySeconds, steadyTicks));
        }
        return lines;
    }

    private static String line(int node, String epochs, double wallSeconds, long[] ticks) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "CPU node=%d epochs=%s wall=%.2f", node, epochs,
                wallSeconds));
        for (Kind kind : Kind.values()) {
            line.append(String.format(Locale.ROOT, " %s=%.2f", kind.label, ticks[kind.ordinal()] / (double) TICKS_PER_SECOND));
        }
        return line.toString();
    }

    /** Processor ticks of every thread of this process now, by kind (indexed by ordinal). */
    static long[] now() {
        long[] now = new long[Kind.values().length];
        if (!Files.isDirectory(TASKS)) {
            return now;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            long process = ticks(Files.readString(PROCESS));
            long live = 0;
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    long ticks = ticks(Files.readString(task.resolve("stat")));
                    now[Kind.of(name).ordinal()] += ticks;
                    live += ticks;
                } catch (IOException ended) {
                    // The thread ended between the listing and the read: the process total keeps its time.
                }
            }
            now[Kind.JIT.ordinal()] += Math.max(0, process - live);
        } catch (IOException e) {
            return now;
        }
        return now;
    }

    /** User plus system ticks from a {@code stat} line: fields 14 and 15, after the parenthesized name. */
    static long ticks(String stat) {
        int at = stat.lastIndexOf(')') + 2;
        for (int field = 3; field < 14; field++) {
            at = stat.indexOf(' ', at) + 1;
        }
        int end = stat.indexOf(' ', at);
        int next = stat.indexOf(' ', end + 1);
        return Long.parseLong(stat, at, end, 10) + Long.parseLong(stat, end + 1, next < 0 ? stat.length() : next, 10);
    }
}
