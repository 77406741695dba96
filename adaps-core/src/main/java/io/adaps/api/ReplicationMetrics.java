package io.adaps.api;

/**
 * What a node's adaptive manager did: its replicas, their synchronization, the relocations it
 * asked for and its current action window. All zero under techniques without a manager
 * ({@link Technique#STATIC}, or a cluster of one).
 *
 * @param replicasHeld        replicas this node holds now
 * @param replicasCreated     replicas created on intent (not counting those of
 *                            {@link Technique#FULL_REPLICATION}, which exist from the start)
 * @param replicasDropped     replicas flushed and dropped because their intent ended
 * @param syncRounds          synchronization rounds run
 * @param syncDeltaBytes      bytes of accumulated updates sent to owners by those rounds
 * @param managedRelocations  parameters the manager asked to move here
 * @param actionWindowClocks  how many clocks ahead of its workers the manager acts on intents now
 * @param keysLeftInPlace     keys of intents that the {@link Technique#ADAPTIVE} manager left where
 *                            they were, because this node's workers read their tables in a few
 *                            calls per clock (one per intent and key; they accessed them there)
 */
public record ReplicationMetrics(long replicasHeld, long replicasCreated, long replicasDropped, long syncRounds,
                                 long syncDeltaBytes, long managedRelocations, long actionWindowClocks,
                                 long keysLeftInPlace) {
    /** The metrics of a node without a manager. */
    public static final ReplicationMetrics NONE = new ReplicationMetrics(0, 0, 0, 0, 0, 0, 0, 0);
}
