package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaps.api.transport.PeerAddress;

/**
 * How a node learns its id and every node's address before it connects: a fixed list
 * ({@link #fixed}, what {@link AdaPS.Builder#nodeId} and {@link AdaPS.Builder#peers} or
 * {@code ADAPS_NODE_ID}/{@code ADAPS_PEERS} give), a Kubernetes Indexed Job
 * ({@link KubernetesRendezvous}), or the application's own (addresses exchanged by a job
 * scheduler, say). {@link AdaPS.Builder#rendezvous} installs one; the builder joins it, at most
 * for its connect timeout, before it starts the node.
 */
@FunctionalInterface
public interface Rendezvous {
    /**
     * Waits at most {@code timeout} until this node's membership is known.
     *
     * @throws ClusterException if it is not known within {@code timeout}, naming what is missing
     */
    Membership join(Duration timeout);

    /**
     * A membership known in advance: node {@code nodeId} of the nodes at {@code peers}
     * ({@code host:port}, in id order), listening at its own address.
     *
     * @throws IllegalArgumentException if an address does not parse or {@code nodeId} is not an
     *                                  index into {@code peers}
     */
    static Rendezvous fixed(int nodeId, List<String> peers) {
        checkNotNull(peers, "peers");
        List<PeerAddress> addresses = new ArrayList<>(peers.size());
        for (String peer : peers) {
            addresses.add(PeerAddress.parse(peer));
        }
        Membership membership = new Membership(nodeId, addresses, null);
        return timeout -> membership;
    }

    /**
     * The rendezvous that {@code ADAPS_RENDEZVOUS} names: {@code kubernetes}
     * ({@link KubernetesRendezvous#fromEnvironment}), or null when it is unset or {@code static}
     * (the node id and peers are then {@code ADAPS_NODE_ID} and {@code ADAPS_PEERS}, read by
     * {@link AdaPS.Builder#fromEnvironment}).
     *
     * @throws IllegalArgumentException if the variable names no rendezvous or the chosen one's
     *                                  variables are missing or malformed
     */
    static Rendezvous fromEnvironment(Map<String, String> environment) {
        checkNotNull(environment, "environment");
        String kind = environment.get("ADAPS_RENDEZVOUS");
        if (kind == null || kind.trim().equals("static")) {
            return null;
        }
        if (kind.trim().equals("kubernetes")) {
            return KubernetesRendezvous.fromEnvironment(environment);
        }
        throw new IllegalArgumentException("ADAPS_RENDEZVOUS='" + kind + "' (expected static or kubernetes)");
    }
}
