package io.adaps.bench.macro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * How long one load from memory takes on each processor: a chase of dependent loads through a
 * 64 MiB array (far larger than any cache here), run pinned to each processor in turn
 * ({@code taskset}) in a JVM of its own. The benchmarks' nodes train memory-bound kernels, and on
 * a shared host one processor's loads can take several times the other's for minutes while their
 * arithmetic runs at the same speed (2026-12-01: 76 ns against 268 ns, then 161 ns against 251 ns,
 * while a loop of square roots took 44-50 ms on either): a cluster, which needs every processor,
 * then runs at the slower one's pace. {@link TechniqueComparison} measures it at the start of each
 * turn, so that a report says which host it ran on.
 *
 * <p>The array holds one cycle through all its slots in a random order (Sattolo's algorithm), so
 * every load depends on the one before and no prefetcher can guess it.
 */
final class MemoryLatency {
    static final int SLOTS = 1 << 24;
    private static final int LOADS = 2_000_000;
    private static final int ROUNDS = 5;
    private static final long PROBE_SECONDS = 60;

    private MemoryLatency() {
    }

    /** Prints the latency of one load on this processor, in nanoseconds, the best of 5 rounds. */
    public static void main(String[] args) {
        System.out.printf(Locale.ROOT, "%.1f%n", nanosPerLoad(cycle(SLOTS, 42), LOADS, ROUNDS));
    }

    /** A random permutation of {@code [0, slots)} that is one cycle through every slot. */
    static int[] cycle(int slots, long seed) {
        int[] next = new int[slots];
        for (int i = 0; i < slots; i++) {
            next[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = slots - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swap = next[i];
            next[i] = next[j];
            next[j] = swap;
        }
        return next;
    }

    /** The best over {@code rounds} of the mean time of {@code loads} dependent loads through {@code next}. */
    static double nanosPerLoad(int[] next, int loads, int rounds) {
        long best = Long.MAX_VALUE;
        int at = 0;
        for (int round = 0; round < rounds; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < loads; i++) {
                at = next[at];
            }
            best = Math.min(best, System.nanoTime() - start);
        }
        if (at < 0) {
            throw new AssertionError(); // keeps the chase from being optimized away
        }
        return (double) best / loads;
    }

    /**
     * The latency on each of {@code processors} processors, each measured in a JVM pinned to it;
     * NaN for a processor whose probe failed, did not finish within a minute or printed no number.
     */
    static double[] perProcessor(int processors) throws InterruptedException {
        double[] nanos = new double[processors];
        for (int processor = 0; processor < processors; processor++) {
            nanos[processor] = probe(processor);
        }
        return nanos;
    }

    /** {@code 76 / 268 ns}: the latencies of {@link #perProcessor}, processor 0 first. */
    static String describe(double[] nanos) {
        List<String> cells = new ArrayList<>();
        for (double value : nanos) {
            cells.add(Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.0f", value));
        }
        return String.join(" / ", cells) + " ns";
    }

    private static double probe(int processor) throws InterruptedException {
        List<String> command = List.of("taskset", "-c", Integer.toString(processor),
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                MemoryLatency.class.getName());
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Double.NaN;
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.exitValue() == 0 ? Double.parseDouble(out) : Double.NaN;
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
    }
}
