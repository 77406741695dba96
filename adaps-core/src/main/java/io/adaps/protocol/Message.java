package io.adaps.protocol;

import java.nio.ByteOrder;
import java.util.Objects;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
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
 *  +-------------------------------+-------------------------------+  16
 *  | origin (i32)                  | aux (i32)                     |
 *  +-------------------------------+-------------------------------+  24
 *  | body: count entries                                           |
 *
 *  entries by type (L = the table's value length, S = its slot stride: value and rule state):
 *    PULL, LOCALIZE  [ row (i64) | index (i32) ]
 *    PUSH, SET, SYNC [ row (i64) | index (i32) | L x value (f32) ]   SYNC: a replica's summed updates
 *    REFRESH         [ row (i64) | index (i32) | version the replica has (i64) ]
 *    REFRESHED       [ index (i32) | version (i64) | L x value (f32) ]
 *    UNCHANGED       [ index (i32) | version (i64) ]
 *    PULL_REPLY      [ index (i32) | L x value (f32) ]
 *    ACK             [ index (i32) ]
 *    ERROR           one byte of US-ASCII text          aux = failed node + 1 with FLAG_PEER_FAILED
 *    RELINQUISH      [ row (i64) | index (i32) | relocation counter (i32) ]
 *    HANDOVER        [ row (i64) | index (i32) | relocation counter (i32) | S x f32 ]
 *    BARRIER_*       none                               request id = barrier number
 *    LEAVE           none                               request id = barriers passed
 *    INTENT          [ row (i64) | index (i32) | from clock (i64) | to clock (i64) ]
 *                                                       aux = the origin's technique; a start, or
 *                                                       FLAG_INTENT_ENDS (clocks 0), or
 *                                                       FLAG_INTENT_OVERLAPS (from = the release's clock)
 *    PLACEMENT       [ row (i64) | owner (i32) | clock (i64) ]
 *                                                       FLAG_RELOCATE, FLAG_REPLICATE or FLAG_RELEASE
 *                                                       (clock: where the next node starts; else 0)
 * </pre>
 *
 * The request id is chosen by the requester and carried by every message a request causes,
 * forwarded or answered, together with the requesting node ({@code origin}); an entry's
 * {@code index} is its position in the original request. That is how answers find their
 * operation, and how a request split and forwarded across nodes is answered piece by piece.
 * Requests count their forwarding hops in {@code aux}.
 *
 * <p>{@link #wrap} checks nothing; {@link #validate} checks that the length agrees with the
 * header, so that reading the body stays within the message.
 */
public final class Message {
    /** Bytes before the body. */
    public static final int HEADER_LENGTH = 24;
    /** Bytes of a row id. */
    public static final int ROW_LENGTH = Long.BYTES;
    /** Bytes of an entry index. */
    public static final int INDEX_LENGTH = Integer.BYTES;
    /** Bytes of a row id and its index: a PULL or LOCALIZE entry, and the start of every row entry. */
    public static final int ROW_ENTRY = ROW_LENGTH + INDEX_LENGTH;
    /** Bytes of a row's version (see {@code TableStore.pullOwnedVersioned}). */
    public static final int VERSION_LENGTH = Long.BYTES;
    /** Bytes of a logical clock (i64). */
    public static final int CLOCK_LENGTH = Long.BYTES;
    /** Bytes of a RELINQUISH entry, and of a HANDOVER entry before its floats. */
    public static final int MOVE_ENTRY = ROW_ENTRY + Integer.BYTES;
    /** ERROR flag: the request failed because the node in {@code aux - 1} failed. */
    public static final int FLAG_PEER_FAILED = 1;
    /** INTENT flag: the origin's intent for the rows ended (without it: started). */
    public static final int FLAG_INTENT_ENDS = 1;
    /**
     * INTENT flag: the origin, asked to release the rows, still uses them where the next node's
     * intent starts (the entry's from clock: that of the release it answers).
     */
    public static final int FLAG_INTENT_OVERLAPS = 2;
    /** PLACEMENT flag: the receiver should move the rows to itself. */
    public static final int FLAG_RELOCATE = 1;
    /** PLACEMENT flag: the receiver should replicate the rows. */
    public static final int FLAG_REPLICATE = 2;
    /**
     * PLACEMENT flag: another node uses the rows next, from the entry's clock on: the receiver
     * should let them go as soon as its intent ends, or say that it overlaps.
     */
    public static final int FLAG_RELEASE = 4;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** On little-endian platforms values are copied in bulk: the wire order is the memory order. */
    private static final boolean BULK = ByteOrder.nativeOrder() == ORDER;
    private static final long FLOAT_BASE = UnsafeApi.arrayBaseOffset(float[].class);
    private static final int TYPE = 0;
    private static final int FLAGS = 1;
    private static final int TABLE = 2;
    private static final int COUNT = 4;
    private static final int REQUEST_ID = 8;
    private static final int ORIGIN = 16;
    private static final int AUX = 20;

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

    /** The buffer this flyweight points into. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** Where the message starts in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    /** The type, or {@code null} for an unknown code. */
    public MessageType type() {
        return MessageType.of(buffer.getByte(offset + TYPE));
    }

    /** The flags. */
    public int flags() {
        return buffer.getByte(offset + FLAGS) & 0xFF;
    }

    /** The table id. */
    public int table() {
        return buffer.getShort(offset + TABLE, ORDER) & 0xFFFF;
    }

    /** The count (entries, or text bytes for ERROR). */
    public int count() {
        return buffer.getInt(offset + COUNT, ORDER);
    }

    /** The request id. */
    public long requestId() {
        return buffer.getLong(offset + REQUEST_ID, ORDER);
    }

    /** The node that made the request. */
    public int origin() {
        return buffer.getInt(offset + ORIGIN, ORDER);
    }

    /** The type-specific header field: hops of a request, the failed node + 1 of an ERROR. */
    public int aux() {
        return buffer.getInt(offset + AUX, ORDER);
    }

    /** The whole message's length. */
    public int length() {
        return length;
    }

    /**
     * Checks that the message is complete and consistent: a known type, a non-negative count and a
     * length that matches the body its type calls for.
     *
     * @param valueLength the value length of the message's table (ignored by types without values)
     * @param stride      the slot stride of the message's table (used by HANDOVER only)
     * @return {@code null} if valid, else what is wrong
     */
    public String validate(int valueLength, int stride) {
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
        long body = (long) count * type.entryLength(valueLength, stride);
        if (length != HEADER_LENGTH + body) {
            return "length=" + length + " (expected " + (HEADER_LENGTH + body) + " for " + type + " of " + count
                    + " entries)";
        }
        return null;
    }

    /** Buffer offset of entry {@code i} whose entries are {@code entryLength} bytes. */
    public int entry(int i, int entryLength) {
        return offset + HEADER_LENGTH + i * entryLength;
    }

    /** The row id at buffer offset {@code at} (the start of a row entry). */
    public long rowAt(int at) {
        return buffer.getLong(at, ORDER);
    }

    /** The version (i64) at buffer offset {@code at}. */
    public long versionAt(int at) {
        return buffer.getLong(at, ORDER);
    }

    /** The logical clock (i64) at buffer offset {@code at}. */
    public long clockAt(int at) {
        return buffer.getLong(at, ORDER);
    }

    /** The i32 at buffer offset {@code at}: an index or a relocation counter. */
    public int intAt(int at) {
        return buffer.getInt(at, ORDER);
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

    /**
     * A buffer of {@code capacity} bytes (growing as written) to write messages into. Every message
     * is written into a buffer of this one class, the batchers' included, so that writing and sending
     * see one receiver type: a second one first seen after C2 had compiled them (the clocks' and
     * barriers' headers, written into another buffer class once training began) threw away and
     * recompiled the large methods that inline them, on the node's one core.
     */
    public static MutableDirectBuffer newBuffer(int capacity) {
        return new ExpandableArrayBuffer(capacity);
    }

    /** Writes a header at {@code offset}. */
    public static void writeHeader(MutableDirectBuffer buffer, int offset, MessageType type, int flags, int table,
                                   int count, long requestId, int origin, int aux) {
        buffer.putByte(offset + TYPE, type.code);
        buffer.putByte(offset + FLAGS, (byte) flags);
        buffer.putShort(offset + TABLE, (short) table, ORDER);
        buffer.putInt(offset + COUNT, count, ORDER);
        buffer.putLong(offset + REQUEST_ID, requestId, ORDER);
        buffer.putInt(offset + ORIGIN, origin, ORDER);
        buffer.putInt(offset + AUX, aux, ORDER);
    }

    /** Replaces the count of the message whose header is at {@code offset}. */
    public static void writeCount(MutableDirectBuffer buffer, int offset, int count) {
        buffer.putInt(offset + COUNT, count, ORDER);
    }

    /** The count of the message whose header is at {@code offset}. */
    public static int countAt(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + COUNT, ORDER);
    }

    /** Replaces the request id of the message whose header is at {@code offset}. */
    public static void writeRequestId(MutableDirectBuffer buffer, int offset, long requestId) {
        buffer.putLong(offset + REQUEST_ID, requestId, ORDER);
    }

    /** Writes a row id at {@code at}; returns the offset after it. */
    public static int writeRow(MutableDirectBuffer buffer, int at, long row) {
        buffer.putLong(at, row, ORDER);
        return at + ROW_LENGTH;
    }

    /** Writes a version at {@code at}; returns the offset after it. */
    public static int writeVersion(MutableDirectBuffer buffer, int at, long version) {
        buffer.putLong(at, version, ORDER);
        return at + VERSION_LENGTH;
    }

    /** Writes a logical clock at {@code at}; returns the offset after it. */
    public static int writeClock(MutableDirectBuffer buffer, int at, long clock) {
        buffer.putLong(at, clock, ORDER);
        return at + CLOCK_LENGTH;
    }

    /** Writes an i32 (an index or a counter) at {@code at}; returns the offset after it. */
    public static int writeInt(MutableDirectBuffer buffer, int at, int value) {
        buffer.putInt(at, value, ORDER);
        return at + Integer.BYTES;
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
