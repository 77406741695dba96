package io.adaps.node;

/** The operations a worker sends to other nodes, with the names their buffer arguments have in the API. */
enum Operation {
    PULL("dst"),
    PUSH("updates"),
    SET("values"),
    /** Moves rows here; it has no buffer. */
    LOCALIZE(""),
    /** A replica's summed updates go to the owner, whose fresh values come back into the same buffer. */
    SYNC("deltas"),
    /** A replica asks for fresh values, if they changed, into its buffer. */
    REFRESH("values");

    final String buffer;
    final String bufferOffset;

    Operation(String buffer) {
        this.buffer = buffer;
        this.bufferOffset = buffer + "Offset";
    }
}
