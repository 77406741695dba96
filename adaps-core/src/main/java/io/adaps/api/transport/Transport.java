package io.adaps.api.transport;

import org.agrona.DirectBuffer;

/**
 * Moves messages between the nodes of a cluster: the plug-in point between the node
 * ({@code adaps-core}) and a network implementation ({@code adaps-transport}'s Netty transport, or
 * {@link InJvmTransport} for tests). A message is an opaque byte string; the node's protocol gives
 * it meaning.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Start-up</b>: {@link #start} listens at this node's address, connects to every peer (one
 *       connection per pair of nodes) and handshakes: cluster id, {@link TransportConfig#PROTOCOL_VERSION},
 *       schema and node ids must agree. It returns once every peer is connected, or throws a
 *       {@link io.adaps.api.ClusterException} after {@link TransportConfig#connectTimeout()} naming
 *       the peers still missing, or at once naming the peer and the difference that a handshake
 *       refused. On a failed start, everything opened is closed again.</li>
 *   <li><b>Order</b>: messages from one node to another are delivered in the order sent, each
 *       whole and once, or the receiver is told that the sender failed.</li>
 *   <li><b>Batching</b>: a transport may coalesce messages to one peer into one network write; it
 *       must not hold a message back when the link is idle.</li>
 *   <li><b>Back-pressure</b>: memory queued for one peer is bounded by
 *       {@link TransportConfig#maxPendingBytes()}. Above it, {@link #send} from a non-transport thread
 *       blocks up to {@link TransportConfig#sendTimeout()} and then throws a
 *       {@link io.adaps.api.ClusterException}. Sends from transport threads (answers sent from
 *       {@link MessageHandler#onMessage}) never block: what they send is bounded by what they were
 *       asked.</li>
 *   <li><b>Failures</b>: heartbeats keep idle connections observable. A peer whose connection breaks,
 *       or that sends nothing for {@link TransportConfig#failureTimeout()}, is reported once through
 *       {@link MessageHandler#onPeerFailure}; later sends to it throw
 *       {@link io.adaps.api.PeerFailedException}. A malformed, oversized or wrong-version frame
 *       closes that connection (logged, and reported as that peer's failure); other peers are
 *       unaffected.</li>
 *   <li><b>Close</b>: {@link #close()} stops every thread, closes every socket and releases every
 *       buffer; it is idempotent, and sends after it throw {@link IllegalStateException}.</li>
 * </ul>
 */
public interface Transport extends AutoCloseable {
    /**
     * Joins the cluster as described above; {@code handler} receives every message and failure from
     * then on.
     *
     * @throws io.adaps.api.ClusterException if some peer did not connect in time or a handshake failed
     */
    void start(TransportConfig config, MessageHandler handler);

    /**
     * Sends {@code buffer[offset, offset + length)} to node {@code peer}. The bytes are copied before
     * the call returns. Thread-safe.
     *
     * @throws io.adaps.api.PeerFailedException if the peer has failed
     * @throws io.adaps.api.ClusterException     if back-pressure held the call back past the send timeout
     * @throws IllegalArgumentException          if {@code peer} is this node or not a node, or the
     *                                           message is larger than the maximum
     */
    void send(int peer, DirectBuffer buffer, int offset, int length);

    /** Closes everything this transport opened. Idempotent. */
    @Override
    void close();
}
