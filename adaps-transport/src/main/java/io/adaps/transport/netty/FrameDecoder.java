package io.adaps.transport.netty;

import java.util.List;

import io.adaps.api.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Cuts a connection's byte stream into {@link Frame}s and hands each to a {@link FrameListener}
 * without copying it.
 *
 * <p>The header is checked as soon as its bytes are there, before the rest of the frame is awaited:
 * a length outside {@code 2..maxLength}, another protocol version or an unknown type fails at once,
 * so a peer cannot make this node buffer more than one maximal frame. Reads are gathered by a
 * {@link FrameCumulator}, which sizes a buffer from a frame's length field only up to a few times
 * the bytes actually received. After the first {@link FrameException} the decoder discards
 * everything; the connection is being closed.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    /** The first two bytes of a TLS handshake record: content type 22, major version 3. */
    private static final int TLS_HANDSHAKE_RECORD = 0x16;
    private static final int TLS_MAJOR_VERSION = 0x03;
    private final int maxLength;
    private final FrameListener listener;
    private boolean failed;

    /**
     * @param maxLength the largest length field accepted, {@link Frame#maxLength(int)}
     * @param listener  receives every frame
     */
    FrameDecoder(int maxLength, FrameListener listener) {
        this.maxLength = maxLength;
        this.listener = listener;
        setCumulator(new FrameCumulator(maxLength));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            while (decodeOne(in)) {
                // one frame per round
            }
        } catch (FrameException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    private boolean decodeOne(ByteBuf in) {
        int readable = in.readableBytes();
        if (readable < Frame.LENGTH_FIELD_LENGTH) {
            return false;
        }
        int start = in.readerIndex();
        int length = in.getInt(start + Frame.LENGTH_OFFSET);
        if (in.getUnsignedByte(start) == TLS_HANDSHAKE_RECORD && in.getUnsignedByte(start + 1) == TLS_MAJOR_VERSION) {
            // No valid length starts so (it would exceed any maximum): a TLS client's first record.
            throw new FrameException("a TLS handshake (expected plaintext frames: this node does not use TLS)");
        }
        if (length < Frame.MIN_LENGTH || length > maxLength) {
            throw new FrameException("frame length=" + Integer.toUnsignedString(length) + " (expected "
                    + Frame.MIN_LENGTH + ".." + maxLength + ")");
        }
        if (readable > Frame.VERSION_OFFSET) {
            int version = in.getUnsignedByte(start + Frame.VERSION_OFFSET);
            if (version != TransportConfig.PROTOCOL_VERSION) {
                throw new FrameException("protocol version=" + version + " (expected "
                        + TransportConfig.PROTOCOL_VERSION + ")");
            }
        }
        if (readable > Frame.TYPE_OFFSET) {
            int type = in.getUnsignedByte(start + Frame.TYPE_OFFSET);
            if (!Frame.isKnownType(type)) {
                throw new FrameException("frame type=" + type + " (expected " + Frame.HANDSHAKE + ".."
                        + Frame.PROOF + ")");
            }
        }
        if (readable < Frame.LENGTH_FIELD_LENGTH + length) {
            return false;
        }
        in.readerIndex(start + Frame.LENGTH_FIELD_LENGTH + length);
        listener.onFrame(in.getUnsignedByte(start + Frame.TYPE_OFFSET), in, start + Frame.HEADER_LENGTH,
                length - Frame.MIN_LENGTH);
        return true;
    }
}
