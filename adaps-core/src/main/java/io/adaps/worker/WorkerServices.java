package io.adaps.worker;

import io.adaps.api.RestoredCheckpoint;
import io.adaps.consistency.ClusterClocks;
import io.adaps.context.NodeContext;
import io.adaps.placement.AdaptiveManager;
import io.adaps.relocation.Relocator;
import io.adaps.rpc.CallRegistry;
import io.adaps.rpc.InFlightPushes;
import io.adaps.sampling.Sampler;

/**
 * The parts of a node its workers use, handed to each worker at creation.
 *
 * @param context   the node
 * @param clocks    the workers' clocks and the cluster's watermark
 * @param relocator moves rows here; {@code null} on a cluster of one
 * @param calls     routes answers to workers' requesters; {@code null} on a cluster of one
 * @param manager   the adaptive manager; {@code null} if the node has none
 * @param inFlight  counts pushes on their way; {@code null} unless replicas are created on intent
 * @param samplers  per table its sampler, {@code null} for tables that are not sampled
 * @param restored  the checkpoint the node was restored from, or {@code null}
 */
public record WorkerServices(NodeContext context, ClusterClocks clocks, Relocator relocator, CallRegistry calls, AdaptiveManager manager,
                             InFlightPushes inFlight, Sampler[] samplers,
                             RestoredCheckpoint restored) {
}
