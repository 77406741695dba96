package io.adaps.bench.intent;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.adaps.intent.IntentTracker;

/**
 * What the adaptive manager pays per key to track intents ({@link IntentTracker}): each
 * invocation, every one of {@code workers} workers signals an intent of {@code keys} keys for the
 * clock after next and all move one clock on, as a training loop that signals per clock does;
 * the score is per invocation, {@code workers x keys} keys signalled. {@code ADJACENT}: each worker names the same keys clock after
 * clock, so its keys stay active (each intent's keys are counted in and out, no listener call).
 * {@code GAPPED}: each worker alternates between two key sets, so each advance ends the keys of
 * the intent two clocks back and starts them again for the next (a listener call each way, the
 * work that hand-offs and lingering build on). The listener only counts.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar adaps-bench/target/benchmarks.jar IntentTrackerBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class IntentTrackerBenchmark {
    /** How the key sets of one worker's consecutive intents relate. */
    public enum Pattern { ADJACENT, GAPPED }

    /** Keys are drawn from this many, about the columns and rows a node of the MF example names. */
    private static final int KEY_SPACE = 1 << 20;

    @Param({"1", "4"})
    int workers;

    @Param({"64", "1024"})
    int keys;

    @Param({"ADJACENT", "GAPPED"})
    Pattern pattern;

    private IntentTracker tracker;
    /** Per worker, the two key sets it alternates between (GAPPED) or the first only (ADJACENT). */
    private long[][][] keySets;
    private long[] clocks;
    private long clock;
    private Counting listener;

    /** Counts the keys that become active and inactive, so that the calls are not optimized away. */
    static final class Counting implements IntentTracker.Listener {
        long changes;

        @Override
        public void onActive(long key, long fromClock, long toClock) {
            changes++;
        }

        @Override
        public void onInactive(long key) {
            changes++;
        }
    }

    @Setup(Level.Trial)
    public void start() {
        tracker = new IntentTracker(workers);
        SplittableRandom random = new SplittableRandom(11);
        keySets = new long[workers][2][keys];
        for (long[][] sets : keySets) {
            for (long[] set : sets) {
                for (int i = 0; i < keys; i++) {
                    set[i] = random.nextInt(KEY_SPACE);
                }
            }
        }
        clocks = new long[workers];
        listener = new Counting();
    }

    /** One clock of every worker: an intent each for the clock after next, then the advance. */
    @Benchmark
    public void signalAndAdvance(Blackhole sink) {
        long next = ++clock;
        int set = pattern == Pattern.GAPPED ? (int) (next & 1) : 0;
        for (int w = 0; w < workers; w++) {
            tracker.add(w, keySets[w][set], 0, keys, next + 1, next + 2);
            clocks[w] = next;
        }
        tracker.advance(clocks, 1, listener);
        sink.consume(listener.changes);
    }
}
