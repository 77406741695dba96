package io.adaps.protocol;

/** The kinds of node-to-node messages; the code is the first byte of every message. */
public enum MessageType {
    /** Asks the holder for the values of rows; answered by {@link #PULL_REPLY}. */
    PULL(1),
    /** Hands updates for rows to the holder's update rule; answered by {@link #ACK}. */
    PUSH(2),
    /** Replaces the values of rows at the holder; answered by {@link #ACK}. */
    SET(3),
    /** The values asked for by a {@link #PULL}, in the order asked. */
    PULL_REPLY(4),
    /** A {@link #PUSH} or {@link #SET} was applied. */
    ACK(5),
    /** A request could not be served; the body is a message for the requester. */
    ERROR(6),
    /** A node entered barrier number {@code requestId} (sent to the coordinator, node 0). */
    BARRIER_ENTER(7),
    /** Every node entered barrier number {@code requestId} (sent by the coordinator). */
    BARRIER_RELEASE(8),
    /** The sender is closing; it will send nothing more. */
    LEAVE(9);

    private static final MessageType[] BY_CODE = new MessageType[16];

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
}
