package io.adaps.transport.netty;

import io.adaps.api.transport.TransportConfig;
import io.netty.buffer.ByteBuf;

/**
 * The frame header shared by every frame on an AdaPS connection, and the frame types.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                    length (int32, big-endian)                 |
 * +---------------+---------------+-------------------------------+
 * |    version    |     type      |  body (length - 2 bytes)   ...
 * +---------------+---------------+-------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code length}: bytes after the length field (version, type and body),
 *       {@value #MIN_LENGTH}..{@link #maxLength(int)};</li>
 *   <li>{@code version}: {@link TransportConfig#PROTOCOL_VERSION}, unsigned;</li>
 *   <li>{@code type}: one of the {@code *} constants below, unsigned. Bodies: {@link #HANDSHAKE},
 *       {@link #HANDSHAKE_ACK}, {@link #HANDSHAKE_REFUSED}, {@link #CHALLENGE} and {@link #PROOF} in
 *       {@link HandshakeCodec}; {@link #MESSAGES} in {@link MessagesFrameWriter}; {@link #HEARTBEAT}
 *       has none.</li>
 * </ul>
 *
 * A connection starts with HANDSHAKE (connecting side) answered by HANDSHAKE_ACK or
 * HANDSHAKE_REFUSED; with a cluster secret, CHALLENGE (accepting side) and PROOF (connecting side)
 * come between ({@link SecretHandshake}). After that both sides send MESSAGES and HEARTBEAT frames
 * only. With TLS, all of this runs inside the TLS session.
 */
final class Frame {
    /** The connecting node introduces itself: node id, cluster id, schema. */
    static final int HANDSHAKE = 1;
    /** The accepting node accepts: its node id. */
    static final int HANDSHAKE_ACK = 2;
    /** The accepting node refuses: the reason, UTF-8. The connection is closed after it. */
    static final int HANDSHAKE_REFUSED = 3;
    /** One or more messages for the node's handler. */
    static final int MESSAGES = 4;
    /** Keeps an idle connection observable; no body. */
    static final int HEARTBEAT = 5;
    /** The accepting node's nonce and its proof that it knows the cluster secret. */
    static final int CHALLENGE = 6;
    /** The connecting node's proof that it knows the cluster secret. */
    static final int PROOF = 7;

    static final int LENGTH_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 5;
    static final int HEADER_LENGTH = 6;
    /** The length field counts itself out. */
    static final int LENGTH_FIELD_LENGTH = 4;
    /** Version and type. */
    static final int MIN_LENGTH = HEADER_LENGTH - LENGTH_FIELD_LENGTH;

    /**
     * A MESSAGES frame is closed once it holds this many bytes; a larger message gets a frame of its
     * own. Large enough that a busy link writes few frames, small enough to interleave with other work.
     */
    static final int BATCH_BYTES = 64 * 1024;

    private Frame() {
    }

    /**
     * The largest value of the length field a node with {@code maxMessageBytes} accepts: a MESSAGES
     * frame of {@link #BATCH_BYTES} or one holding a single message of the maximum size. Handshake
     * frames must fit too.
     */
    static int maxLength(int maxMessageBytes) {
        return MIN_LENGTH + Math.max(BATCH_BYTES, MessagesFrameWriter.MESSAGE_HEADER_LENGTH + maxMessageBytes);
    }

    /** Writes a header of {@code type} at the writer index with a length to be set by {@link #finish}. */
    static void begin(ByteBuf frame, int type) {
        frame.writeInt(0).writeByte(TransportConfig.PROTOCOL_VERSION).writeByte(type);
    }

    /** Sets the length field of the frame that starts at the reader index and ends at the writer index. */
    static ByteBuf finish(ByteBuf frame) {
        int start = frame.readerIndex();
        frame.setInt(start + LENGTH_OFFSET, frame.writerIndex() - start - LENGTH_FIELD_LENGTH);
        return frame;
    }

    /** A name for logs and error messages. */
    static String typeName(int type) {
        return switch (type) {
            case HANDSHAKE -> "HANDSHAKE";
            case HANDSHAKE_ACK -> "HANDSHAKE_ACK";
            case HANDSHAKE_REFUSED -> "HANDSHAKE_REFUSED";
            case MESSAGES -> "MESSAGES";
            case HEARTBEAT -> "HEARTBEAT";
            case CHALLENGE -> "CHALLENGE";
            case PROOF -> "PROOF";
            default -> "type " + type;
        };
    }

    /** Whether {@code type} is one of the frame types above. */
    static boolean isKnownType(int type) {
        return type >= HANDSHAKE && type <= PROOF;
    }
}
