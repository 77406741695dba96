package io.adaps.transport.netty;

import io.netty.buffer.ByteBuf;

/** Receives the frames that {@link FrameDecoder} cuts from a connection's byte stream. */
interface FrameListener {
    /**
     * One whole frame whose header is valid. The body is {@code buffer[index, index + length)}, valid
     * only during the call.
     *
     * @throws FrameException if the body is malformed or the frame is not allowed now
     */
    void onFrame(int type, ByteBuf buffer, int index, int length);
}
