package io.adaps.api;

/**
 * What a node's workers did with sampling access ({@link TableView#prepareSample},
 * {@link TableView#pullSample}, {@link TableView#takeSample}) under its {@link SamplingScheme}.
 *
 * @param scheme            the node's scheme
 * @param samples           samples prepared
 * @param rowsDrawn         rows of those samples
 * @param rowsPulled        rows of samples pulled, or taken without their values
 *                          ({@link TableView#takeSample})
 * @param rowsLocalAtPull   rows of samples pulled that were read in this node's memory (owned or
 *                          replica), and rows taken that could be read here at once; the others
 *                          were (or are to be) read at other nodes
 * @param localRedraws      {@link SamplingScheme#LOCAL}: draws that were drawn again because
 *                          their row was not held here
 * @param poolRefills       {@link SamplingScheme#POOL}: pool generations drawn (the first two of
 *                          each pool included)
 * @param poolFallbackDraws {@link SamplingScheme#POOL}: rows drawn fresh from the distribution
 *                          because the pool's generation was not ready (its refill was late)
 */
public record SamplingMetrics(SamplingScheme scheme, long samples, long rowsDrawn, long rowsPulled,
                              long rowsLocalAtPull, long localRedraws, long poolRefills, long poolFallbackDraws) {
    /** The metrics of a node whose workers sampled nothing under {@code scheme}. */
    public static SamplingMetrics none(SamplingScheme scheme) {
        return new SamplingMetrics(scheme, 0, 0, 0, 0, 0, 0, 0);
    }

    /** The fraction of pulled sample rows that were local; 1 before any pull. */
    public double localFractionAtPull() {
        return rowsPulled == 0 ? 1.0 : (double) rowsLocalAtPull / rowsPulled;
    }
}
