package io.adaps.bench.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * Encoding and decoding a PUSH message of {@code batch} rows of {@code valueLength} floats with the
 * node protocol's flyweight {@link Message}, against the same layout written and read with a plain
 * little-endian {@link ByteBuffer} (absolute puts and gets, no library).
 *
 * <p>The memory is what the node uses: {@code encode} writes into a {@link Message#newBuffer} buffer
 * (heap, as a worker's request builder does) and {@code plainEncode} into a heap {@code ByteBuffer};
 * {@code decode} validates and reads back a message in direct memory through an
 * {@link UnsafeBuffer} (as the transport hands received messages to the node) and
 * {@code plainDecode} reads the same memory through a direct {@code ByteBuffer}, checking the same
 * length. Each operation is one whole message; values per second are operations per second times
 * {@code batch}.
 *
 * <pre>
 * java -jar adaps-bench/target/benchmarks.jar MessageCodec -rf json -rff codec.json
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MessageCodecBenchmark {
    private static final int TABLE = 3;
    private static final long REQUEST_ID = 0x0001_0002_0000_0007L;
    private static final int ORIGIN = 1;

    /** The rows and values of one PUSH, the buffers to encode into and the encoded message to decode. */
    @State(Scope.Thread)
    public static class Push {
        @Param({"1", "64", "1024"})
        int batch;

        @Param({"8", "64", "512"})
        int valueLength;

        long[] rows;
        float[] values;
        int length;
        MutableDirectBuffer encoded;
        ByteBuffer plainEncoded;
        UnsafeBuffer received;
        ByteBuffer plainReceived;
        final Message message = new Message();
        long[] decodedRows;
        float[] decodedValues;

        @Setup(Level.Trial)
        public void start() {
            SplittableRandom random = new SplittableRandom(1);
            rows = new long[batch];
            values = new float[batch * valueLength];
            for (int i = 0; i < batch; i++) {
                rows[i] = random.nextLong(1L << 40);
            }
            for (int i = 0; i < values.length; i++) {
                values[i] = (float) random.nextDouble(-1, 1);
            }
            length = Message.HEADER_LENGTH + batch * MessageType.PUSH.entryLength(valueLength, valueLength);
            encoded = Message.newBuffer(length);
            plainEncoded = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            plainReceived = ByteBuffer.allocateDirect(length).order(ByteOrder.LITTLE_ENDIAN);
            received = new UnsafeBuffer(plainReceived);
            received.putBytes(0, writePush(this), 0, length);
            decodedRows = new long[batch];
            decodedValues = new float[batch * valueLength];
        }
    }

    @Benchmark
    public MutableDirectBuffer encode(Push push) {
        return writePush(push);
    }

    private static MutableDirectBuffer writePush(Push push) {
        MutableDirectBuffer buffer = push.encoded;
        int valueLength = push.valueLength;
        Message.writeHeader(buffer, 0, MessageType.PUSH, 0, TABLE, push.batch, REQUEST_ID, ORIGIN, 0);
        int at = Message.HEADER_LENGTH;
        for (int i = 0; i < push.batch; i++) {
            at = Message.writeRow(buffer, at, push.rows[i]);
            at = Message.writeInt(buffer, at, i);
            at = Message.writeFloats(buffer, at, push.values, i * valueLength, valueLength);
        }
        return buffer;
    }

    @Benchmark
    public ByteBuffer plainEncode(Push push) {
        ByteBuffer buffer = push.plainEncoded;
        int valueLength = push.valueLength;
        buffer.put(0, MessageType.PUSH.code).put(1, (byte) 0).putShort(2, (short) TABLE).putInt(4, push.batch)
                .putLong(8, REQUEST_ID).putInt(16, ORIGIN).putInt(20, 0);
        int at = Message.HEADER_LENGTH;
        for (int i = 0; i < push.batch; i++) {
            buffer.putLong(at, push.rows[i]);
            buffer.putInt(at + Message.ROW_LENGTH, i);
            at += Message.ROW_ENTRY;
            int base = i * valueLength;
            for (int j = 0; j < valueLength; j++) {
                buffer.putFloat(at, push.values[base + j]);
                at += Float.BYTES;
            }
        }
        return buffer;
    }

    @Benchmark
    public float[] decode(Push push, Blackhole blackhole) {
        Message message = push.message.wrap(push.received, 0, push.length);
        int valueLength = push.valueLength;
        String problem = message.validate(valueLength, valueLength);
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        blackhole.consume(message.type());
        blackhole.consume(message.table());
        blackhole.consume(message.requestId());
        blackhole.consume(message.origin());
        int count = message.count();
        int entryLength = MessageType.PUSH.entryLength(valueLength, valueLength);
        for (int i = 0; i < count; i++) {
            int entry = message.entry(i, entryLength);
            push.decodedRows[i] = message.rowAt(entry);
            blackhole.consume(message.intAt(entry + Message.ROW_LENGTH));
            message.readFloats(entry + Message.ROW_ENTRY, push.decodedValues, i * valueLength, valueLength);
        }
        blackhole.consume(push.decodedRows);
        return push.decodedValues;
    }

    @Benchmark
    public float[] plainDecode(Push push, Blackhole blackhole) {
        ByteBuffer buffer = push.plainReceived;
        int valueLength = push.valueLength;
        int count = buffer.getInt(4);
        if (buffer.get(0) != MessageType.PUSH.code || count < 0
                || push.length != Message.HEADER_LENGTH + (long) count * (Message.ROW_ENTRY + valueLength * Float.BYTES)) {
            throw new IllegalStateException("malformed PUSH of " + push.length + " bytes");
        }
        blackhole.consume(buffer.get(0));
        blackhole.consume(buffer.getShort(2));
        blackhole.consume(buffer.getLong(8));
        blackhole.consume(buffer.getInt(16));
        int at = Message.HEADER_LENGTH;
        for (int i = 0; i < count; i++) {
            push.decodedRows[i] = buffer.getLong(at);
            blackhole.consume(buffer.getInt(at + Message.ROW_LENGTH));
            at += Message.ROW_ENTRY;
            int base = i * valueLength;
            for (int j = 0; j < valueLength; j++) {
                push.decodedValues[base + j] = buffer.getFloat(at);
                at += Float.BYTES;
            }
        }
        blackhole.consume(push.decodedRows);
        return push.decodedValues;
    }
}
