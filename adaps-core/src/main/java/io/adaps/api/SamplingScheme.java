package io.adaps.api;

/**
 * How a node serves sampling access ({@link TableView#prepareSample}, {@link TableView#pullSample}):
 * reads of rows chosen at random from a table's {@linkplain TableSpec#withSampling distribution},
 * such as the negatives of word2vec. Chosen per node at start-up ({@link AdaPS.Builder#sampling}).
 * A parameter server that knows a read is a sample may serve it from data it holds already,
 * trading some fidelity to the distribution for locality (Renz-Wieland, Gemulla, Kaoudi, Markl,
 * "NuPS: A Parameter Server for Machine Learning with Non-Uniform Parameter Access", SIGMOD 2022).
 *
 * <p>Each scheme states how far its samples may deviate from the requested distribution.
 */
public enum SamplingScheme {
    /**
     * Draws independent keys from the distribution at {@link TableView#prepareSample} and pulls
     * them like any other key at {@link TableView#pullSample}. Exactly the requested distribution;
     * samples of remote rows cost a network round trip.
     */
    NAIVE,
    /**
     * As {@link #NAIVE}, and also signals intent for the drawn keys over the clocks given to
     * {@link TableView#prepareSample}, so that the adaptive manager can place them before the pull.
     * Exactly the requested distribution, independent draws.
     */
    PRELOCALIZE,
    /**
     * Draws from a per-node pool of keys drawn from the distribution, each pool entry used a
     * bounded number of times and then replaced by a fresh draw; the node keeps intent on the
     * pool's keys so that they are local. Each sample is marginally distributed as requested, but
     * samples are not independent: a key may repeat up to the reuse bound more often than
     * independent draws would make it.
     */
    POOL,
    /**
     * Prefers keys held on this node (owned or replicated): a draw of a remote key is redrawn a
     * bounded number of times. Local keys become over-represented and remote ones
     * under-represented, by factors that depend on the probability mass held locally; where every
     * key is local it is exactly the requested distribution.
     *
     * <p>Precisely: each row is drawn up to {@link #LOCAL_ATTEMPTS} {@code = R} times until a draw
     * is held here (owned, or a replica that is not pending), keeping the last draw if none is.
     * With {@code L} the requested distribution's mass on rows held here when the sample is
     * prepared, a local row {@code k} is drawn with probability {@code p(k) (1 - (1 - L)^R) / L},
     * a remote one with {@code p(k) (1 - L)^(R - 1)}; the total-variation distance from
     * {@code p} is {@code (1 - L) (1 - (1 - L)^(R - 1))}, at most 0.65 (for {@code L} near 0.26).
     * Rows of a sample are independent.
     */
    LOCAL;

    /** The most draws per row of {@link #LOCAL}. */
    public static final int LOCAL_ATTEMPTS = 8;

    /**
     * The default number of keys of a generation of a {@link #POOL} pool. With
     * {@link #DEFAULT_POOL_REUSE}, a generation lasts 65,536 keys handed out: long enough for the
     * adaptive manager to place a generation's keys before they are used (a sample of 64 keys
     * takes microseconds locally, a relocation milliseconds). In one-second smoke runs of
     * {@code SamplingBenchmark} on two nodes, 1024 keys reused 4 times turned over so fast that
     * rows were mostly in flight (fewer samples per second than NAIVE); 4096 x 16 kept 99.8% of the
     * rows local. Not tuned beyond that.
     */
    public static final int DEFAULT_POOL_SIZE = 4096;
    /** The default number of times each key of a {@link #POOL} generation is handed out. */
    public static final int DEFAULT_POOL_REUSE = 16;
    /** The smallest {@link #POOL} generation. */
    public static final int MIN_POOL_SIZE = 16;
    /** The largest {@link #POOL} generation. */
    public static final int MAX_POOL_SIZE = 1 << 20;
    /** The largest reuse bound of {@link #POOL}. */
    public static final int MAX_POOL_REUSE = 1 << 10;

    /**
     * Returns {@code size} if it is a valid {@link #POOL} generation size: a power of two in
     * {@value #MIN_POOL_SIZE}..{@value #MAX_POOL_SIZE}.
     *
     * @throws IllegalArgumentException otherwise
     */
    public static int checkPoolSize(int size) {
        if (size < MIN_POOL_SIZE || size > MAX_POOL_SIZE || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("samplePoolSize=" + size + " (expected a power of two in " + MIN_POOL_SIZE
                    + ".." + MAX_POOL_SIZE + ")");
        }
        return size;
    }

    /**
     * Returns {@code reuse} if it is a valid {@link #POOL} reuse bound: 1..{@value #MAX_POOL_REUSE}.
     *
     * @throws IllegalArgumentException otherwise
     */
    public static int checkPoolReuse(int reuse) {
        if (reuse < 1 || reuse > MAX_POOL_REUSE) {
            throw new IllegalArgumentException("samplePoolReuse=" + reuse + " (expected 1.." + MAX_POOL_REUSE + ")");
        }
        return reuse;
    }
}
