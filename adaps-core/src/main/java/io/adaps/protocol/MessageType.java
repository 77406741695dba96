package io.adaps.protocol;

/**
 * The kinds of node-to-node messages; the code is the first byte of every message. Each type has
 * a fixed body layout of {@code count} entries (see {@link Message}), whose length depends on the
 * table's value length {@code L} and slot stride {@code S} (value plus update-rule state).
 */
public enum MessageType {
    /** Asks for the values of rows; answered by {@link #PULL_REPLY}, possibly in several parts. */
    PULL(1, Message.ROW_ENTRY, 0, 0),
    /** Hands updates for rows to the holder's update rule; answered by {@link #ACK}. */
    PUSH(2, Message.ROW_ENTRY, 1, 0),
    /** Replaces the values of rows at the holder; answered by {@link #ACK}. */
    SET(3, Message.ROW_ENTRY, 1, 0),
    /** Values asked for by a {@link #PULL}, each with its index in the request. */
    PULL_REPLY(4, Message.INDEX_LENGTH, 1, 0),
    /** Rows of a {@link #PUSH}, {@link #SET} or {@link #LOCALIZE} that are done, by index. */
    ACK(5, Message.INDEX_LENGTH, 0, 0),
    /** A request could not be served; the body is a message for the requester. */
    ERROR(6, 1, 0, 0),
    /** A node entered barrier number {@code requestId} (sent to the coordinator, node 0). */
    BARRIER_ENTER(7, 0, 0, 0),
    /** Every node entered barrier number {@code requestId} (sent by the coordinator). */
    BARRIER_RELEASE(8, 0, 0, 0),
    /** The sender is closing; it will send nothing more. */
    LEAVE(9, 0, 0, 0),
    /** Asks the rows' home to move them to the origin; completed by {@link #HANDOVER}s. */
    LOCALIZE(10, Message.ROW_ENTRY, 0, 0),
    /** The home tells a row's owner to hand it to the origin. */
    RELINQUISH(11, Message.MOVE_ENTRY, 0, 0),
    /** Values and update-rule state of rows moving to the receiver. */
    HANDOVER(12, Message.MOVE_ENTRY, 0, 1),
    /**
     * A replica's accumulated updates for rows, handed to the owner's update rule; answered by
     * {@link #REFRESHED} with the rows' fresh values.
     */
    SYNC(13, Message.ROW_ENTRY, 1, 0),
    /**
     * Tells the rows' home that the origin's intent for them starts (with the clocks of the intent
     * that started it), ends with {@link Message#FLAG_INTENT_ENDS}, or, asked to release them,
     * still holds where the next node starts ({@link Message#FLAG_INTENT_OVERLAPS}, with that
     * clock);
     * {@code aux} is the origin's technique. Not answered.
     */
    INTENT(14, Message.ROW_ENTRY + 2 * Message.CLOCK_LENGTH, 0, 0),
    /**
     * The home tells a node with intent what to do about rows: move them to itself
     * ({@link Message#FLAG_RELOCATE}), replicate them ({@link Message#FLAG_REPLICATE}), or let
     * them go when its intent ends, since another node uses them from the entry's clock on
     * ({@link Message#FLAG_RELEASE}). Each entry's index field names the rows' owner.
     */
    PLACEMENT(15, Message.ROW_ENTRY + Message.CLOCK_LENGTH, 0, 0),
    /**
     * A replica asks for the rows' values if they changed since the version it has; answered by
     * {@link #REFRESHED} or, for rows whose version is the same, {@link #UNCHANGED}.
     */
    REFRESH(16, Message.ROW_ENTRY + Message.VERSION_LENGTH, 0, 0),
    /** Fresh values of rows of a {@link #SYNC} or {@link #REFRESH}, each with its version. */
    REFRESHED(17, Message.INDEX_LENGTH + Message.VERSION_LENGTH, 1, 0),
    /** Rows of a {@link #REFRESH} that did not change: only their version. */
    UNCHANGED(18, Message.INDEX_LENGTH + Message.VERSION_LENGTH, 0, 0),
    /**
     * The sender's part of the cluster's watermark changed to {@code requestId}: the clock through
     * which its workers' updates have reached their owners (see
     * {@link io.adaps.consistency.ClusterClocks}). Not answered.
     */
    CLOCK(19, 0, 0, 0);

    private static final MessageType[] BY_CODE = new MessageType[32];

    static {
        for (MessageType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    /** The wire code. */
    public final byte code;
    /**
     * A body entry's length as {@code fixedBytes + (valueFloats * L + slotFloats * S) * 4}: fields,
     * not a switch, since the length is computed for every entry of every message, by code that a
     * new message type reaching it must not deoptimize.
     */
    private final int fixedBytes;
    private final int valueFloats;
    private final int slotFloats;

    MessageType(int code, int fixedBytes, int valueFloats, int slotFloats) {
        this.code = (byte) code;
        this.fixedBytes = fixedBytes;
        this.valueFloats = valueFloats;
        this.slotFloats = slotFloats;
    }

    /** The type with wire {@code code}, or {@code null} if there is none. */
    public static MessageType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** Whether this type asks the holder of rows to do something with them (and may be forwarded). */
    public boolean isRowRequest() {
        return this == PULL || this == PUSH || this == SET || this == SYNC || this == REFRESH;
    }

    /** Bytes of one body entry for a table of value length {@code l} and slot stride {@code s}. */
    public int entryLength(int l, int s) {
        return fixedBytes + (valueFloats * l + slotFloats * s) * Float.BYTES;
    }
}
