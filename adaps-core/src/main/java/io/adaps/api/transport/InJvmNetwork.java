package io.adaps.api.transport;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The "network" of {@link InJvmTransport}s: nodes of one JVM find each other here by address.
 * Create one per test cluster.
 */
public final class InJvmNetwork {
    private final ConcurrentHashMap<PeerAddress, InJvmTransport> endpoints = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<PeerAddress, String> refusals = new ConcurrentHashMap<>();

    /** An empty network: no node has joined yet. */
    public InJvmNetwork() {
    }

    void register(PeerAddress address, InJvmTransport transport) {
        if (endpoints.putIfAbsent(address, transport) != null) {
            throw new IllegalStateException("address=" + address + " (expected an address no started node uses)");
        }
    }

    void unregister(PeerAddress address, InJvmTransport transport) {
        endpoints.remove(address, transport);
    }

    InJvmTransport endpoint(PeerAddress address) {
        return endpoints.get(address);
    }

    /** Tells the node at {@code address} that a peer refused its handshake, and why. */
    void refuse(PeerAddress address, String reason) {
        refusals.putIfAbsent(address, reason);
    }

    /** Why a peer refused the handshake of the node at {@code address}, or {@code null}. */
    String refusal(PeerAddress address) {
        return refusals.get(address);
    }
}
