package io.adaps.rpc;

import io.adaps.protocol.MessageType;

/** The operations a worker sends to other nodes, with the names their buffer arguments have in the API. */
public enum Operation {
    PULL("dst", false, MessageType.PULL, MessageType.PULL_REPLY),
    PUSH("updates", true, MessageType.PUSH, MessageType.ACK),
    SET("values", true, MessageType.SET, MessageType.ACK),
    /** Moves rows here; it has no buffer. Answered by the rows' HANDOVERs (or ACKs). */
    LOCALIZE("", false, MessageType.LOCALIZE, MessageType.ACK, MessageType.HANDOVER),
    /** A replica's summed updates go to the owner, whose fresh values come back into the same buffer. */
    SYNC("deltas", true, MessageType.SYNC, MessageType.REFRESHED),
    /** A replica asks for fresh values, if they changed, into its buffer. */
    REFRESH("values", false, MessageType.REFRESH, MessageType.REFRESHED, MessageType.UNCHANGED);

    /** The name of the operation's buffer argument in the API. */
    public final String buffer;
    /** The name of its offset argument. */
    public final String bufferOffset;
    /** The type of its request messages. */
    public final MessageType request;
    /** The type of the answers whose size bounds a request message (the largest). */
    public final MessageType answer;
    /*
     * Facts kept as data, not computed by comparing operations: the code that asks them runs for the
     * evaluation's pulls first and for training's other operations later, and C2 compiles a
     * comparison whose other outcome it has not seen yet as a trap (see io.adaps.util.Masks).
     */
    private final boolean carriesValues;
    /** The types that answer it, one bit per {@link MessageType#ordinal()}. */
    private final long answers;

    Operation(String buffer, boolean carriesValues, MessageType request, MessageType... answers) {
        this.buffer = buffer;
        this.bufferOffset = buffer + "Offset";
        this.carriesValues = carriesValues;
        this.request = request;
        this.answer = answers[0];
        long bits = 0;
        for (MessageType type : answers) {
            bits |= 1L << type.ordinal();
        }
        this.answers = bits;
    }

    /** Whether a request entry carries the row's value (an update or a replacement). */
    public boolean carriesValues() {
        return carriesValues;
    }

    /** Whether a message of {@code type} answers this operation's requests. */
    public boolean isAnsweredBy(MessageType type) {
        return (answers >>> type.ordinal() & 1) != 0;
    }
}
