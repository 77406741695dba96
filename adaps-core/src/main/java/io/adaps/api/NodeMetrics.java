package io.adaps.api;

import java.util.List;

/**
 * Counters of one node, read while it runs (each is exact once the workers are quiet). Pulls,
 * pushes and sets count parameter values (keys), not calls.
 *
 * @param nodeId           the node
 * @param workers          workers created
 * @param localPulls       values pulled from this node's memory
 * @param localPushes      updates pushed to this node's memory
 * @param localSets        values set in this node's memory
 * @param remotePulls      values pulled from other nodes
 * @param remotePushes     updates pushed to other nodes
 * @param remoteSets       values set at other nodes
 * @param intentsSignaled  ids named by intent calls
 * @param messagesSent     messages sent to other nodes (requests and answers)
 * @param bytesSent        bytes of those messages
 * @param messagesReceived messages received from other nodes
 * @param bytesReceived    bytes of those messages
 * @param relocationsIn    parameters that moved to this node
 * @param relocationsOut   parameters that moved away from this node
 * @param forwarded        requested values this node did not hold and passed on towards their holder
 * @param locationHits     remote values this node's workers sent to a cached location
 * @param locationMisses   remote values sent to the home node because no location was cached
 * @param replication      what the adaptive manager did (replicas, synchronization, relocations)
 * @param sampling         what the workers did with sampling access
 * @param peers            round-trip times of this node's requests, one entry per other node
 * @param perWorker        the local-access counters of each worker
 */
public record NodeMetrics(int nodeId, int workers, long localPulls, long localPushes, long localSets,
                          long remotePulls, long remotePushes, long remoteSets, long intentsSignaled,
                          long messagesSent, long bytesSent, long messagesReceived, long bytesReceived,
                          long relocationsIn, long relocationsOut, long forwarded, long locationHits,
                          long locationMisses, ReplicationMetrics replication, SamplingMetrics sampling,
                          List<PeerMetrics> peers, List<WorkerMetrics> perWorker) {
    /** Makes the lists unmodifiable. */
    public NodeMetrics {
        peers = List.copyOf(peers);
        perWorker = List.copyOf(perWorker);
    }

    /** Values pulled, pushed and set in this node's memory, over all values accessed by its workers. */
    public double localFraction() {
        long local = localPulls + localPushes + localSets;
        long all = local + remotePulls + remotePushes + remoteSets;
        return all == 0 ? 1.0 : (double) local / all;
    }

    /** A multi-line summary for logs and example programs. */
    public String describe() {
        StringBuilder text = new StringBuilder(String.format(
                "node %d: %d workers; local pull/push/set %d/%d/%d, remote %d/%d/%d (%.1f%% local); "
                        + "sent %d messages (%.1f MiB), received %d (%.1f MiB); relocated in %d, out %d; "
                        + "forwarded %d; location cache hits %d, misses %d",
                nodeId, workers, localPulls, localPushes, localSets, remotePulls, remotePushes, remoteSets,
                100 * localFraction(), messagesSent, bytesSent / 1048576.0, messagesReceived, bytesReceived / 1048576.0,
                relocationsIn, relocationsOut, forwarded, locationHits, locationMisses));
        if (!replication.equals(ReplicationMetrics.NONE)) {
            text.append(String.format("%n  replicas held %d, created %d, dropped %d; %d sync rounds sent %.1f MiB of deltas; "
                            + "%d relocations asked for by the manager; action window %d clocks",
                    replication.replicasHeld(), replication.replicasCreated(), replication.replicasDropped(),
                    replication.syncRounds(), replication.syncDeltaBytes() / 1048576.0, replication.managedRelocations(),
                    replication.actionWindowClocks()));
        }
        if (sampling.samples() > 0) {
            text.append(String.format("%n  sampling %s: %d samples, %d rows drawn, %d pulled (%.1f%% local at pull); "
                            + "%d local redraws; %d pool refills, %d pool fallback draws",
                    sampling.scheme(), sampling.samples(), sampling.rowsDrawn(), sampling.rowsPulled(),
                    100 * sampling.localFractionAtPull(), sampling.localRedraws(), sampling.poolRefills(),
                    sampling.poolFallbackDraws()));
        }
        for (PeerMetrics peer : peers) {
            text.append(String.format("%n  round trips to node %d: %d, p50 %.0f us, p99 %.0f us, max %.0f us",
                    peer.peer(), peer.roundTrips(), peer.p50Micros(), peer.p99Micros(), peer.maxMicros()));
        }
        return text.toString();
    }
}
