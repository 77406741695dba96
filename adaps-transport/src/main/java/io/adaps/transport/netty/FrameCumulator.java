package io.adaps.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Gathers the reads of a connection for {@link FrameDecoder} so that a frame spanning many reads is
 * copied once, into a buffer of its own size.
 *
 * <p>Netty's merging cumulator appends each read to one buffer that grows by doubling, copying
 * everything it holds at every growth, read bytes included; on a word2vec node the grown buffers
 * came from the adaptive allocator's fallback, allocated, zeroed and freed each time: a 256 KiB
 * answer arriving in 64 KiB reads was copied about twice and took two fresh buffers (8% of the
 * transport thread). Here:
 * <ul>
 *   <li>with nothing pending, the read itself becomes the cumulation (no copy, as in Netty);</li>
 *   <li>a read that fits behind the pending bytes is appended there;</li>
 *   <li>otherwise the pending bytes (not the read ones) and the read move to a new buffer, large
 *       enough for the whole frame that starts them when its length field is there and valid,
 *       but at most {@value #GROWTH} times the bytes received of it, so that a peer cannot make this
 *       node reserve memory it has not sent (a frame of 256 KiB in 64 KiB reads: one move).</li>
 * </ul>
 */
final class FrameCumulator implements ByteToMessageDecoder.Cumulator {
    /** The most a new cumulation holds over the bytes that are in it. */
    static final int GROWTH = 4;

    private final int maxLength;

    /** @param maxLength the largest length field a frame may have, as {@link FrameDecoder}'s */
    FrameCumulator(int maxLength) {
        this.maxLength = maxLength;
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (cumulation == in) {
            in.release();
            return cumulation;
        }
        if (!cumulation.isReadable() && in.isContiguous()) {
            cumulation.release();
            return in;
        }
        try {
            int arriving = in.readableBytes();
            if (cumulation.writableBytes() >= arriving && cumulation.refCnt() == 1 && !cumulation.isReadOnly()) {
                cumulation.writeBytes(in);
                return cumulation;
            }
            int pending = cumulation.readableBytes();
            long held = (long) pending + arriving;
            long capacity = Math.max(held, Math.min(frameBytes(cumulation), GROWTH * held));
            ByteBuf merged = alloc.directBuffer((int) Math.min(Integer.MAX_VALUE, capacity));
            merged.writeBytes(cumulation, cumulation.readerIndex(), pending).writeBytes(in);
            cumulation.release();
            return merged;
        } finally {
            in.release();
        }
    }

    /**
     * The bytes of the frame that starts at {@code cumulation}'s reader index, length field
     * included, if that field is there and within bounds; else 0.
     */
    private long frameBytes(ByteBuf cumulation) {
        if (cumulation.readableBytes() < Frame.LENGTH_FIELD_LENGTH) {
            return 0;
        }
        int length = cumulation.getInt(cumulation.readerIndex() + Frame.LENGTH_OFFSET);
        return length >= Frame.MIN_LENGTH && length <= maxLength ? (long) Frame.LENGTH_FIELD_LENGTH + length : 0;
    }
}
