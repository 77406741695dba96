package io.adaps.transport.netty;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;

import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * Feeds bytes, in chunks, through the real {@link FrameDecoder} and {@link MessagesFrameReader} on an
 * {@link EmbeddedChannel}, recording the messages and other frames decoded and the largest buffer
 * the decoding asked its allocator for.
 */
final class Decoding implements FrameListener, MessageHandler {
    /** Connected nodes' limit in these tests. */
    static final int MAX_MESSAGE_BYTES = 4096;

    final List<byte[]> messages = new ArrayList<>();
    final List<Integer> otherFrames = new ArrayList<>();
    private final MessagesFrameReader reader = new MessagesFrameReader();
    private final RecordingAllocator allocator = new RecordingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(Frame.maxLength(MAX_MESSAGE_BYTES), this));
    private long fed;

    Decoding() {
        channel.config().setAllocator(allocator);
    }

    /**
     * Feeds {@code bytes} in chunks of {@code chunk} bytes.
     *
     * @throws FrameException as soon as the decoder refuses the input
     */
    Decoding feed(byte[] bytes, int chunk) {
        try {
            for (int from = 0; from < bytes.length; from += chunk) {
                byte[] part = Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + chunk));
                fed += part.length;
                channel.writeInbound(Unpooled.wrappedBuffer(part));
            }
            return this;
        } catch (FrameException e) {
            channel.finishAndReleaseAll();
            throw e;
        }
    }

    /** Closes the channel, releasing what the decoder still holds. */
    void finish() {
        channel.finishAndReleaseAll();
    }

    /** The largest capacity requested from the allocator so far. */
    int largestAllocation() {
        return allocator.largest;
    }

    /** Bytes fed so far. */
    long fed() {
        return fed;
    }

    @Override
    public void onFrame(int type, ByteBuf buffer, int index, int length) {
        if (type == Frame.MESSAGES) {
            reader.wrap(buffer, index, length, MAX_MESSAGE_BYTES).deliver(1, this);
        } else {
            otherFrames.add(type);
        }
    }

    @Override
    public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
        byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        messages.add(copy);
    }

    @Override
    public void onPeerFailure(PeerFailedException failure) {
        throw new AssertionError("not expected here", failure);
    }

    /** Unpooled heap buffers, remembering the largest request. */
    private static final class RecordingAllocator extends AbstractByteBufAllocator {
        private int largest;

        RecordingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            largest = Math.max(largest, initialCapacity);
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
