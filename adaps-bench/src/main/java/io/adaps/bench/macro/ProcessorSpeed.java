package io.adaps.bench.macro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * How fast each processor is right now, by two probes run pinned to each processor in turn
 * ({@code taskset}) in a JVM of its own: one load from memory (a chase of dependent loads through a
 * 64 MiB array, far larger than any cache here) and one step of arithmetic (a chain of dependent
 * 64-bit multiply-adds, in registers). On a shared host one processor can run slower than the
 * other for minutes: its loads several times slower while its arithmetic keeps pace (2026-12-01:
 * 76 ns against 268 ns, while a loop of square roots took 44-50 ms on either), or everything
 * slower (later that day a loop took 1.45 s on processor 0 and 2.63 s on processor 1, and the
 * node on processor 1 trained MF 40% longer whichever node it was). A cluster, which needs every
 * processor, then runs at the slower one's pace. {@link TechniqueComparison} measures both at the
 * start of each turn, so that a report says which host it ran on.
 *
 * <p>The array holds one cycle through all its slots in a random order (Sattolo's algorithm), so
 * every load depends on the one before and no prefetcher can guess it.
 */
final class ProcessorSpeed {
    static final int SLOTS = 1 << 24;
    private static final int LOADS = 2_000_000;
    private static final int STEPS = 50_000_000;
    private static final int ROUNDS = 5;
    private static final long PROBE_SECONDS = 60;

    /** One processor's figures: nanoseconds per dependent load and per arithmetic step; NaN if unknown. */
    record Measured(double loadNanos, double stepNanos) {
        static final Measured UNKNOWN = new Measured(Double.NaN, Double.NaN);
    }

    private ProcessorSpeed() {
    }

    /** Prints this processor's nanoseconds per load and per arithmetic step, each the best of 5 rounds. */
    public static void main(String[] args) {
        System.out.printf(Locale.ROOT, "%.1f %.3f%n", nanosPerLoad(cycle(SLOTS, 42), LOADS, ROUNDS),
                nanosPerStep(STEPS, ROUNDS));
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
     * The best over {@code rounds} of the mean time of {@code steps} steps of a linear congruential
     * generator, each depending on the one before (Knuth's MMIX constants).
     */
    static double nanosPerStep(int steps, int rounds) {
        long best = Long.MAX_VALUE;
        long x = 1;
        for (int round = 0; round < rounds; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < steps; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            best = Math.min(best, System.nanoTime() - start);
        }
        if (x == 0) {
            throw new AssertionError(); // keeps the chain from being optimized away
        }
        return (double) best / steps;
    }

    /**
     * Each of {@code processors} processors' figures, each measured in a JVM pinned to it;
     * {@link Measured#UNKNOWN} for a processor whose probe failed, did not finish within a minute
     * or printed no figures.
     */
    static Measured[] perProcessor(int processors) throws InterruptedException {
        Measured[] measured = new Measured[processors];
        for (int processor = 0; processor < processors; processor++) {
            measured[processor] = probe(processor);
        }
        return measured;
    }

    /** {@code loads 76 / 268 ns, arithmetic steps 0.81 / 0.80 ns}: the figures of {@link #perProcessor}, processor 0 first. */
    static String describe(Measured[] measured) {
        return "loads " + cells(measured, Measured::loadNanos, "%.0f") + " ns, arithmetic steps "
                + cells(measured, Measured::stepNanos, "%.2f") + " ns";
    }

    private static String cells(Measured[] measured, ToDoubleFunction<Measured> figure, String format) {
        List<String> cells = new ArrayList<>();
        for (Measured processor : measured) {
            double value = figure.applyAsDouble(processor);
            cells.add(Double.isNaN(value) ? "?" : String.format(Locale.ROOT, format, value));
        }
        return String.join(" / ", cells);
    }

    private static Measured probe(int processor) throws InterruptedException {
        List<String> command = List.of("taskset", "-c", Integer.toString(processor),
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                ProcessorSpeed.class.getName());
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Measured.UNKNOWN;
            }
            String[] out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split(" ");
            return process.exitValue() == 0 && out.length == 2
                    ? new Measured(Double.parseDouble(out[0]), Double.parseDouble(out[1])) : Measured.UNKNOWN;
        } catch (IOException | NumberFormatException e) {
            return Measured.UNKNOWN;
        }
    }
}
