package io.adaps.transport.netty;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;

/**
 * Fills a MESSAGES frame (a flyweight over one {@link ByteBuf} at a time). The body is a sequence of
 * length-prefixed messages:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                  frame header (see Frame), type MESSAGES      |
 * +                               +-------------------------------+
 * |                               |  message length (int32) ...
 * +-------------------------------+-------------------------------+
 *   ...                           |  message bytes            ...
 * +-------------------------------+-------------------------------+
 * |  next message length (int32)  |  next message bytes       ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * A frame holds at least one message. Messages are added while the body stays within
 * {@link Frame#BATCH_BYTES}; the first message may be larger (up to {@code maxMessageBytes}) and
 * then has the frame to itself. Lengths are big-endian, message bytes are opaque.
 */
final class MessagesFrameWriter {
    /** The length prefix of each message. */
    static final int MESSAGE_HEADER_LENGTH = 4;

    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private ByteBuf frame;

    /** The capacity a frame must have to be {@link #open}ed for a first message of {@code length}. */
    static int frameCapacity(int length) {
        return Frame.HEADER_LENGTH + Math.max(Frame.BATCH_BYTES, MESSAGE_HEADER_LENGTH + length);
    }

    /** Whether a frame is open. */
    boolean isOpen() {
        return frame != null;
    }

    /** Starts a MESSAGES frame in {@code frame}, which must have {@link #frameCapacity} for what comes first. */
    void open(ByteBuf frame) {
        this.frame = frame;
        Frame.begin(frame, Frame.MESSAGES);
    }

    /** Whether a message of {@code length} bytes may join the open frame. */
    boolean hasRoomFor(int length) {
        int body = frame.writerIndex() - Frame.HEADER_LENGTH;
        return body == 0 || body + MESSAGE_HEADER_LENGTH + length <= Frame.BATCH_BYTES;
    }

    /**
     * Appends {@code src[offset, offset + length)} to the open frame, which must have room for it.
     *
     * @return the bytes the frame grew by
     */
    int append(DirectBuffer src, int offset, int length) {
        int index = frame.writerIndex();
        int size = MESSAGE_HEADER_LENGTH + length;
        Buffers.wrap(view, frame, index, size);
        view.putInt(0, length, ByteOrder.BIG_ENDIAN);
        view.putBytes(MESSAGE_HEADER_LENGTH, src, offset, length);
        frame.writerIndex(index + size);
        return size;
    }

    /** Completes the open frame and hands it over; no frame is open afterwards. */
    ByteBuf seal() {
        ByteBuf sealed = Frame.finish(frame);
        frame = null;
        return sealed;
    }

    /** Releases the open frame, if any. */
    void discard() {
        if (frame != null) {
            frame.release();
            frame = null;
        }
    }
}
