package io.adaps.bench.mf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.adaps.api.AdaPS;
import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfTables;
import io.adaps.examples.mf.MfTrainer;
import io.adaps.examples.mf.ShardPool;

/**
 * The ratio {@link MfEpochBenchmark} is read for, the MF epoch through AdaPS over the plain-array
 * epoch on one thread (issue 13's target: at most 1.3), measured pair by pair: each of several JVMs
 * trains both models and times one AdaPS epoch and then one plain epoch, over and over, and every
 * pair gives a ratio.
 *
 * <p>Why pairs: on a shared host the processor's speed drifts within seconds, and the JMH benchmark
 * times the two variants in different forks, minutes apart (one fork's epochs ranged 397-843 ms on
 * the host of docs/benchmarks.md's twenty-first session). Two epochs back to back see the same
 * speed. Why several JVMs: each JVM's compiled code and memory layout differ, and with them its
 * ratio (two JVMs of one build, started at once, differed by up to 25% in their AdaPS epochs), so
 * one JVM is one sample. The summary gives each JVM's median ratio, their median and range, and the
 * median over all pairs.
 *
 * <pre>
 * taskset -c 1 java -cp adaps-bench/target/benchmarks.jar io.adaps.bench.mf.MfEpochPairs [jvms, 8] [pairs, 10]
 * </pre>
 *
 * The JVMs run one after the other, with the processors this process may use (pin it with
 * {@code taskset}), on the benchmark's default data: 3M zipf-skewed ratings of a 10,000 x 5,000
 * matrix, rank 32, batches of 1024. Their logs go to this process's standard error; a JVM that fails,
 * or outlives its bound, ends the run with an exception.
 */
public final class MfEpochPairs {
    /** Epochs of each model before the pairs are timed: the JIT's compilations and the caches' warm-up. */
    private static final int WARMUP_PAIRS = 4;
    private static final int RANK = 32;
    private static final int ROWS = 10_000;
    private static final int COLS = 5_000;
    private static final int ENTRIES = 3_000_000;
    private static final int BATCH = 1024;
    private static final String CHILD = "--pairs-jvm";
    private static final String PAIR = "PAIR ";
    /** A bound on one JVM: its data, warm-up and pairs take well under a second per epoch on any host seen. */
    private static final long SECONDS_PER_PAIR_BOUND = 30;

