package io.adaps.bench.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;

/**
 * Checkpoint write and restore throughput of one node against a plain sequential write (and read)
 * of the same number of bytes to the same disk, and the pause of a background checkpoint per GiB
 * of parameters (issue 15's report). Whole-process timings, each repeated: the median is printed.
 *
 * <pre>
 * java -Xmx6g --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp adaps-bench/target/benchmarks.jar \
 *     io.adaps.bench.checkpoint.CheckpointThroughput [MiB of parameters, default 512] [repeats, default 3] [dir]
 * </pre>
 */
public final class CheckpointThroughput {
    private static final int VALUE_LENGTH = 64;

    private CheckpointThroughput() {
    }

    public static void main(String[] args) throws IOException {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 512;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("adaps-checkpoint-bench");
        long rows = mib * (1 << 20) / (VALUE_LENGTH * Float.BYTES);
        TableSpec spec = TableSpec.of("t", rows, VALUE_LENGTH).withInitializer(Initializers.uniform(-1f, 1f, 7));
        double[] write = new double[repeats];
        double[] pause = new double[repeats];
        double[] restore = new double[repeats];
        double[] plainWrite = new double[repeats];
        double[] plainRead = new double[repeats];
        long bytes = 0;
        for (int r = 0; r < repeats; r++) {
            Path checkpoints = dir.resolve("checkpoints-" + r);
            try (AdaPS node = AdaPS.builder().table(spec).checkpointsKept(1).build()) {
                long start = System.nanoTime();
                CheckpointTicket ticket = node.checkpointAsync(checkpoints);
                CheckpointResult result = ticket.await();
                write[r] = (System.nanoTime() - start) / 1e9;
                pause[r] = ticket.pause().toNanos() / 1e9;
                bytes = result.bytesWritten();
            }
            long start = System.nanoTime();
            try (AdaPS restored = AdaPS.builder().table(spec).restoreFrom(checkpoints).build()) {
                restore[r] = (System.nanoTime() - start) / 1e9;
            }
            Path plain = dir.resolve("plain-" + r);
            plainWrite[r] = plainWrite(plain, bytes);
            plainRead[r] = plainRead(plain);
            delete(checkpoints);
            Files.deleteIfExists(plain);
        }
        double gib = bytes / (double) (1L << 30);
        System.out.printf(Locale.ROOT, "parameters: %d rows x %d floats, %d bytes written per checkpoint; medians of %d%n",
                rows, VALUE_LENGTH, bytes, repeats);
        System.out.printf(Locale.ROOT, "checkpoint write (call to durable): %.3f s, %.0f MiB/s; plain write + force: %.3f s, "
                + "%.0f MiB/s; ratio %.2f%n", median(write), mibs(bytes, median(write)), median(plainWrite),
                mibs(bytes, median(plainWrite)), median(plainWrite) / median(write));
        System.out.printf(Locale.ROOT, "restore (build with restoreFrom): %.3f s, %.0f MiB/s; plain read: %.3f s, %.0f MiB/s; "
                + "ratio %.2f%n", median(restore), mibs(bytes, median(restore)), median(plainRead),
                mibs(bytes, median(plainRead)), median(plainRead) / median(restore));
        System.out.printf(Locale.ROOT, "pause of checkpointAsync: %.1f ms, %.1f ms per GiB%n", 1e3 * median(pause),
                1e3 * median(pause) / gib);
    }

    private static double plainWrite(Path file, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < bytes; ) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), bytes - written));
                written += channel.write(chunk);
            }
            channel.force(true);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static double plainRead(Path file) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (channel.read(chunk.clear()) > 0) {
                // read through
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static double mibs(long bytes, double seconds) {
        return bytes / (double) (1 << 20) / seconds;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
