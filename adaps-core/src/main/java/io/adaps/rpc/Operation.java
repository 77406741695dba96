package io.adaps.rpc;

import io.adaps.protocol.MessageType;

/** The operations a worker sends to other nodes, with the names their buffer arguments have in the API. */
public enum Operation {
    PULL("dst", MessageType.PULL, MessageType.PULL_REPLY),
    PUSH("updates", MessageType.PUSH, MessageType.ACK),
    SET("values", MessageType.SET, MessageType.ACK),
    /** Moves rows here; it has no buffer. Answered by the rows' HANDOVERs (or ACKs). */
    LOCALIZE("", MessageType.LOCALIZE, MessageType.ACK),
    /** A replica's summed updates go to the owner, whose fresh values come back into the same buffer. */
    SYNC("deltas", MessageType.SYNC, MessageType.REFRESHED),
    /** A replica asks for fresh values, if they changed, into its buffer. */
    REFRESH("values", MessageType.REFRESH, MessageType.REFRESHED);

    /** The name of the operation's buffer argument in the API. */
    public final String buffer;
    /** The name of its offset argument. */
    public final String bufferOffset;
    /** The type of its request messages. */
    public final MessageType request;
    /** The type of the answers whose size bounds a request message (the largest). */
    public final MessageType answer;

    Operation(String buffer, MessageType request, MessageType answer) {
        this.buffer = buffer;
        this.bufferOffset = buffer + "Offset";
        this.request = request;
        this.answer = answer;
    }

    /** Whether a request entry carries the row's value (an update or a replacement). */
    public boolean carriesValues() {
        return this == PUSH || this == SET || this == SYNC;
    }
}
