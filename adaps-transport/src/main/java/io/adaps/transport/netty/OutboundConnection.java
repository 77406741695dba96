package io.adaps.transport.netty;

import java.io.IOException;

import io.adaps.api.transport.ClusterSecret;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * A connection this node opened to a peer with a lower node id. It sends HANDSHAKE as soon as it is
 * connected (with TLS, the TLS handler holds it back until the TLS handshake is done) and waits for
 * the answer: with a cluster secret first a CHALLENGE, whose proof it checks before it answers
 * with its own PROOF ({@link SecretHandshake}); then HANDSHAKE_ACK from the expected node
 * establishes it. A refusal, an answer from another node, a wrong proof, an ACK without the
 * expected challenge, a failed TLS handshake or an undecodable answer fails this node's start-up
 * (waiting would not help). A connection closed without an answer, or broken by an I/O error, is
 * dialed again until the connect timeout.
 */
final class OutboundConnection extends Connection {
    private final Peer target;
    private final Dialer dialer;
    private Hello hello;
    private boolean proved;
    private boolean fatal;

    /**
     * @param target the peer dialed
     * @param dialer dials again if the connection closes before an answer
     */
    OutboundConnection(Cluster cluster, Peer target, Dialer dialer) {
        super(cluster);
        this.target = target;
        this.dialer = dialer;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        super.channelActive(ctx);
        hello = cluster.hello(SecretHandshake.nonce(cluster.config().secret()));
        ctx.writeAndFlush(HandshakeCodec.encodeHello(ctx.alloc(), hello), ctx.voidPromise());
    }

    @Override
    protected void onHandshakeFrame(int type, ByteBuf buffer, int index, int length) {
        ClusterSecret secret = cluster.config().secret();
        switch (type) {
            case Frame.CHALLENGE -> {
                if (secret == null || proved) {
                    throw new FrameException("CHALLENGE frame " + (proved ? "twice" : "to a node without a cluster secret")
                            + " (expected HANDSHAKE_ACK or HANDSHAKE_REFUSED)");
                }
                byte[][] challenge = HandshakeCodec.decodeChallenge(buffer, index, length);
                if (!SecretHandshake.isAcceptorProof(secret, hello, challenge[0], challenge[1])) {
                    String reason = "wrong cluster secret (expected the one " + cluster.self() + " has)";
                    giveUp("refused: " + target.description() + " has a " + reason,
                            HandshakeCodec.encodeRefusal(context().alloc(), reason));
                    return;
                }
                proved = true;
                context().writeAndFlush(HandshakeCodec.encodeProof(context().alloc(),
                        SecretHandshake.dialerProof(secret, hello, challenge[0])), context().voidPromise());
            }
            case Frame.HANDSHAKE_ACK -> {
                int answeredBy = HandshakeCodec.decodeAck(buffer, index, length);
                if (answeredBy != target.id()) {
                    giveUp("failed: answered by node " + answeredBy + " (expected node " + target.id() + ")", null);
                } else if (secret != null && !proved) {
                    giveUp("failed: accepted without proving the cluster secret (expected a CHALLENGE first)", null);
                } else if (!target.establish(this)) {
                    giveUp("failed: " + target.description() + " is connected already", null);
                } else {
                    established(target);
                }
            }
            case Frame.HANDSHAKE_REFUSED -> giveUp("refused: " + HandshakeCodec.decodeRefusal(buffer, index, length), null);
            default -> throw new FrameException(Frame.typeName(type)
                    + " frame before the handshake (expected HANDSHAKE_ACK or HANDSHAKE_REFUSED)");
        }
    }

    @Override
    protected void onHandshakeError(Throwable cause, String reason) {
        if (cause instanceof IOException && TlsContexts.tlsFailure(cause) == null) {
            close(reason);
        } else {
            giveUp("failed: " + reason, null);
        }
    }

    @Override
    protected void onClosedBeforeHandshake(String reason) {
        if (!fatal) {
            dialer.redial(target, reason != null ? reason : "closed by the peer");
        }
    }

    /** Fails start-up with {@code outcome} and closes, after writing {@code lastFrame} if there is one. */
    private void giveUp(String outcome, ByteBuf lastFrame) {
        fatal = true;
        cluster.startFailed(cluster.self() + ": handshake with " + target.description() + " " + outcome);
        if (lastFrame != null) {
            closeAfter(lastFrame, "handshake " + outcome);
        } else {
            close("handshake " + outcome);
        }
    }
}