    private MfEpochPairs() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 2 && args[0].equals(CHILD)) {
            runPairs(positive(args[1], "pairs"));
            return;
        }
        if (args.length > 2) {
            throw new IllegalArgumentException("args=" + String.join(" ", args) + " (expected [jvms] [pairs])");
        }
        int jvms = args.length > 0 ? positive(args[0], "jvms") : 8;
        int pairs = args.length > 1 ? positive(args[1], "pairs") : 10;
        List<double[]> ratios = new ArrayList<>();
        for (int jvm = 0; jvm < jvms; jvm++) {
            double[] jvmRatios = pairsOfOneJvm(pairs);
            ratios.add(jvmRatios);
            System.out.printf(Locale.ROOT, "jvm %d: median ratio %.3f (pairs %.3f-%.3f)%n", jvm + 1,
                    median(jvmRatios), min(jvmRatios), max(jvmRatios));
        }
        System.out.println(summary(ratios));
    }

    /**
     * The summary line of the ratios, one array per JVM: the median of the JVMs' medians, their range,
     * and the median over every pair.
     *
     * @throws IllegalArgumentException if there are no JVMs or a JVM has no ratios
     */
    static String summary(List<double[]> ratiosPerJvm) {
        if (ratiosPerJvm.isEmpty()) {
            throw new IllegalArgumentException("ratiosPerJvm=[] (expected the ratios of at least one JVM)");
        }
        double[] medians = new double[ratiosPerJvm.size()];
        int pairs = 0;
        for (int jvm = 0; jvm < medians.length; jvm++) {
            double[] ratios = ratiosPerJvm.get(jvm);
            if (ratios.length == 0) {
                throw new IllegalArgumentException("ratios of JVM " + (jvm + 1) + "=[] (expected at least one pair)");
            }
            medians[jvm] = median(ratios);
            pairs += ratios.length;
        }
        double[] all = new double[pairs];
        int at = 0;
        for (double[] ratios : ratiosPerJvm) {
            System.arraycopy(ratios, 0, all, at, ratios.length);
            at += ratios.length;
        }
        return String.format(Locale.ROOT, "AdaPS over plain arrays, MF epoch on one thread: median of %d JVMs' medians "
                + "%.3f (%.3f-%.3f), median of all %d pairs %.3f", medians.length, median(medians), min(medians),
                max(medians), pairs, median(all));
    }

    /** Runs one JVM of {@code pairs} pairs and returns their ratios; the JVM is stopped if it outlives its bound. */
    private static double[] pairsOfOneJvm(int pairs) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx2g", "-cp", System.getProperty("java.class.path"),
                MfEpochPairs.class.getName(), CHILD, Integer.toString(pairs))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Double> ratios = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> readPairs(process, ratios), "mf-epoch-pairs-reader");
        reader.setDaemon(true);
        reader.start();
        long bound = SECONDS_PER_PAIR_BOUND * (pairs + WARMUP_PAIRS);
        if (!process.waitFor(bound, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(SECONDS_PER_PAIR_BOUND, TimeUnit.SECONDS);
            throw new IllegalStateException("a JVM of pairs ran longer than " + bound + " s (expected less; stopped)");
        }
        reader.join(TimeUnit.SECONDS.toMillis(SECONDS_PER_PAIR_BOUND));
        if (process.exitValue() != 0 || ratios.size() != pairs) {
            throw new IllegalStateException("a JVM of pairs exited with " + process.exitValue() + " after "
                    + ratios.size() + " of " + pairs + " pairs (expected 0 after all of them)");
        }
        return ratios.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Adds the ratio of every pair {@code process} prints to {@code ratios}, until its output ends. */
    private static void readPairs(Process process, List<Double> ratios) {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(PAIR)) {
                    String[] times = line.substring(PAIR.length()).split(" ");
                    ratios.add(Double.parseDouble(times[0]) / Double.parseDouble(times[1]));
                }
            }
        } catch (IOException e) {
            // The process was stopped: the count of ratios tells the caller.
        }
    }

    /** The child JVM: warms both models up, then prints {@code PAIR <AdaPS ns> <plain ns>} per pair. */
    private static void runPairs(int pairs) {
        MfData train = MfEpochBenchmark.ratings(ROWS, COLS, ENTRIES);
        try (AdaPS node = MfTables.startNode(ROWS, COLS, RANK, MfEpochBenchmark.SEED);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, MfEpochBenchmark.LEARNING_RATE,
                     MfEpochBenchmark.REGULARIZATION, 1, BATCH);
             ShardPool pool = new ShardPool(1, "plain-mf")) {
            PlainHogwildMf plain = new PlainHogwildMf(ROWS, COLS, RANK, MfEpochBenchmark.LEARNING_RATE,
                    MfEpochBenchmark.REGULARIZATION, MfEpochBenchmark.SEED);
            double sink = 0;
            for (int pair = -WARMUP_PAIRS; pair < pairs; pair++) {
                long start = System.nanoTime();
                sink += trainer.epoch(train);
                long middle = System.nanoTime();
                sink += plain.epoch(train, pool);
                long end = System.nanoTime();
                if (pair >= 0) {
                    System.out.println(PAIR + (middle - start) + " " + (end - middle));
                }
            }
            // Printed so that neither epoch's work can be optimized away.
            System.out.printf(Locale.ROOT, "sum of squared errors %.1f%n", sink);
        }
    }

    private static int positive(String value, String name) {
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a positive integer)", e);
        }
        if (parsed <= 0) {
            throw new IllegalArgumentException(name + "=" + value + " (expected a positive integer)");
        }
        return parsed;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }
}
