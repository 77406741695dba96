package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.util.List;

import io.adaps.api.transport.PeerAddress;

/**
 * What a {@link Rendezvous} tells a node: its id, every node's address in id order (where peers
 * reach each node), and where this node listens.
 *
 * @param nodeId   this node's id, an index into {@code peers}
 * @param peers    every node's advertised address, in id order; at least one
 * @param bindHost where this node listens (e.g. {@code 0.0.0.0}), or null: its address in
 *                 {@code peers}
 */
public record Membership(int nodeId, List<PeerAddress> peers, String bindHost) {
    /** Validates and copies. */
    public Membership {
        checkNotNull(peers, "peers");
        peers = List.copyOf(peers);
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("peers=[] (expected every node's address)");
        }
        if (peers.stream().distinct().count() != peers.size()) {
            throw new IllegalArgumentException("peers=" + peers + " (expected distinct addresses)");
        }
        if (nodeId < 0 || nodeId >= peers.size()) {
            throw new IllegalArgumentException("nodeId=" + nodeId + " (expected 0.." + (peers.size() - 1)
                    + ", an index into peers=" + peers + ")");
        }
        if (bindHost != null && bindHost.isBlank()) {
            throw new IllegalArgumentException("bindHost='" + bindHost + "' (expected a host name or address, or null)");
        }
    }
}
