package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Gen;
import io.adaps.testing.Property;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The wire format: messages queued in an {@link Outbox} come out of {@link FrameDecoder} and
 * {@link MessagesFrameReader} whole and in order however the byte stream is cut; arbitrary and
 * corrupted byte strings are refused with {@link FrameException} and nothing else, and decoding never
 * allocates more than {@link FrameCumulator#GROWTH} times what it received.
 */
class FrameCodecProperties {
    static {
        NoLeaks.install();
    }

    @AfterAll
    static void noLeaks() throws InterruptedException {
        NoLeaks.assertNoLeaks();
    }

    record Cut(List<byte[]> messages, int chunk) {
        @Override
        public String toString() {
            return "Cut[" + lengths(messages) + ", chunk=" + chunk + "]";
        }
    }

    record Noise(byte[] bytes, int chunk) {
        @Override
        public String toString() {
            return "Noise[" + Arrays.toString(bytes) + ", chunk=" + chunk + "]";
        }
    }

    /** {@code corruptions}: indexes (modulo the stream's length) and the byte values written there. */
    record Corruption(List<byte[]> messages, List<int[]> corruptions, int chunk) {
        @Override
        public String toString() {
            return "Corruption[" + lengths(messages) + ", " + Arrays.deepToString(corruptions.toArray())
                    + ", chunk=" + chunk + "]";
        }
    }

    /** Messages and an int the property writes over part of their encoding (a version, a message length). */
    record Overwrite(List<byte[]> messages, int value) {
        @Override
        public String toString() {
            return "Overwrite[" + lengths(messages) + ", value=" + value + "]";
        }
    }

    @Test
    void messagesSurviveEncodingAndAnyCuts() {
        Property.forAll(200, gen -> new Cut(messageSet(gen), gen.intIn(1, 70_000)),
                FrameCodecProperties::messagesSurviveEncodingAndAnyCuts);
    }

    private static void messagesSurviveEncodingAndAnyCuts(Cut cut) {
        List<byte[]> messages = cut.messages();
        int chunk = cut.chunk();
        byte[] stream = encode(messages);
        Decoding decoding = new Decoding().feed(stream, chunk);
        decoding.finish();
        assertThat(decoding.messages).containsExactlyElementsOf(messages);
        assertThat(decoding.otherFrames).isEmpty();
        assertThat((long) decoding.largestAllocation()).isLessThanOrEqualTo(allocationBound(stream.length));
    }

    @Test
    void arbitraryBytesAreRefusedOrDecodedWithinBounds() {
        Property.forAll(500, gen -> new Noise(gen.bytes(0, 3000), gen.intIn(1, 512)),
                noise -> assertDecodesOrRefuses(noise.bytes(), noise.chunk()));
    }

    @Test
    void corruptedStreamsAreRefusedOrDecodedWithinBounds() {
        Property.forAll(500, gen -> new Corruption(messageSet(gen), corruptions(gen), gen.intIn(1, 4096)),
                FrameCodecProperties::corruptedStreamsAreRefusedOrDecodedWithinBounds);
    }

    private static void corruptedStreamsAreRefusedOrDecodedWithinBounds(Corruption corrupted) {
        byte[] stream = encode(corrupted.messages());
        for (int[] corruption : corrupted.corruptions()) {
            stream[Math.floorMod(corruption[0], stream.length)] = (byte) corruption[1];
        }
        assertDecodesOrRefuses(stream, corrupted.chunk());
    }

    @Test
    void anotherVersionIsRefused() {
        Property.forAll(100, gen -> new Overwrite(messageSet(gen), gen.intIn(0, 255)),
                FrameCodecProperties::anotherVersionIsRefused);
    }

    private static void anotherVersionIsRefused(Overwrite overwrite) {
        int version = overwrite.value();
        byte[] stream = encode(overwrite.messages());
        stream[Frame.VERSION_OFFSET] = (byte) (version == TransportConfig.PROTOCOL_VERSION ? version + 1 : version);
        assertThatThrownBy(() -> new Decoding().feed(stream, stream.length)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("protocol version=");
    }

    @Test
    void aLengthOutOfRangeIsRefusedFromItsFourBytes() {
        Property.forAll(100, Gen::ints, FrameCodecProperties::aLengthOutOfRangeIsRefusedFromItsFourBytes);
    }

    private static void aLengthOutOfRangeIsRefusedFromItsFourBytes(int length) {
        int max = Frame.maxLength(Decoding.MAX_MESSAGE_BYTES);
        int bad = length >= Frame.MIN_LENGTH && length <= max ? max + 1 + (length & 0xffff) : length;
        byte[] header = ByteBuffer.allocate(Frame.LENGTH_FIELD_LENGTH).putInt(bad).array();
        assertThatThrownBy(() -> new Decoding().feed(header, 1)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("frame length=" + Integer.toUnsignedString(bad));
    }

    @Test
    void anUnknownTypeIsRefused() {
        Property.forAll(100, gen -> gen.intIn(0, 255), FrameCodecProperties::anUnknownTypeIsRefused);
    }

    private static void anUnknownTypeIsRefused(int type) {
        int unknown = Frame.isKnownType(type) ? 0 : type;
        byte[] frame = {0, 0, 0, 2, TransportConfig.PROTOCOL_VERSION, (byte) unknown};
        assertThatThrownBy(() -> new Decoding().feed(frame, frame.length)).isInstanceOf(FrameException.class)
                .hasMessageStartingWith("frame type=" + unknown);
    }

    @Test
    void aBadMessageLengthRefusesTheWholeFrame() {
        Property.forAll(200, gen -> new Overwrite(messageSet(gen), gen.ints()),
                FrameCodecProperties::aBadMessageLengthRefusesTheWholeFrame);
    }

    private static void aBadMessageLengthRefusesTheWholeFrame(Overwrite overwrite) {
        int badLength = overwrite.value();
        byte[] stream = encode(overwrite.messages());
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

    /** A cumulation holds at most {@link FrameCumulator#GROWTH} times the bytes received. */
    private static long allocationBound(long received) {
        return Math.max(64, FrameCumulator.GROWTH * received);
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

    /** Mostly small messages, one in ten large (up to the limit). */
    private static List<byte[]> messageSet(Gen gen) {
        return gen.list(1, 300, g -> g.weightedIndex(9, 1) == 0 ? g.bytes(0, 64)
                : g.bytes(1000, Decoding.MAX_MESSAGE_BYTES));
    }

    private static List<int[]> corruptions(Gen gen) {
        return gen.list(1, 4, g -> new int[] {g.ints(), g.intIn(0, 255)});
    }

    /** The messages' lengths: their bytes are random, the lengths shape the frames. */
    private static String lengths(List<byte[]> messages) {
        return "messages of lengths " + messages.stream().map(message -> message.length).toList();
    }
}
