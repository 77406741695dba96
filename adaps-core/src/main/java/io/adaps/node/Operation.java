package io.adaps.node;

/** The three parameter operations, with the names their buffer arguments have in the API. */
enum Operation {
    PULL("dst"),
    PUSH("updates"),
    SET("values");

    final String buffer;
    final String bufferOffset;

    Operation(String buffer) {
        this.buffer = buffer;
        this.bufferOffset = buffer + "Offset";
    }
}
