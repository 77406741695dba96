package io.adaps.transport.netty;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Encodes and decodes the frames without messages: the handshake and the heartbeat. Bodies (after the
 * {@link Frame} header; integers big-endian, strings UTF-8):
 *
 * <pre>
 * HANDSHAKE
 * +---------------+-------------------+---------------+---------------+-----------+--------------+----------+
 * | node id int32 | cluster id length | cluster id .. | schema length | schema .. | nonce length | nonce .. |
 * |               | int32             |               | int32         |           | int32 (0|32) |          |
 * +---------------+-------------------+---------------+---------------+-----------+--------------+----------+
 *
 * HANDSHAKE_ACK                 HANDSHAKE_REFUSED                HEARTBEAT
 * +----------------+            +--------------------------+     (no body)
 * | node id int32  |            | reason, to the frame end |
 * +----------------+            +--------------------------+
 *
 * CHALLENGE (cluster secret; accepting side)       PROOF (cluster secret; connecting side)
 * +-------------------+-------------------+       +-------------------+
 * | nonce (32 bytes)  | HMAC (32 bytes)   |       | HMAC (32 bytes)   |
 * +-------------------+-------------------+       +-------------------+
 * </pre>
 *
 * The protocol version travels in every frame header, so a peer of another version is refused by
 * {@link FrameDecoder} before any body is read.
 */
final class HandshakeCodec {
    private static final int INT_LENGTH = 4;

    private HandshakeCodec() {
    }

