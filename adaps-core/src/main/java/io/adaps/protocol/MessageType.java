package io.adaps.protocol;

/**
 * The kinds of node-to-node messages; the code is the first byte of every message. Each type has
 * a fixed body layout of {@code count} entries (see {@link Message}), whose length depends on the
 * table's value length {@code L} and slot stride {@code S} (value plus update-rule state).
 */
public enum MessageType {
    /** Asks for the values of rows; answered by {@link #PULL_REPLY}, possibly in several parts. */
    PULL(1),
    /** Hands updates for rows to the holder's update rule; answered by {@link #ACK}. */
    PUSH(2),
    /** Replaces the values of rows at the holder; answered by {@link #ACK}. */
    SET(3),
    /** Values asked for by a {@link #PULL}, each with its index in the request. */
    PULL_REPLY(4),
    /** Rows of a {@link #PUSH}, {@link #SET} or {@link #LOCALIZE} that are done, by index. */
    ACK(5),
    /** A request could not be served; the body is a message for the requester. */
    ERROR(6),
    /** A node entered barrier number {@code requestId} (sent to the coordinator, node 0). */
    BARRIER_ENTER(7),
    /** Every node entered barrier number {@code requestId} (sent by the coordinator). */
    BARRIER_RELEASE(8),
    /** The sender is closing; it will send nothing more. */
    LEAVE(9),
    /** Asks the rows' home to move them to the origin; completed by {@link #HANDOVER}s. */
    LOCALIZE(10),
    /** The home tells a row's owner to hand it to the origin. */
    RELINQUISH(11),
    /** Values and update-rule state of rows moving to the receiver. */
    HANDOVER(12),
    /**
     * A replica's accumulated updates for rows, handed to the owner's update rule; answered by
     * {@link #REFRESHED} with the rows' fresh values.
     */
    SYNC(13),
    /**
     * Tells the rows' home that the origin's intent for them starts, or ends with
     * {@link Message#FLAG_INTENT_ENDS}; {@code aux} is the origin's technique. Not answered.
     */
    INTENT(14),
    /**
     * The home tells a node with intent what to do about rows: move them to itself
     * ({@link Message#FLAG_RELOCATE}) or replicate them ({@link Message#FLAG_REPLICATE}). Each
     * entry's index field names the rows' owner.
     */
    PLACEMENT(15),
    /**
     * A replica asks for the rows' values if they changed since the version it has; answered by
     * {@link #REFRESHED} or, for rows whose version is the same, {@link #UNCHANGED}.
     */
    REFRESH(16),
    /** Fresh values of rows of a {@link #SYNC} or {@link #REFRESH}, each with its version. */
    REFRESHED(17),
    /** Rows of a {@link #REFRESH} that did not change: only their version. */
    UNCHANGED(18);

    private static final MessageType[] BY_CODE = new MessageType[32];

    static {
        for (MessageType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    /** The wire code. */
    public final byte code;

    MessageType(int code) {
        this.code = (byte) code;
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
        return switch (this) {
            case PULL, LOCALIZE, INTENT, PLACEMENT -> Message.ROW_ENTRY;
            case PUSH, SET, SYNC -> Message.ROW_ENTRY + l * Float.BYTES;
            case PULL_REPLY -> Message.INDEX_LENGTH + l * Float.BYTES;
            case REFRESH -> Message.ROW_ENTRY + Message.VERSION_LENGTH;
            case REFRESHED -> Message.INDEX_LENGTH + Message.VERSION_LENGTH + l * Float.BYTES;
            case UNCHANGED -> Message.INDEX_LENGTH + Message.VERSION_LENGTH;
            case ACK -> Message.INDEX_LENGTH;
            case ERROR -> 1;
            case RELINQUISH -> Message.MOVE_ENTRY;
            case HANDOVER -> Message.MOVE_ENTRY + s * Float.BYTES;
            case BARRIER_ENTER, BARRIER_RELEASE, LEAVE -> 0;
        };
    }
}
