package io.adaps.api;

/**
 * Counters of one node, summed over its workers, read while they run (each counter is exact once
 * the workers are quiet).
 *
 * @param workers         workers created
 * @param localPulls      values served by pulls from this node's memory
 * @param localPushes     updates applied by pushes to this node's memory
 * @param localSets       values replaced by sets in this node's memory
 * @param intentsSignaled ids named by intent calls
 */
public record NodeMetrics(int workers, long localPulls, long localPushes, long localSets, long intentsSignaled) {
}
