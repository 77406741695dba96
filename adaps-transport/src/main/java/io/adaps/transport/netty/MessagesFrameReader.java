package io.adaps.transport.netty;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.transport.MessageHandler;
import io.netty.buffer.ByteBuf;

/**
 * Reads the body of a MESSAGES frame (layout in {@link MessagesFrameWriter}); a flyweight reused for
 * every frame of a connection. {@link #wrap} checks every message header before {@link #deliver}
 * hands out any message, so a malformed frame delivers nothing. Messages are handed out as views of
 * the received bytes, without copying.
 */
final class MessagesFrameReader {
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private int length;

    /**
     * Points at the body {@code buffer[index, index + length)} and validates it.
     *
     * @throws FrameException if the body is empty, a length prefix is cut off, or a message is longer
     *                        than {@code maxMessageBytes} or than the rest of the frame
     */
    MessagesFrameReader wrap(ByteBuf buffer, int index, int length, int maxMessageBytes) {
        Buffers.wrap(view, buffer, index, length);
        this.length = length;
        if (length == 0) {
            throw new FrameException("MESSAGES frame without messages");
        }
        int offset = 0;
        while (offset < length) {
            int rest = length - offset - MessagesFrameWriter.MESSAGE_HEADER_LENGTH;
            if (rest < 0) {
                throw new FrameException("message length at offset " + offset + " cut off by the frame end (body length="
                        + length + ")");
            }
            int messageLength = view.getInt(offset, ByteOrder.BIG_ENDIAN);
            if (messageLength < 0 || messageLength > maxMessageBytes) {
                throw new FrameException("message length=" + messageLength + " (expected 0..maxMessageBytes="
                        + maxMessageBytes + ")");
            }
            if (messageLength > rest) {
                throw new FrameException("message length=" + messageLength + " at offset " + offset + " (expected <= "
                        + rest + ", the rest of the frame)");
            }
            offset += MessagesFrameWriter.MESSAGE_HEADER_LENGTH + messageLength;
        }
        return this;
    }

    /** Hands every message of the wrapped frame to {@code handler}, in order, as from {@code peer}. */
    void deliver(int peer, MessageHandler handler) {
        int offset = 0;
        while (offset < length) {
            int messageLength = view.getInt(offset, ByteOrder.BIG_ENDIAN);
            offset += MessagesFrameWriter.MESSAGE_HEADER_LENGTH;
            handler.onMessage(peer, view, offset, messageLength);
            offset += messageLength;
        }
    }
}
