package io.adaps.api;

/**
 * Round trips of one kind of this node's remote requests to any peer, since the node started:
 * the latency a worker (or the manager) sees for the remote part of an operation, per peer it went to.
 * The times are kept to 2 significant digits: each is within 1% of the latencies it stands for.
 *
 * @param operation  {@code pull}, {@code push}, {@code set}, {@code localize}, {@code sync} or {@code refresh}
 * @param requests   requests answered
 * @param p50Micros  median round-trip time, microseconds
 * @param p99Micros  99th percentile, microseconds
 * @param maxMicros  longest, microseconds
 * @param meanMicros mean, microseconds ({@code requests * meanMicros} is their total)
 */
public record LatencyMetrics(String operation, long requests, double p50Micros, double p99Micros, double maxMicros,
                             double meanMicros) {
}
