package io.adaps.intent;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;

/**
 * How many clocks ahead of a worker the adaptive manager acts on intents, estimated online with
 * no user tuning. Used by the manager thread only.
 *
 * <h2>Formula</h2>
 * <pre>
 *   clocks() = clamp(ceil(rate * roundQuantile * 2), 1, MAX_CLOCKS)
 * </pre>
 * An action (a relocation or a new replica) must be complete when the worker reaches the
 * intent's start clock, but should not start much earlier: a replica held longer than needed
 * costs synchronization every round. Acting takes about two manager rounds: one to decide and
 * send (the round trip to the parameter's home), one to carry it out and synchronize. In that
 * time a worker advances {@code rate * 2 * round} clocks, so that is the window:
 * <ul>
 *   <li>{@code rate}: clocks per second of the fastest worker, since the window must suffice for
 *       it. Each worker's rate is an exponentially weighted ratio of clocks advanced to time
 *       passed, both decayed by {@code exp(-dt / RATE_TIME_CONSTANT_NANOS)}: the ratio of sums weighs
 *       each interval by its length, so frequent short samples (a worker that advanced 0 or 1
 *       clocks in one round) average out instead of swinging the estimate, and the first samples
 *       need no warm-up bias correction.</li>
 *   <li>{@code roundQuantile}: the {@value #ROUND_QUANTILE} quantile (nearest rank) of the last
 *       {@value #ROUND_SAMPLES} round durations. A high quantile rather than the mean is the
 *       safety margin: most actions then finish in time even when rounds are slow, and a bounded
 *       sample window forgets the slow rounds of a past phase.</li>
 * </ul>
 * Before any data the rate or the quantile is 0, so the window is the minimum, 1 clock: act on
 * what the worker needs next.
 */
public final class ActionWindow {
    /** The smallest window, and the window before any data. */
    public static final long MIN_CLOCKS = 1;
    /** The largest window: beyond it intents would be held for an unbounded time. */
    public static final long MAX_CLOCKS = 1L << 20;
    /** Round durations kept for the quantile. */
    public static final int ROUND_SAMPLES = 64;
    /** The quantile of round durations used as the action latency. */
    public static final double ROUND_QUANTILE = 0.9;
    /** The time constant of the rate's exponential smoothing: follows a change of pace within seconds. */
    public static final long RATE_TIME_CONSTANT_NANOS = 1_000_000_000L;
    // Rounding noise of the double arithmetic must not add a clock to an exact product.
    private static final double CEIL_TOLERANCE = 1e-9;

    private final long[] lastClocks;
    private final double[] weightedClocks;
    private double weightedNanos;
    private long lastNanos;
    private boolean started;
    private double clocksPerSecond;

    private final long[] rounds = new long[ROUND_SAMPLES];
    /** The samples of {@link #rounds} in the window, in ascending order. */
    private final long[] sortedRounds = new long[ROUND_SAMPLES];
    private int roundCount;
    private int nextRound;
    private long roundQuantileNanos;

    /** An estimator for {@code workers} workers. */
    public ActionWindow(int workers) {
        if (workers <= 0) {
            throw new IllegalArgumentException("workers=" + workers + " (expected > 0)");
        }
        lastClocks = new long[workers];
        weightedClocks = new double[workers];
    }

