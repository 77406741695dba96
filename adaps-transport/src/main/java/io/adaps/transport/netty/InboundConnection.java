package io.adaps.transport.netty;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.transport.ClusterSecret;
import io.netty.buffer.ByteBuf;
import io.netty.handler.ssl.SslHandler;

/**
 * A connection this node accepted. It waits for the peer's HANDSHAKE and checks it: on a TLS node
 * that the connection is TLS, then that both have a cluster secret or neither, and with a secret
 * the challenge-response of {@link SecretHandshake} (CHALLENGE out, PROOF in); then
 * {@link Cluster#refusal}. It answers HANDSHAKE_ACK, or HANDSHAKE_REFUSED with the reason and
 * closes. A refused handshake from a node that should connect here (a valid node id without TLS,
 * with another secret, from another cluster, with another schema, or twice) also fails this
 * node's start-up: both sides say what differs. So does a failed TLS handshake or a TLS client
 * on a node without TLS, whose peer this node cannot name. Anything but a HANDSHAKE, and any
 * undecodable first frame, is refused the same way.
 */
final class InboundConnection extends Connection {
    private static final Logger LOG = LoggerFactory.getLogger(InboundConnection.class);

    /** The HANDSHAKE whose PROOF is awaited, or null. */
    private Hello challenged;
    private byte[] challengeNonce;

    InboundConnection(Cluster cluster) {
        super(cluster);
    }

    @Override
    protected void onHandshakeFrame(int type, ByteBuf buffer, int index, int length) {
        if (challenged != null) {
            onChallengeAnswer(type, buffer, index, length);
            return;
        }
        if (type != Frame.HANDSHAKE) {
            throw new FrameException(Frame.typeName(type) + " frame before the handshake (expected HANDSHAKE)");
        }
        Hello hello = HandshakeCodec.decodeHello(buffer, index, length);
        if (cluster.tls() != null && context().pipeline().get(SslHandler.class) == null) {
            refuse(hello, "no TLS (expected TLS: " + cluster.self() + " requires it)");
            return;
        }
        ClusterSecret secret = cluster.config().secret();
        String mismatch = SecretHandshake.mismatch(secret, hello, cluster.self());
        if (mismatch != null) {
            refuse(hello, mismatch);
        } else if (secret != null) {
            challenged = hello;
            challengeNonce = SecretHandshake.nonce(secret);
            context().writeAndFlush(HandshakeCodec.encodeChallenge(context().alloc(), challengeNonce,
                    SecretHandshake.acceptorProof(secret, hello, challengeNonce)), context().voidPromise());
        } else {
            accept(hello);
        }
    }

    /** The connecting node's PROOF, or its refusal of this node's proof. */
    private void onChallengeAnswer(int type, ByteBuf buffer, int index, int length) {
        switch (type) {
            case Frame.PROOF -> {
                byte[] proof = HandshakeCodec.decodeProof(buffer, index, length);
                if (SecretHandshake.isDialerProof(cluster.config().secret(), challenged, challengeNonce, proof)) {
                    accept(challenged);
                } else {
                    refuse(challenged, "wrong cluster secret (expected the one " + cluster.self() + " has)");
                }
            }
            case Frame.HANDSHAKE_REFUSED -> {
                String reason = HandshakeCodec.decodeRefusal(buffer, index, length);
                failStart(challenged, "refused by it: " + reason);
                close("handshake refused by the peer: " + reason);
            }
            default -> throw new FrameException(Frame.typeName(type)
                    + " frame after CHALLENGE (expected PROOF or HANDSHAKE_REFUSED)");
        }
    }

    private void accept(Hello hello) {
        String refusal = cluster.refusal(hello);
        if (refusal == null && !cluster.peer(hello.nodeId()).establish(this)) {
            refusal = cluster.refusal(hello);
        }
        if (refusal != null) {
            refuse(hello, refusal);
            return;
        }
        context().writeAndFlush(HandshakeCodec.encodeAck(context().alloc(), cluster.config().nodeId()),
                context().voidPromise());
        established(cluster.peer(hello.nodeId()));
    }

    /** Refuses {@code hello} for {@code refusal}; fails start-up if it came from a node that should connect here. */
    private void refuse(Hello hello, String refusal) {
        if (!failStart(hello, "refused: " + refusal)) {
            LOG.warn("{}: handshake from {} refused: {}", cluster.self(), context().channel().remoteAddress(), refusal);
        }
        refuse(refusal);
    }

    private boolean failStart(Hello hello, String outcome) {
        if (!cluster.connectsHere(hello.nodeId())) {
            return false;
        }
        cluster.startFailed(cluster.self() + ": handshake with " + cluster.config().describe(hello.nodeId()) + " "
                + outcome);
        return true;
    }

    @Override
    protected void onHandshakeError(Throwable cause, String reason) {
        boolean tls = TlsContexts.tlsFailure(cause) != null;
        if (tls || isTlsClientOnPlaintextNode(cause)) {
            cluster.startFailed(cluster.self() + ": connection from " + context().channel().remoteAddress()
                    + " refused: " + reason);
        }
        if (tls) {
            close(reason);
        } else {
            refuse(reason);
        }
    }

    private boolean isTlsClientOnPlaintextNode(Throwable cause) {
        return cluster.tls() == null && cause instanceof FrameException && cause.getMessage().startsWith("a TLS handshake");
    }

    @Override
    protected void onClosedBeforeHandshake(String reason) {
        // Nothing to undo: the peer may connect again until start-up gives up.
    }

    private void refuse(String reason) {
        closeAfter(HandshakeCodec.encodeRefusal(context().alloc(), reason), "handshake refused: " + reason);
    }
}
