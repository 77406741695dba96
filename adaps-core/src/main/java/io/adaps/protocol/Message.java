package io.adaps.protocol;

import java.nio.ByteOrder;
import java.util.Objects;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Flyweight over one node-to-node message in a buffer. All fields little-endian.
 *
 * <pre>
 *  0       1       2               4                               8
 *  +-------+-------+---------------+-------------------------------+
 *  | type  | flags | table (u16)   | count (i32)                   |
 *  +-------+-------+---------------+-------------------------------+
 *  | request id (i64)                                              |
 *  +---------------------------------------------------------------+  16
 *  | body                                                          |
 *
 *  body by type (L = the table's value length, n = count):
 *    PULL        n x row (i64)
 *    PUSH, SET   n x [ row (i64) | L x value (f32) ]
 *    PULL_REPLY  n x [ L x value (f32) ]                 in the order of the PULL
 *    ACK         empty                                   n = rows applied
 *    ERROR       n bytes of US-ASCII text
 *    BARRIER_*   empty                                   request id = barrier number
 *    LEAVE       empty
 * </pre>
 *
 * The request id is chosen by the requester and echoed in the answer, which is how answers find
 * their operation. {@link #wrap} checks nothing; {@link #validate} checks that the length agrees
 * with the header, so that reading the body stays within the message.
 */
public final class Message {
    /** Bytes before the body. */
    public static final int HEADER_LENGTH = 16;
    /** Bytes of one row id in a body. */
    public static final int ROW_LENGTH = Long.BYTES;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** On little-endian platforms values are copied in bulk: the wire order is the memory order. */
    private static final boolean BULK = ByteOrder.nativeOrder() == ORDER;
    private static final long FLOAT_BASE = UnsafeApi.arrayBaseOffset(float[].class);
    private static final int TYPE = 0;
    private static final int FLAGS = 1;
    private static final int TABLE = 2;
    private static final int COUNT = 4;
    private static final int REQUEST_ID = 8;

    private DirectBuffer buffer;
    private int offset;
    private int length;

    /** Points this flyweight at the message in {@code buffer[offset, offset + length)}. */
    public Message wrap(DirectBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /** The type, or {@code null} for an unknown code. */
    public MessageType type() {
        return MessageType.of(buffer.getByte(offset + TYPE));
    }

    /** The table id. */
    public int table() {
        return buffer.getShort(offset + TABLE, ORDER) & 0xFFFF;
    }

    /** The count (rows, or text bytes for ERROR). */
    public int count() {
        return buffer.getInt(offset + COUNT, ORDER);
    }

    /** The request id. */
    public long requestId() {
        return buffer.getLong(offset + REQUEST_ID, ORDER);
    }

    /** The whole message's length. */
    public int length() {
        return length;
    }

    /**
     * Checks that the message is complete and consistent: a known type, a non-negative count and a
     * length that matches the body its type and {@code valueLength} call for.
     *
     * @param valueLength the value length of the message's table (ignored by types without values)
     * @return {@code null} if valid, else what is wrong
     */
    public String validate(int valueLength) {
        if (length < HEADER_LENGTH) {
            return "length=" + length + " (expected >= " + HEADER_LENGTH + ")";
        }
        MessageType type = type();
        if (type == null) {
            return "type=" + buffer.getByte(offset + TYPE) + " (expected a known message type)";
        }
        int count = count();
        if (count < 0) {
            return "count=" + count + " (expected >= 0)";
        }
        long body = switch (type) {
            case PULL -> (long) count * ROW_LENGTH;
            case PUSH, SET -> (long) count * (ROW_LENGTH + (long) valueLength * Float.BYTES);
            case PULL_REPLY -> (long) count * valueLength * Float.BYTES;
            case ERROR -> count;
            case ACK, BARRIER_ENTER, BARRIER_RELEASE, LEAVE -> 0;
        };
        if (length != HEADER_LENGTH + body) {
            return "length=" + length + " (expected " + (HEADER_LENGTH + body) + " for " + type + " of " + count + " rows)";
        }
        return null;
    }

    /** The row id of entry {@code i} of a PULL. */
    public long pullRow(int i) {
        return buffer.getLong(offset + HEADER_LENGTH + i * ROW_LENGTH, ORDER);
    }

    /** Offset of entry {@code i} of a PUSH or SET within the buffer: a row id, then the values. */
    public int entryOffset(int i, int valueLength) {
        return offset + HEADER_LENGTH + i * (ROW_LENGTH + valueLength * Float.BYTES);
    }

    /** The row id at {@code entryOffset}. */
    public long rowAt(int entryOffset) {
        return buffer.getLong(entryOffset, ORDER);
    }

    /** Offset of value {@code i} of a PULL_REPLY within the buffer. */
    public int replyValueOffset(int i, int valueLength) {
        return offset + HEADER_LENGTH + i * valueLength * Float.BYTES;
    }

    /**
     * Reads {@code count} floats starting at buffer offset {@code at} into {@code dst[dstOffset..]}.
     *
     * @throws IndexOutOfBoundsException if either range is outside its array or buffer
     */
    public void readFloats(int at, float[] dst, int dstOffset, int count) {
        if (BULK) {
            buffer.boundsCheck(at, count * Float.BYTES);
            Objects.checkFromIndexSize(dstOffset, count, dst.length);
            UnsafeApi.copyMemory(buffer.byteArray(), buffer.addressOffset() + at, dst,
                    FLOAT_BASE + (long) dstOffset * Float.BYTES, (long) count * Float.BYTES);
            return;
        }
        for (int i = 0; i < count; i++) {
            dst[dstOffset + i] = buffer.getFloat(at + i * Float.BYTES, ORDER);
        }
    }

    /** The text of an ERROR. */
    public String errorText() {
        return buffer.getStringWithoutLengthAscii(offset + HEADER_LENGTH, count());
    }

    /** Writes a header at {@code offset}. */
    public static void writeHeader(MutableDirectBuffer buffer, int offset, MessageType type, int table, int count,
                                   long requestId) {
        buffer.putByte(offset + TYPE, type.code);
        buffer.putByte(offset + FLAGS, (byte) 0);
        buffer.putShort(offset + TABLE, (short) table, ORDER);
        buffer.putInt(offset + COUNT, count, ORDER);
        buffer.putLong(offset + REQUEST_ID, requestId, ORDER);
    }

    /** Writes a row id at {@code at}; returns the offset after it. */
    public static int writeRow(MutableDirectBuffer buffer, int at, long row) {
        buffer.putLong(at, row, ORDER);
        return at + ROW_LENGTH;
    }

    /**
     * Writes {@code count} floats from {@code src[srcOffset..]} at {@code at} (growing an expandable
     * buffer as needed); returns the offset after them.
     *
     * @throws IndexOutOfBoundsException if either range is outside its array or a fixed buffer
     */
    public static int writeFloats(MutableDirectBuffer buffer, int at, float[] src, int srcOffset, int count) {
        int end = at + count * Float.BYTES;
        if (BULK) {
            buffer.checkLimit(end);
            buffer.boundsCheck(at, count * Float.BYTES);
            Objects.checkFromIndexSize(srcOffset, count, src.length);
            UnsafeApi.copyMemory(src, FLOAT_BASE + (long) srcOffset * Float.BYTES, buffer.byteArray(),
                    buffer.addressOffset() + at, (long) count * Float.BYTES);
            return end;
        }
        for (int i = 0; i < count; i++) {
            buffer.putFloat(at + i * Float.BYTES, src[srcOffset + i], ORDER);
        }
        return end;
    }
}
