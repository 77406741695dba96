package io.adaps.api;

/**
 * Round trips of this node's requests to one peer, since the node started. The times are kept to
 * 2 significant digits: each is within 1% of the latencies it stands for.
 *
 * @param peer       the peer's node id
 * @param roundTrips requests answered
 * @param p50Micros  median round-trip time, microseconds
 * @param p99Micros  99th percentile, microseconds
 * @param maxMicros  longest, microseconds
 * @param meanMicros mean round-trip time, microseconds ({@code roundTrips * meanMicros} is their total)
 */
public record PeerMetrics(int peer, long roundTrips, double p50Micros, double p99Micros, double maxMicros,
                          double meanMicros) {
}
