package io.adaps.transport.netty;

import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;

/** Views of {@link ByteBuf} memory as Agrona buffers, without copying. */
final class Buffers {
    private Buffers() {
    }

    /**
     * Points {@code view} at {@code buffer[index, index + length)}: the memory address of a direct
     * buffer, the array of a heap buffer, or (for other buffers) the NIO view. Valid while
     * {@code buffer} is neither released nor reallocated.
     */
    static UnsafeBuffer wrap(UnsafeBuffer view, ByteBuf buffer, int index, int length) {
        if (buffer.hasMemoryAddress()) {
            view.wrap(buffer.memoryAddress() + index, length);
        } else if (buffer.hasArray()) {
            view.wrap(buffer.array(), buffer.arrayOffset() + index, length);
        } else {
            view.wrap(buffer.nioBuffer(index, length));
        }
        return view;
    }
}
