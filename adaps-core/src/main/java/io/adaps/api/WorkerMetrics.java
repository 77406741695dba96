package io.adaps.api;

/**
 * Counters of one worker: how many of the values it accessed (pulled, pushed or set) were in its
 * node's memory at the time, and how many went over the network.
 *
 * @param worker         the worker's id within its node
 * @param localAccesses  values accessed in the node's memory
 * @param remoteAccesses values accessed at other nodes
 */
public record WorkerMetrics(int worker, long localAccesses, long remoteAccesses) {
    /** The fraction of this worker's accesses that were local; 1 before any access. */
    public double localFraction() {
        long all = localAccesses + remoteAccesses;
        return all == 0 ? 1.0 : (double) localAccesses / all;
    }
}
