package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link Transport} needs to join its node to the cluster.
 *
 * @param nodeId            this node's id: its index in {@code peers}
 * @param peers             every node's listening address, indexed by node id (this node's entry
 *                          is where it listens)
 * @param clusterId         must be equal on all nodes; the handshake refuses other clusters
 * @param schema            a canonical description of the declared tables; must be equal on all
 *                          nodes (the handshake names the first difference)
 * @param connectTimeout    how long {@link Transport#start} waits for all peers
 * @param heartbeatInterval how often an otherwise idle connection sends a heartbeat
 * @param failureTimeout    a peer that sends nothing for this long has failed; bounds how long an
 *                          operation that needs a dead peer can wait
 * @param sendTimeout       how long {@link Transport#send} may block under back-pressure
 * @param maxMessageBytes   the largest message {@link Transport#send} accepts and a receiver
 *                          accepts; larger frames are refused and close the connection
 * @param maxPendingBytes   bytes queued for one peer above which senders are held back
 * @param bindHost          the host name or address to listen at (e.g. {@code 0.0.0.0}), or
 *                          null: the host of this node's entry in {@code peers}, which is then
 *                          only where peers reach it (its advertised address)
 * @param tls               TLS for every link, or null: plaintext links
 * @param secret            the cluster secret that authenticates handshakes, or null: none
 */
public record TransportConfig(int nodeId, List<PeerAddress> peers, String clusterId, String schema,
                              Duration connectTimeout, Duration heartbeatInterval, Duration failureTimeout,
                              Duration sendTimeout, int maxMessageBytes, long maxPendingBytes, String bindHost,
                              TlsSettings tls, ClusterSecret secret) {
    /**
     * The wire protocol version; the handshake refuses peers with another. Version 2: the
     * handshake carries the nonce of the cluster-secret challenge.
     */
    public static final int PROTOCOL_VERSION = 2;

    /** Plaintext links without a cluster secret, listening at this node's address in {@code peers}. */
    public TransportConfig(int nodeId, List<PeerAddress> peers, String clusterId, String schema,
                           Duration connectTimeout, Duration heartbeatInterval, Duration failureTimeout,
                           Duration sendTimeout, int maxMessageBytes, long maxPendingBytes) {
        this(nodeId, peers, clusterId, schema, connectTimeout, heartbeatInterval, failureTimeout, sendTimeout,
                maxMessageBytes, maxPendingBytes, null, null, null);
    }

    /** Validates every component, naming the first bad one. */
    public TransportConfig {
        checkNotNull(peers, "peers");
        peers = List.copyOf(peers);
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("peers=[] (expected the address of every node)");
        }
        if (nodeId < 0 || nodeId >= peers.size()) {
            throw new IllegalArgumentException("nodeId=" + nodeId + " (expected 0.." + (peers.size() - 1)
                    + ", an index into peers=" + peers + ")");
        }
        checkNotNull(clusterId, "clusterId");
        checkNotNull(schema, "schema");
        checkDuration(connectTimeout, "connectTimeout");
        checkDuration(heartbeatInterval, "heartbeatInterval");
        checkDuration(failureTimeout, "failureTimeout");
        checkDuration(sendTimeout, "sendTimeout");
        if (failureTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("failureTimeout=" + failureTimeout + " (expected at least twice heartbeatInterval="
                    + heartbeatInterval + ")");
        }
        if (maxMessageBytes < 1024) {
            throw new IllegalArgumentException("maxMessageBytes=" + maxMessageBytes + " (expected >= 1024)");
        }
        if (maxPendingBytes < maxMessageBytes) {
            throw new IllegalArgumentException("maxPendingBytes=" + maxPendingBytes + " (expected >= maxMessageBytes="
                    + maxMessageBytes + ")");
        }
        if (bindHost != null && bindHost.isBlank()) {
            throw new IllegalArgumentException("bindHost='" + bindHost + "' (expected a host name or address, or null)");
        }
    }

    /** Where to listen: {@link #bindHost()} if set, else this node's host in {@code peers}, at its port. */
    public PeerAddress listenAddress() {
        return bindHost == null ? self() : new PeerAddress(bindHost, self().port());
    }

    /** Nodes in the cluster. */
    public int clusterSize() {
        return peers.size();
    }

    /** This node's listening address. */
    public PeerAddress self() {
        return peers.get(nodeId);
    }

    /** {@code node N (host:port)}, for messages. */
    public String describe(int node) {
        return "node " + node + " (" + peers.get(node) + ")";
    }

    private static void checkDuration(Duration duration, String name) {
        checkNotNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + "=" + duration + " (expected > 0)");
        }
    }
}
