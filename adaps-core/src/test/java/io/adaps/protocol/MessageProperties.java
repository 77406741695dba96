package io.adaps.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/** Messages written by the encoder read back identically from heap and direct memory; bad lengths are refused. */
class MessageProperties {

    record Push(int valueLength, List<Long> rows, int tableBits, long requestId, int origin, int aux, boolean direct,
                int offset) {
        static Push draw(Gen gen) {
            return new Push(gen.intIn(1, 40), gen.list(0, 30, Gen::longs), gen.ints(), gen.longs(), gen.ints(),
                    gen.ints(), gen.booleans(), gen.intIn(0, 7));
        }
    }

    @Test
    void pushMessagesRoundTrip() {
        Property.forAll(300, Push::draw, MessageProperties::pushMessagesRoundTrip);
    }

    private static void pushMessagesRoundTrip(Push push) {
        int valueLength = push.valueLength();
        List<Long> rows = push.rows();
        long requestId = push.requestId();
        int origin = push.origin();
        int aux = push.aux();
        boolean direct = push.direct();
        int offset = push.offset();
        int table = push.tableBits() & 0xFFFF;
        MutableDirectBuffer out = Message.newBuffer(8); // grows as the message is written
        float[] values = new float[rows.size() * valueLength];
        for (int i = 0; i < values.length; i++) {
            values[i] = Float.intBitsToFloat((int) (requestId * 31 + i * 0x9E3779B9L)); // any bit pattern
        }
        int at = offset + Message.HEADER_LENGTH;
        for (int i = 0; i < rows.size(); i++) {
            at = Message.writeRow(out, at, rows.get(i));
            at = Message.writeInt(out, at, i * 3);
            at = Message.writeFloats(out, at, values, i * valueLength, valueLength);
        }
        Message.writeHeader(out, offset, MessageType.PUSH, 0, table, rows.size(), requestId, origin, aux);
        int length = at - offset;

        UnsafeBuffer in = direct ? new UnsafeBuffer(ByteBuffer.allocateDirect(at)) : new UnsafeBuffer(new byte[at]);
        in.putBytes(0, out, 0, at);
        Message message = new Message().wrap(in, offset, length);
        assertThat(message.validate(valueLength, valueLength + 1)).isNull();
        assertThat(message.type()).isEqualTo(MessageType.PUSH);
        assertThat(message.table()).isEqualTo(table);
        assertThat(message.count()).isEqualTo(rows.size());
        assertThat(message.requestId()).isEqualTo(requestId);
        assertThat(message.origin()).isEqualTo(origin);
        assertThat(message.aux()).isEqualTo(aux);
        float[] back = new float[values.length];
        int entryLength = MessageType.PUSH.entryLength(valueLength, valueLength + 1);
        for (int i = 0; i < rows.size(); i++) {
            int entry = message.entry(i, entryLength);
            assertThat(message.rowAt(entry)).isEqualTo(rows.get(i));
            assertThat(message.intAt(entry + Message.ROW_LENGTH)).isEqualTo(i * 3);
            message.readFloats(entry + Message.ROW_ENTRY, back, i * valueLength, valueLength);
        }
        for (int i = 0; i < values.length; i++) {
            assertThat(Float.floatToRawIntBits(back[i])).isEqualTo(Float.floatToRawIntBits(values[i]));
        }
        // Any other length is refused by validation, never read past.
        for (int cut = 0; cut < length; cut += Math.max(1, length / 7)) {
            assertThat(new Message().wrap(in, offset, cut).validate(valueLength, valueLength + 1)).isNotNull();
        }
    }

    record Noise(byte[] bytes, int valueLength) {
        @Override
        public String toString() {
            return "Noise[" + Arrays.toString(bytes) + ", valueLength=" + valueLength + "]";
        }
    }

    @Test
    void arbitraryBytesAreValidatedWithoutThrowing() {
        Property.forAll(300, gen -> new Noise(gen.bytes(0, 64), gen.intIn(1, 600)),
                MessageProperties::arbitraryBytesAreValidatedWithoutThrowing);
    }

    private static void arbitraryBytesAreValidatedWithoutThrowing(Noise noise) {
        byte[] bytes = noise.bytes();
        int valueLength = noise.valueLength();
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        Message message = new Message().wrap(buffer, 0, bytes.length);
        String problem = message.validate(valueLength, valueLength + 2);
        if (problem == null) {
            // Only a consistent header passes: the body is exactly what the type and count call for.
            assertThat(bytes.length).isGreaterThanOrEqualTo(Message.HEADER_LENGTH);
            assertThat(message.type()).isNotNull();
        }
    }
}
