package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What {@link FrameCumulator} copies and allocates: a frame spanning reads moves once, into a buffer
 * of its size but never of more than {@link FrameCumulator#GROWTH} times the bytes received.
 */
class FrameCumulatorTest {
    static {
        NoLeaks.install();
    }

    private static final int MAX_LENGTH = 1 << 20;
    private final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final FrameCumulator cumulator = new FrameCumulator(MAX_LENGTH);

    @AfterAll
    static void noLeaks() throws InterruptedException {
        NoLeaks.assertNoLeaks();
    }

    @Test
    void aReadWithNothingPendingBecomesTheCumulation() {
        ByteBuf empty = Unpooled.buffer(0);
        ByteBuf read = bytes(0, 100);
        ByteBuf cumulation = cumulator.cumulate(alloc, empty, read);
        assertThat(cumulation).isSameAs(read);
        assertThat(empty.refCnt()).isZero();
        cumulation.release();
    }

    @Test
    void aFrameSpanningReadsMovesOnceIntoABufferOfItsSize() {
        int frameBytes = Frame.LENGTH_FIELD_LENGTH + 256 * 1024;
        ByteBuf first = frameStart(frameBytes, 64 * 1024);
        ByteBuf cumulation = cumulator.cumulate(alloc, Unpooled.buffer(0), first);
        ByteBuf second = bytes(1, 64 * 1024);
        ByteBuf merged = cumulator.cumulate(alloc, cumulation, second);
        assertThat(merged).isNotSameAs(first);
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(merged.capacity()).isEqualTo(frameBytes);
        for (int read = 2; read < 4; read++) {
            ByteBuf next = bytes(read, 64 * 1024);
            assertThat(cumulator.cumulate(alloc, merged, next)).isSameAs(merged);
            assertThat(next.refCnt()).isZero();
        }
        assertThat(merged.readableBytes()).isEqualTo(4 * 64 * 1024);
        assertThat(merged.getByte(64 * 1024)).isEqualTo((byte) 1);
        assertThat(merged.getByte(3 * 64 * 1024)).isEqualTo((byte) 3);
        merged.release();
    }

    @Test
    void onlyThePendingBytesMove() {
        ByteBuf first = frameStart(Frame.LENGTH_FIELD_LENGTH + 1000, 600);
        ByteBuf cumulation = cumulator.cumulate(alloc, Unpooled.buffer(0), first);
        cumulation.readerIndex(500);
        ByteBuf merged = cumulator.cumulate(alloc, cumulation, bytes(7, 300));
        assertThat(merged.readerIndex()).isZero();
        assertThat(merged.readableBytes()).isEqualTo(100 + 300);
        assertThat(merged.getByte(100)).isEqualTo((byte) 7);
        merged.release();
    }

    @Test
    void aLengthFieldReservesAtMostGrowthTimesTheBytesReceived() {
        ByteBuf first = frameStart(Frame.LENGTH_FIELD_LENGTH + MAX_LENGTH, 16);
        ByteBuf merged = cumulator.cumulate(alloc, cumulator.cumulate(alloc, Unpooled.buffer(0), first), bytes(2, 16));
        assertThat(merged.capacity()).isEqualTo(FrameCumulator.GROWTH * 32);
        merged.release();
    }

    @Test
    void aLengthOutOfBoundsSizesNothing() {
        ByteBuf first = frameStart(Frame.LENGTH_FIELD_LENGTH + MAX_LENGTH + 1, 16);
        ByteBuf merged = cumulator.cumulate(alloc, cumulator.cumulate(alloc, Unpooled.buffer(0), first), bytes(2, 16));
        assertThat(merged.capacity()).isEqualTo(32);
        merged.release();
    }

    /** The first {@code length} bytes of a frame of {@code frameBytes} bytes, in a buffer of exactly that size. */
    private static ByteBuf frameStart(int frameBytes, int length) {
        ByteBuf buffer = Unpooled.buffer(length, length);
        buffer.writeInt(frameBytes - Frame.LENGTH_FIELD_LENGTH);
        buffer.writeZero(length - Frame.LENGTH_FIELD_LENGTH);
        return buffer;
    }

    private static ByteBuf bytes(int value, int length) {
        ByteBuf buffer = Unpooled.buffer(length, length);
        for (int i = 0; i < length; i++) {
            buffer.writeByte(value);
        }
        return buffer;
    }
}
