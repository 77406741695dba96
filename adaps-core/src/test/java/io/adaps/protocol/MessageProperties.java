package io.adaps.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Messages written by the encoder read back identically from heap and direct memory; bad lengths are refused. */
class MessageProperties {

    @Property(tries = 300)
    void pushMessagesRoundTrip(@ForAll @IntRange(min = 1, max = 40) int valueLength,
                               @ForAll @Size(max = 30) List<Long> rows,
                               @ForAll int tableBits, @ForAll long requestId, @ForAll int origin, @ForAll int aux,
                               @ForAll boolean direct, @ForAll @IntRange(min = 0, max = 7) int offset) {
        int table = tableBits & 0xFFFF;
        ExpandableArrayBuffer out = new ExpandableArrayBuffer(8);
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

    @Property(tries = 300)
    void arbitraryBytesAreValidatedWithoutThrowing(@ForAll @Size(max = 64) byte[] bytes,
                                                   @ForAll @IntRange(min = 1, max = 600) int valueLength) {
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