    /** A HANDSHAKE frame introducing {@code hello}. */
    static ByteBuf encodeHello(ByteBufAllocator allocator, Hello hello) {
        byte[] clusterId = hello.clusterId().getBytes(StandardCharsets.UTF_8);
        byte[] schema = hello.schema().getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH + 4 * INT_LENGTH + clusterId.length + schema.length
                + hello.nonce().length);
        Frame.begin(frame, Frame.HANDSHAKE);
        frame.writeInt(hello.nodeId());
        frame.writeInt(clusterId.length).writeBytes(clusterId);
        frame.writeInt(schema.length).writeBytes(schema);
        frame.writeInt(hello.nonce().length).writeBytes(hello.nonce());
        return Frame.finish(frame);
    }

    /** The body length of the HANDSHAKE frame for {@code hello}, to check it against a peer's maximum. */
    static int helloLength(Hello hello) {
        return Frame.MIN_LENGTH + 4 * INT_LENGTH + hello.clusterId().getBytes(StandardCharsets.UTF_8).length
                + hello.schema().getBytes(StandardCharsets.UTF_8).length + hello.nonce().length;
    }

    /**
     * Decodes the HANDSHAKE body {@code buffer[index, index + length)}.
     *
     * @throws FrameException if a field is cut off or the body has bytes left over
     */
    static Hello decodeHello(ByteBuf buffer, int index, int length) {
        int end = index + length;
        int nodeId = readInt(buffer, index, end, "node id");
        index += INT_LENGTH;
        int clusterIdLength = readLength(buffer, index, end, "cluster id");
        index += INT_LENGTH;
        String clusterId = buffer.toString(index, clusterIdLength, StandardCharsets.UTF_8);
        index += clusterIdLength;
        int schemaLength = readLength(buffer, index, end, "schema");
        index += INT_LENGTH;
        String schema = buffer.toString(index, schemaLength, StandardCharsets.UTF_8);
        index += schemaLength;
        int nonceLength = readLength(buffer, index, end, "nonce");
        if (nonceLength != 0 && nonceLength != SecretHandshake.NONCE_LENGTH) {
            throw new FrameException("HANDSHAKE nonce length=" + nonceLength + " (expected 0 or "
                    + SecretHandshake.NONCE_LENGTH + ")");
        }
        index += INT_LENGTH;
        byte[] nonce = new byte[nonceLength];
        buffer.getBytes(index, nonce);
        index += nonceLength;
        if (index != end) {
            throw new FrameException("HANDSHAKE body length=" + length + " (expected " + (length - (end - index))
                    + ", the fields it holds)");
        }
        return new Hello(nodeId, clusterId, schema, nonce);
    }

    /** A CHALLENGE frame: the accepting node's nonce and its proof of the secret. */
    static ByteBuf encodeChallenge(ByteBufAllocator allocator, byte[] nonce, byte[] mac) {
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH + nonce.length + mac.length);
        Frame.begin(frame, Frame.CHALLENGE);
        return Frame.finish(frame.writeBytes(nonce).writeBytes(mac));
    }

    /**
     * The CHALLENGE body {@code buffer[index, index + length)}: nonce, then HMAC.
     *
     * @throws FrameException if the body is not exactly a nonce and an HMAC
     */
    static byte[][] decodeChallenge(ByteBuf buffer, int index, int length) {
        int expected = SecretHandshake.NONCE_LENGTH + SecretHandshake.MAC_LENGTH;
        if (length != expected) {
            throw new FrameException("CHALLENGE body length=" + length + " (expected " + expected + ")");
        }
        byte[] nonce = new byte[SecretHandshake.NONCE_LENGTH];
        byte[] mac = new byte[SecretHandshake.MAC_LENGTH];
        buffer.getBytes(index, nonce);
        buffer.getBytes(index + nonce.length, mac);
        return new byte[][] {nonce, mac};
    }

    /** A PROOF frame: the connecting node's proof of the secret. */
    static ByteBuf encodeProof(ByteBufAllocator allocator, byte[] mac) {
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH + mac.length);
        Frame.begin(frame, Frame.PROOF);
        return Frame.finish(frame.writeBytes(mac));
    }

    /**
     * The HMAC in the PROOF body {@code buffer[index, index + length)}.
     *
     * @throws FrameException if the body is not exactly an HMAC
     */
    static byte[] decodeProof(ByteBuf buffer, int index, int length) {
        if (length != SecretHandshake.MAC_LENGTH) {
            throw new FrameException("PROOF body length=" + length + " (expected " + SecretHandshake.MAC_LENGTH + ")");
        }
        byte[] mac = new byte[length];
        buffer.getBytes(index, mac);
        return mac;
    }

    /** A HANDSHAKE_ACK frame from node {@code nodeId}. */
    static ByteBuf encodeAck(ByteBufAllocator allocator, int nodeId) {
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH + INT_LENGTH);
        Frame.begin(frame, Frame.HANDSHAKE_ACK);
        return Frame.finish(frame.writeInt(nodeId));
    }

    /**
     * The node id in the HANDSHAKE_ACK body {@code buffer[index, index + length)}.
     *
     * @throws FrameException if the body is not exactly one int32
     */
    static int decodeAck(ByteBuf buffer, int index, int length) {
        if (length != INT_LENGTH) {
            throw new FrameException("HANDSHAKE_ACK body length=" + length + " (expected " + INT_LENGTH + ")");
        }
        return buffer.getInt(index);
    }

    /** A HANDSHAKE_REFUSED frame giving {@code reason}. */
    static ByteBuf encodeRefusal(ByteBufAllocator allocator, String reason) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH + bytes.length);
        Frame.begin(frame, Frame.HANDSHAKE_REFUSED);
        return Frame.finish(frame.writeBytes(bytes));
    }

    /** The reason in the HANDSHAKE_REFUSED body {@code buffer[index, index + length)}. */
    static String decodeRefusal(ByteBuf buffer, int index, int length) {
        return buffer.toString(index, length, StandardCharsets.UTF_8);
    }

    /** A HEARTBEAT frame. */
    static ByteBuf encodeHeartbeat(ByteBufAllocator allocator) {
        ByteBuf frame = allocator.ioBuffer(Frame.HEADER_LENGTH);
        Frame.begin(frame, Frame.HEARTBEAT);
        return Frame.finish(frame);
    }

    /**
     * Checks that a HEARTBEAT body is empty.
     *
     * @throws FrameException if it is not
     */
    static void checkHeartbeat(int length) {
        if (length != 0) {
            throw new FrameException("HEARTBEAT body length=" + length + " (expected 0)");
        }
    }

    private static int readInt(ByteBuf buffer, int index, int end, String field) {
        if (end - index < INT_LENGTH) {
            throw new FrameException("HANDSHAKE " + field + " cut off by the frame end");
        }
        return buffer.getInt(index);
    }

    private static int readLength(ByteBuf buffer, int index, int end, String field) {
        int length = readInt(buffer, index, end, field + " length");
        int rest = end - index - INT_LENGTH;
        if (length < 0 || length > rest) {
            throw new FrameException("HANDSHAKE " + field + " length=" + length + " (expected 0.." + rest
                    + ", the rest of the frame)");
        }
        return length;
    }
}
