package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * When an {@link Outbox} writes what its event loop sends: after the read batch (a drain task), or
 * at once once {@link Outbox#EAGER_DRAIN_BYTES} have piled up. An {@link EmbeddedChannel}'s loop
 * runs its tasks only when asked, so what is in its outbound queue before that was written inline.
 */
class OutboxDrainTest {
    static {
        NoLeaks.install();
    }

    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    private final ChannelHandlerContext ctx = channel.pipeline().firstContext();
    private final Outbox outbox = new Outbox(ByteBufAllocator.DEFAULT, Long.MAX_VALUE);

    OutboxDrainTest() {
        outbox.attach(channel.eventLoop(), () -> outbox.drainTo(ctx, false));
    }

    @AfterEach
    void close() {
        outbox.close();
        outbox.release();
        channel.finishAndReleaseAll();
    }

    @AfterAll
    static void noLeaks() throws InterruptedException {
        NoLeaks.assertNoLeaks();
    }

    @Test
    void smallMessagesFromTheLoopWaitForTheDrainTask() {
        for (int i = 0; i < 10; i++) {
            assertThat(outbox.append(message(1024), 0, 1024, 0)).isEqualTo(Outbox.Append.APPENDED);
        }
        assertThat(written()).isZero();
        channel.runPendingTasks();
        assertThat(written()).isEqualTo(10 * (1024 + MessagesFrameWriter.MESSAGE_HEADER_LENGTH) + Frame.HEADER_LENGTH);
    }

    @Test
    void aLargeAnswerFromTheLoopIsWrittenAtOnce() {
        int length = Outbox.EAGER_DRAIN_BYTES;
        assertThat(outbox.append(message(length), 0, length, 0)).isEqualTo(Outbox.Append.APPENDED);
        assertThat(written()).isEqualTo(length + MessagesFrameWriter.MESSAGE_HEADER_LENGTH + Frame.HEADER_LENGTH);
        outbox.append(message(16), 0, 16, 0);
        assertThat(written()).as("a small message after it waits again").isZero();
        channel.runPendingTasks();
        assertThat(written()).isEqualTo(16 + MessagesFrameWriter.MESSAGE_HEADER_LENGTH + Frame.HEADER_LENGTH);
    }

    @Test
    void messagesPilingUpOnTheLoopAreWrittenOnceTheyReachTheLimit() {
        // Two messages of half a frame do not fit one frame: each takes a frame of its own.
        int length = Frame.BATCH_BYTES / 2;
        int queuedPerMessage = length + MessagesFrameWriter.MESSAGE_HEADER_LENGTH + Frame.HEADER_LENGTH;
        int appended = 0;
        long written = 0;
        while (written == 0) {
            outbox.append(message(length), 0, length, 0);
            appended++;
            written = written();
        }
        assertThat((long) (appended - 1) * queuedPerMessage).isLessThan(Outbox.EAGER_DRAIN_BYTES);
        assertThat(written).isEqualTo((long) appended * queuedPerMessage).isGreaterThanOrEqualTo(Outbox.EAGER_DRAIN_BYTES);
    }

    private static UnsafeBuffer message(int length) {
        return new UnsafeBuffer(new byte[length]);
    }

    /** The bytes in the channel's outbound queue, which it releases. */
    private long written() {
        long bytes = 0;
        ByteBuf frame;
        while ((frame = channel.readOutbound()) != null) {
            bytes += frame.readableBytes();
            frame.release();
        }
        return bytes;
    }
}
