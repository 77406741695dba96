package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The wire format: messages queued in an {@link Outbox} come out of {@link FrameDecoder} and
 * {@link MessagesFrameReader} whole and in order however the byte stream is cut; arbitrary and
 * corrupted byte strings are refused with {@link FrameException} and nothing else, and decoding never
 * allocates more than twice what it received.
 */
class FrameCodecProperties {
    static {
        NoLeaks.install();
    }

    @AfterContainer
    static void noLeaks() throws InterruptedException {
        NoLeaks.assertNoLeaks();
    }

    @Property(tries = 200)
    void messagesSurviveEncodingAndAnyCuts(@ForAll("messageSets") List<byte[]> messages,
                                           @ForAll @IntRange(min = 1, max = 70_000) int chunk) {
        byte[] stream = encode(messages);
        Decoding decoding = new Decoding().feed(stream, chunk);
        decoding.finish();
        assertThat(decoding.messages).containsExactlyElementsOf(messages);
        assertThat(decoding.otherFrames).isEmpty();
        assertThat((long) decoding.largestAllocation()).isLessThanOrEqualTo(allocationBound(stream.length));
    }

    @Property(tries = 500)
    void arbitraryBytesAreRefusedOrDecodedWithinBounds(@ForAll @Size(max = 3000) byte[] bytes,
                                                       @ForAll @IntRange(min = 1, max = 512) int chunk) {
        assertDecodesOrRefuses(bytes, chunk);
    }

    @Property(tries = 500)
    void corruptedStreamsAreRefusedOrDecodedWithinBounds(@ForAll("messageSets") List<byte[]> messages,
                                                         @ForAll("corruptions") List<int[]> corruptions,
                                                         @ForAll @IntRange(min = 1, max = 4096) int chunk) {
        byte[] stream = encode(messages);
        for (int[] corruption : corruptions) {
            stream[Math.floorMod(corruption[0], stream.length)] = (byte) corruption[1];
        }
        assertDecodesOrRefuses(stream, chunk);
    }

    @Property(tries = 100)
    void anotherVersionIsRefused(@ForAll("messageSets") List<byte[]> messages, @ForAll @IntRange(max = 255) int version) {
        byte[] stream = encode(messages);
        stream[Frame.VERSION_OFFSET] = (byte) (version == TransportConfig.PROTOCOL_VERSION ? version + 1 : version);
        assertThatThrownBy(() -> new Decoding().feed(stream, stream.length)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("protocol version=");
    }

    @Property(tries = 100)
    void aLengthOutOfRangeIsRefusedFromItsFourBytes(@ForAll int length) {
        int max = Frame.maxLength(Decoding.MAX_MESSAGE_BYTES);
        int bad = length >= Frame.MIN_LENGTH && length <= max ? max + 1 + (length & 0xffff) : length;
        byte[] header = ByteBuffer.allocate(Frame.LENGTH_FIELD_LENGTH).putInt(bad).array();
        assertThatThrownBy(() -> new Decoding().feed(header, 1)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("frame length=" + Integer.toUnsignedString(bad));
    }

    @Property(tries = 100)
    void anUnknownTypeIsRefused(@ForAll @IntRange(max = 255) int type) {
        int unknown = Frame.isKnownType(type) ? 0 : type;
        byte[] frame = {0, 0, 0, 2, TransportConfig.PROTOCOL_VERSION, (byte) unknown};
        assertThatThrownBy(() -> new Decoding().feed(frame, frame.length)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("frame type=" + unknown);
    }

    @Property(tries = 200)
    void aBadMessageLengthRefusesTheWholeFrame(@ForAll("messageSets") List<byte[]> messages, @ForAll int badLength) {
        byte[] stream = encode(messages);
        int firstFrameBody = ByteBuffer.wrap(stream).getInt(0) - Frame.MIN_LENGTH;
        int firstMessage = ByteBuffer.wrap(stream).getInt(Frame.HEADER_LENGTH);
        int rest = firstFrameBody - MessagesFrameWriter.MESSAGE_HEADER_LENGTH;
        int bad = badLength >= 0 && badLength <= rest ? rest + 1 + (badLength & 0xff) : badLength;
        ByteBuffer.wrap(stream).putInt(Frame.HEADER_LENGTH, bad);
        Decoding decoding = new Decoding();
        assertThatThrownBy(() -> decoding.feed(stream, stream.length)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("message length=" + bad);
        assertThat(decoding.messages).as("nothing of a malformed frame, first message was %d bytes", firstMessage)
                .isEmpty();
    }

    private static void assertDecodesOrRefuses(byte[] bytes, int chunk) {
        Decoding decoding = new Decoding();
        try {
            decoding.feed(bytes, chunk);
            decoding.finish();
        } catch (FrameException refused) {
            assertThat(refused).hasMessageNotContaining("null");
        }
        assertThat((long) decoding.largestAllocation()).isLessThanOrEqualTo(allocationBound(decoding.fed()));
        assertThat(decoding.messages).allSatisfy(m -> assertThat(m.length).isLessThanOrEqualTo(Decoding.MAX_MESSAGE_BYTES));
    }

    /** Netty's cumulation at most doubles what it holds; a length field never sizes a buffer. */
    private static long allocationBound(long received) {
        return Math.max(64, 2 * received);
    }

    /** The frames an {@link Outbox} makes for {@code messages}, as one byte stream. */
    static byte[] encode(List<byte[]> messages) {
        Outbox outbox = new Outbox(ByteBufAllocator.DEFAULT, Long.MAX_VALUE);
        for (byte[] message : messages) {
            outbox.append(new UnsafeBuffer(message), 0, message.length, 0);
        }
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = channel.pipeline().firstContext();
        outbox.drainTo(ctx, true);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        ByteBuf frame;
        while ((frame = channel.readOutbound()) != null) {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            frame.release();
            stream.writeBytes(bytes);
        }
        channel.finishAndReleaseAll();
        return stream.toByteArray();
    }

    @Provide
    Arbitrary<List<byte[]>> messageSets() {
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        Arbitrary<byte[]> large = Arbitraries.bytes().array(byte[].class).ofMinSize(1000).ofMaxSize(Decoding.MAX_MESSAGE_BYTES);
        return Arbitraries.frequencyOf(
                        Tuple.of(9, small),
                        Tuple.of(1, large))
                .list().ofMinSize(1).ofMaxSize(300);
    }

    @Provide
    Arbitrary<List<int[]>> corruptions() {
        return Combinators.combine(Arbitraries.integers(), Arbitraries.integers().between(0, 255))
                .as((index, value) -> new int[] {index, value})
                .list().ofMinSize(1).ofMaxSize(4);
    }
}