    /**
     * Observes the workers' clocks at {@code nanoTime} ({@link System#nanoTime()}). The first call
     * only sets the baseline.
     *
     * @throws IllegalArgumentException if there is not one clock per worker, or time or a clock
     *                                  went backwards
     */
    public void onClock(long nanoTime, long[] workerClocks) {
        checkNotNull(workerClocks, "workerClocks");
        if (workerClocks.length != lastClocks.length) {
            throw new IllegalArgumentException("workerClocks.length=" + workerClocks.length + " (expected workers="
                    + lastClocks.length + ")");
        }
        if (!started) {
            System.arraycopy(workerClocks, 0, lastClocks, 0, lastClocks.length);
            lastNanos = nanoTime;
            started = true;
            return;
        }
        if (nanoTime < lastNanos) {
            throw new IllegalArgumentException("nanoTime=" + nanoTime + " (expected >= the previous " + lastNanos
                    + ")");
        }
        for (int w = 0; w < lastClocks.length; w++) {
            if (workerClocks[w] < lastClocks[w]) {
                throw new IllegalArgumentException("workerClocks[" + w + "]=" + workerClocks[w]
                        + " (expected >= the previous clock " + lastClocks[w] + ")");
            }
        }
        long elapsed = nanoTime - lastNanos;
        double decay = Math.exp(-(double) elapsed / RATE_TIME_CONSTANT_NANOS);
        weightedNanos = weightedNanos * decay + elapsed;
        double fastest = 0;
        for (int w = 0; w < lastClocks.length; w++) {
            weightedClocks[w] = weightedClocks[w] * decay + (workerClocks[w] - lastClocks[w]);
            fastest = Math.max(fastest, weightedClocks[w]);
            lastClocks[w] = workerClocks[w];
        }
        lastNanos = nanoTime;
        if (weightedNanos > 0) {
            clocksPerSecond = fastest / weightedNanos * 1e9;
        }
    }

    /**
     * Forgets {@code worker}'s clock rate, so that a new worker may take its place starting from
     * clock 0 (the fastest worker then sets the rate without it).
     */
    public void forget(int worker) {
        if (worker < 0 || worker >= lastClocks.length) {
            throw new IllegalArgumentException("worker=" + worker + " (expected 0.." + (lastClocks.length - 1) + ")");
        }
        lastClocks[worker] = 0;
        weightedClocks[worker] = 0;
    }

    /**
     * Observes that one manager round took {@code roundNanos}. The window's samples are kept
     * sorted as they come and go, by a scan and a shift of at most {@value #ROUND_SAMPLES} each:
     * sorting them anew each round ran the JDK's general sort, a method large enough that C2
     * compiled it several times (on stack, then whole) in a cluster node's later epochs, on the
     * core its training thread needs.
     */
    public void onRound(long roundNanos) {
        checkNonNegative(roundNanos, "roundNanos");
        if (roundCount == ROUND_SAMPLES) {
            removeSorted(rounds[nextRound]);
        }
        rounds[nextRound] = roundNanos;
        nextRound = (nextRound + 1) % ROUND_SAMPLES;
        insertSorted(roundNanos);
        roundQuantileNanos = sortedRounds[(int) Math.ceil(ROUND_QUANTILE * roundCount) - 1];
    }

    /** Removes one sample equal to {@code nanos}, which the window holds, from the sorted samples. */
    private void removeSorted(long nanos) {
        int at = 0;
        while (sortedRounds[at] != nanos) {
            at++;
        }
        roundCount--;
        System.arraycopy(sortedRounds, at + 1, sortedRounds, at, roundCount - at);
    }

    /** Adds {@code nanos} to the sorted samples, after those equal to it. */
    private void insertSorted(long nanos) {
        int at = roundCount;
        while (at > 0 && sortedRounds[at - 1] > nanos) {
            at--;
        }
        System.arraycopy(sortedRounds, at, sortedRounds, at + 1, roundCount - at);
        sortedRounds[at] = nanos;
        roundCount++;
    }

    /** The window in clocks: see the class comment. */
    public long clocks() {
        double window = clocksPerSecond * roundQuantileNanos * 2 / 1e9;
        if (!(window < MAX_CLOCKS)) {
            return MAX_CLOCKS;
        }
        return Math.max(MIN_CLOCKS, (long) Math.ceil(window - CEIL_TOLERANCE));
    }

    /** The smoothed clock rate of the fastest worker, per second; 0 before two observations. */
    public double clocksPerSecond() {
        return clocksPerSecond;
    }

    /** The round-duration quantile in milliseconds; 0 before any round. */
    public double roundQuantileMillis() {
        return roundQuantileNanos / 1e6;
    }
}
