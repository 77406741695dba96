package io.adaps.bench.remote;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.bench.loopback.LoopbackNodes;
import io.adaps.bench.loopback.LoopbackTls;
import io.adaps.protocol.Message;

/**
 * Remote pull and push throughput over loopback: a worker of node 0 of a two-node cluster in this
 * JVM ({@link LoopbackNodes}, the real Netty transport) pulls and pushes batches of
 * {@code batch} random rows that all live at node 1, with blocking calls, one at a time. The
 * baseline ({@code rawPull}, {@code rawPush}) moves the same bytes over plain Netty ({@link RawLink}),
 * also synchronously: for a pull a request of a PULL's size ({@value Message#HEADER_LENGTH}-byte
 * header + 8 bytes per row) answered by one of a PULL_REPLY's size (header + {@code 4 * valueLength}
 * bytes per row); for a push a request of a PUSH's size (header + row id and value per row) answered
 * by an ACK's (header only). Both sides have one event-loop thread per end and the same I/O
 * mechanism (epoll on Linux).
 *
 * <p>So {@code pull / rawPull} is the share of the link's capacity that AdaPS delivers; the rest is
 * what AdaPS does beyond moving bytes: validation, routing rows to their home, encoding and decoding
 * floats one at a time, the store's sequence locks and update rule, the outbox and request
 * bookkeeping. The primary score is operations (batches) per second; the secondary results
 * {@code values} and {@code mebibytes} are values and value-MiB moved per second (keys and headers
 * not counted).
 *
 * <p>{@code -p tls=true} runs the cluster with mutual TLS ({@link LoopbackTls}; the raw link stays
 * plaintext), so {@code -p tls=false,true} measures what encryption costs.
 *
 * <p>Meant for one benchmark thread (the raw baseline has one call in flight per link):
 * <pre>
 * java -jar adaps-bench/target/benchmarks.jar RemoteAccess -rf json -rff remote.json
 * java -jar adaps-bench/target/benchmarks.jar RemoteAccess -p valueLength=64 -p batch=64
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class RemoteAccessBenchmark {
    /** Rows in the table; the second half lives at node 1. */
    static final int ROWS = 1 << 14;
    /** Keys drawn ahead of time; batches walk through them. */
    static final int KEY_SEQUENCE = 1 << 20;

    /** The shape of one operation, shared by the AdaPS and the raw variants. */
    @State(Scope.Benchmark)
    public static class Shape {
        @Param({"8", "64", "512"})
        int valueLength;

        @Param({"1", "64", "1024"})
        int batch;
    }

    /** The two-node cluster. */
    @State(Scope.Benchmark)
    public static class Cluster {
        @Param({"false"})
        boolean tls;

        LoopbackTls certificate;
        LoopbackNodes nodes;

        @Setup(Level.Trial)
        public void start(Shape shape) {
            certificate = tls ? LoopbackTls.create() : null;
            nodes = LoopbackNodes.start(2, TableSpec.of("t", ROWS, shape.valueLength)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)), Technique.RELOCATION_ONLY,
                    builder -> tls ? builder.tls(certificate.settings()) : builder);
        }

        @TearDown(Level.Trial)
        public void stop() {
            nodes.close();
            if (certificate != null) {
                certificate.close();
            }
        }
    }

    /** The benchmark thread's worker at node 0, its buffer and its keys, all of node 1's rows. */
    @State(Scope.Thread)
    public static class Caller {
        Worker worker;
        long[] keys;
        float[] buffer;
        int batch;
        int cursor;

        @Setup(Level.Trial)
        public void start(Cluster cluster, Shape shape) {
            worker = cluster.nodes.node(0).worker();
            batch = shape.batch;
            buffer = new float[batch * shape.valueLength];
            Arrays.fill(buffer, 1e-3f);
            long first = cluster.nodes.firstRowOf(1);
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
            keys = new long[KEY_SEQUENCE];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = random.nextLong(first, ROWS);
            }
        }

        /** The offset of the next batch in {@link #keys}. */
        int nextBatch() {
            int offset = cursor;
            cursor = offset + 2 * batch > KEY_SEQUENCE ? 0 : offset + batch;
            return offset;
        }
    }

    /** The plain Netty link and requests of the sizes AdaPS sends. */
    @State(Scope.Thread)
    public static class Raw {
        RawLink link;
        byte[] pullRequest;
        byte[] pullAnswer;
        byte[] pushRequest;
        byte[] pushAnswer;

        @Setup(Level.Trial)
        public void start(Shape shape) {
            int valueBytes = shape.valueLength * Float.BYTES;
            int pullAnswerLength = Message.HEADER_LENGTH + shape.batch * (Message.INDEX_LENGTH + valueBytes);
            pullRequest = RawLink.request(Message.HEADER_LENGTH + shape.batch * Message.ROW_ENTRY, pullAnswerLength);
            pullAnswer = new byte[pullAnswerLength];
            pushRequest = RawLink.request(Message.HEADER_LENGTH + shape.batch * (Message.ROW_ENTRY + valueBytes),
                    Message.HEADER_LENGTH + shape.batch * Message.INDEX_LENGTH);
            pushAnswer = new byte[Message.HEADER_LENGTH + shape.batch * Message.INDEX_LENGTH];
            link = RawLink.start();
        }

        @TearDown(Level.Trial)
        public void stop() {
            link.close();
        }
    }

    /** Secondary results: values and MiB of values moved, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Moved {
        public long values;
        public double mebibytes;
        private int valuesPerCall;
        private double mebibytesPerCall;

        @Setup(Level.Trial)
        public void start(Shape shape) {
            valuesPerCall = shape.batch;
            mebibytesPerCall = (double) shape.batch * shape.valueLength * Float.BYTES / (1 << 20);
        }

        void count() {
            values += valuesPerCall;
            mebibytes += mebibytesPerCall;
        }
    }

    @Benchmark
    public float[] pull(Caller caller, Moved moved) {
        caller.worker.pull(caller.keys, caller.nextBatch(), caller.batch, caller.buffer, 0);
        moved.count();
        return caller.buffer;
    }

    @Benchmark
    public float[] push(Caller caller, Moved moved) {
        caller.worker.push(caller.keys, caller.nextBatch(), caller.batch, caller.buffer, 0);
        moved.count();
        return caller.buffer;
    }

    @Benchmark
    public byte[] rawPull(Raw raw, Moved moved) {
        moved.count();
        return raw.link.call(raw.pullRequest, raw.pullAnswer);
    }

    @Benchmark
    public byte[] rawPush(Raw raw, Moved moved) {
        moved.count();
        return raw.link.call(raw.pushRequest, raw.pushAnswer);
    }
}
