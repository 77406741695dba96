package io.adaps.bench.remote;

import java.util.concurrent.TimeUnit;

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
 * Round-trip latency of the smallest remote operation: a blocking pull of one row of
 * {@value #VALUE_LENGTH} floats that lives at the other node of a two-node cluster in this JVM
 * ({@link LoopbackNodes}, the real Netty transport), against a plain Netty request/response of
 * the same sizes ({@link RawLink}: a {@value #PULL_LENGTH}-byte request, a {@value #REPLY_LENGTH}-byte
 * answer). Sampled, so JMH reports percentiles (p50, p99, ...) of single calls; each call waits for
 * the previous one, so this is latency on an otherwise idle link. {@code tls=true} runs the cluster
 * with mutual TLS ({@link LoopbackTls}); the raw link stays plaintext.
 *
 * <pre>
 * java -jar adaps-bench/target/benchmarks.jar RoundTrip -rf json -rff roundtrip.json
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(1)
public class RoundTripBenchmark {
    static final int VALUE_LENGTH = 8;
    static final int PULL_LENGTH = Message.HEADER_LENGTH + Message.ROW_ENTRY;
    static final int REPLY_LENGTH = Message.HEADER_LENGTH + Message.INDEX_LENGTH + VALUE_LENGTH * Float.BYTES;
    private static final int ROWS = 1 << 14;

    /** The two-node cluster and a worker of node 0 that pulls rows of node 1. */
    @State(Scope.Thread)
    public static class Cluster {
        @Param({"false", "true"})
        boolean tls;

        LoopbackTls certificate;
        LoopbackNodes nodes;
        Worker worker;
        final float[] buffer = new float[VALUE_LENGTH];
        long firstRemoteRow;
        long next;

        @Setup(Level.Trial)
        public void start() {
            certificate = tls ? LoopbackTls.create() : null;
            nodes = LoopbackNodes.start(2, TableSpec.of("t", ROWS, VALUE_LENGTH)
                    .withInitializer(Initializers.uniform(-1f, 1f, 1)), Technique.RELOCATION_ONLY,
                    builder -> tls ? builder.tls(certificate.settings()) : builder);
            worker = nodes.node(0).worker();
            firstRemoteRow = nodes.firstRowOf(1);
            next = firstRemoteRow;
        }

        @TearDown(Level.Trial)
        public void stop() {
            nodes.close();
            if (certificate != null) {
                certificate.close();
            }
        }

        /** The next row of node 1, round robin. */
        long nextKey() {
            long key = next;
            next = key + 1 == ROWS ? firstRemoteRow : key + 1;
            return key;
        }
    }

    /** The plain Netty link. */
    @State(Scope.Thread)
    public static class Raw {
        RawLink link;
        final byte[] request = RawLink.request(PULL_LENGTH, REPLY_LENGTH);
        final byte[] answer = new byte[REPLY_LENGTH];

        @Setup(Level.Trial)
        public void start() {
            link = RawLink.start();
        }

        @TearDown(Level.Trial)
        public void stop() {
            link.close();
        }
    }

    @Benchmark
    public float[] pull(Cluster cluster) {
        cluster.worker.pull(cluster.nextKey(), cluster.buffer, 0);
        return cluster.buffer;
    }

    @Benchmark
    public byte[] rawPull(Raw raw) {
        return raw.link.call(raw.request, raw.answer);
    }
}
