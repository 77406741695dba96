package io.adaps.transport.netty;

import java.io.IOException;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * A connection this node opened to a peer with a lower node id. It sends HANDSHAKE as soon as it is
 * connected and waits for the answer: HANDSHAKE_ACK from the expected node establishes it; a refusal,
 * an answer from another node or an undecodable answer fails this node's start-up (waiting would not
 * help). A connection closed without an answer, or broken by an I/O error, is dialed again until the
 * connect timeout.
 */
final class OutboundConnection extends Connection {
    private final Peer target;
    private final Dialer dialer;
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
        ctx.writeAndFlush(HandshakeCodec.encodeHello(ctx.alloc(), cluster.hello()), ctx.voidPromise());
    }

    @Override
    protected void onHandshakeFrame(int type, ByteBuf buffer, int index, int length) {
        switch (type) {
            case Frame.HANDSHAKE_ACK -> {
                int answeredBy = HandshakeCodec.decodeAck(buffer, index, length);
                if (answeredBy != target.id()) {
                    giveUp("failed: answered by node " + answeredBy + " (expected node " + target.id() + ")");
                } else if (!target.establish(this)) {
                    giveUp("failed: " + target.description() + " is connected already");
                } else {
                    established(target);
                }
            }
            case Frame.HANDSHAKE_REFUSED -> giveUp("refused: " + HandshakeCodec.decodeRefusal(buffer, index, length));
            default -> throw new FrameException(Frame.typeName(type)
                    + " frame before the handshake (expected HANDSHAKE_ACK or HANDSHAKE_REFUSED)");
        }
    }

    @Override
    protected void onHandshakeError(Throwable cause, String reason) {
        if (cause instanceof IOException) {
            close(reason);
        } else {
            giveUp("failed: " + reason);
        }
    }

    @Override
    protected void onClosedBeforeHandshake(String reason) {
        if (!fatal) {
            dialer.redial(target, reason != null ? reason : "closed by the peer");
        }
    }

    private void giveUp(String outcome) {
        fatal = true;
        cluster.startFailed(cluster.self() + ": handshake with " + target.description() + " " + outcome);
        close("handshake " + outcome);
    }
}
