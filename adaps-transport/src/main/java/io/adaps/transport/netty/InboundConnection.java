package io.adaps.transport.netty;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;

/**
 * A connection this node accepted. It waits for the peer's HANDSHAKE, checks it
 * ({@link Cluster#refusal}) and answers HANDSHAKE_ACK, or HANDSHAKE_REFUSED with the reason and
 * closes. A refused handshake from a node that should connect here (a valid node id from another
 * cluster, with another schema, or twice) also fails this node's start-up: both sides say what
 * differs. Anything but a HANDSHAKE, and any undecodable first frame, is refused the same way.
 */
final class InboundConnection extends Connection {
    private static final Logger LOG = LoggerFactory.getLogger(InboundConnection.class);

    InboundConnection(Cluster cluster) {
        super(cluster);
    }

    @Override
    protected void onHandshakeFrame(int type, ByteBuf buffer, int index, int length) {
        if (type != Frame.HANDSHAKE) {
            throw new FrameException(Frame.typeName(type) + " frame before the handshake (expected HANDSHAKE)");
        }
        Hello hello = HandshakeCodec.decodeHello(buffer, index, length);
        String refusal = cluster.refusal(hello);
        if (refusal == null && !cluster.peer(hello.nodeId()).establish(this)) {
            refusal = cluster.refusal(hello);
        }
        if (refusal != null) {
            if (cluster.connectsHere(hello.nodeId())) {
                cluster.startFailed(cluster.self() + ": handshake with " + cluster.config().describe(hello.nodeId())
                        + " refused: " + refusal);
            } else {
                LOG.warn("{}: handshake from {} refused: {}", cluster.self(), context().channel().remoteAddress(), refusal);
            }
            refuse(refusal);
            return;
        }
        context().writeAndFlush(HandshakeCodec.encodeAck(context().alloc(), cluster.config().nodeId()),
                context().voidPromise());
        established(cluster.peer(hello.nodeId()));
    }

    @Override
    protected void onHandshakeError(Throwable cause, String reason) {
        refuse(reason);
    }

    @Override
    protected void onClosedBeforeHandshake(String reason) {
        // Nothing to undo: the peer may connect again until start-up gives up.
    }

    private void refuse(String reason) {
        closeAfter(HandshakeCodec.encodeRefusal(context().alloc(), reason), "handshake refused: " + reason);
    }
}
