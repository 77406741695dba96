package io.adaps.transport.netty;

import io.netty.handler.codec.DecoderException;

/**
 * The one exception decoding throws: the bytes received are not a valid AdaPS frame (bad length,
 * version or type, malformed body, or a frame not allowed in the connection's state). The connection
 * that received them is closed.
 */
final class FrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** A decoding failure described by {@code message}, e.g. {@code version=7 (expected 1)}. */
    FrameException(String message) {
        super(message);
    }
}
