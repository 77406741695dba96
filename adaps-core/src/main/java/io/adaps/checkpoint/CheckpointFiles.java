package io.adaps.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of a checkpoint directory's files and the file-system steps every writer shares.
 *
 * <pre>
 *   MANIFEST-00000007          generation 7, published (see {@link Manifest})
 *   g00000007-t0-n1.data       table 0's rows that node 1 owned (see {@link DataFile})
 *   g00000007-n1.state         node 1's workers: clocks and saved states (see {@link StateFile})
 *   g00000007-n1.part          node 1's file list for node 0, until the manifest holds it
 *   g00000007-n1.failed        node 1 could not write its files (background checkpoints)
 *   g00000007.failed           node 0 gave checkpoint 7 up (background checkpoints)
 *   *.tmp                      being written; never part of a checkpoint
 * </pre>
 * Every file name starts with its generation, so a checkpoint being written never touches the
 * files of the ones before it: a crash leaves them, and their manifests, as they were.
 */
public final class CheckpointFiles {
    static final String TMP = ".tmp";
    private static final Pattern MANIFEST = Pattern.compile("MANIFEST-(\\d{8,18})");
    private static final Pattern GENERATION = Pattern.compile("(?:MANIFEST-|g)(\\d{8,18})(?:[-.].*)?");

    private CheckpointFiles() {
    }

    public static String manifest(long generation) {
        return String.format("MANIFEST-%08d", generation);
    }

    static String data(long generation, int table, int node) {
        return String.format("g%08d-t%d-n%d.data", generation, table, node);
    }

    static String state(long generation, int node) {
        return String.format("g%08d-n%d.state", generation, node);
    }

    static String part(long generation, int node) {
        return String.format("g%08d-n%d.part", generation, node);
    }

    static String failed(long generation, int node) {
        return String.format("g%08d-n%d.failed", generation, node);
    }

    static String failed(long generation) {
        return String.format("g%08d.failed", generation);
    }

    /** The generation a checkpoint file name belongs to, or -1 for other files. */
    static long generationOf(String fileName) {
        Matcher matcher = GENERATION.matcher(fileName);
        return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1;
    }

    /** The generations of the published manifests in {@code dir}, oldest first. */
    static List<Long> publishedGenerations(Path dir) {
        List<Long> generations = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "MANIFEST-*")) {
            for (Path file : files) {
                Matcher matcher = MANIFEST.matcher(file.getFileName().toString());
                if (matcher.matches()) {
                    generations.add(Long.parseLong(matcher.group(1)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("dir=" + dir + ": cannot list it", e);
        }
        generations.sort(null);
        return generations;
    }

    /** The generation a new checkpoint in {@code dir} gets: one more than the newest published. */
    public static long nextGeneration(Path dir) {
        List<Long> published = publishedGenerations(dir);
        return published.isEmpty() ? 1 : published.get(published.size() - 1) + 1;
    }

    /** The newest published manifest in {@code dir}, or {@code null}. */
    public static Path latestManifest(Path dir) {
        List<Long> published = publishedGenerations(dir);
        return published.isEmpty() ? null : dir.resolve(manifest(published.get(published.size() - 1)));
    }

    /** What node 0 found of an attempt's part files: {@link #ALL_PARTS}, {@link #PARTS_MISSING}, or a failed node. */
    public static final int ALL_PARTS = -1;
    public static final int PARTS_MISSING = -2;

    /**
     * Whether every node's part of checkpoint {@code generation} is there ({@link #ALL_PARTS}),
     * some are still missing ({@link #PARTS_MISSING}), or which node marked its attempt failed.
     */
    public static int parts(Path dir, long generation, int nodes) {
        int missing = 0;
        for (int node = 0; node < nodes; node++) {
            if (Files.exists(dir.resolve(failed(generation, node)))) {
                return node;
            }
            if (!Files.exists(dir.resolve(part(generation, node)))) {
                missing++;
            }
        }
        return missing == 0 ? ALL_PARTS : PARTS_MISSING;
    }

    /** Whether node {@code node} wrote its part of checkpoint {@code generation}: its files are durable. */
    public static boolean partWritten(Path dir, long generation, int node) {
        return Files.exists(dir.resolve(part(generation, node)));
    }

    /** Marks node {@code node}'s attempt at checkpoint {@code generation} failed, for node 0. */
    public static void markFailed(Path dir, long generation, int node, String reason) throws IOException {
        writeAtomically(dir.resolve(failed(generation, node)), reason.getBytes(StandardCharsets.UTF_8));
    }

    /** Node 0 gives checkpoint {@code generation} up, for the other nodes. */
    public static void giveUp(Path dir, long generation, String reason) throws IOException {
        writeAtomically(dir.resolve(failed(generation)), reason.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether node 0 gave checkpoint {@code generation} up. */
    public static boolean givenUp(Path dir, long generation) {
        return Files.exists(dir.resolve(failed(generation)));
    }

    /** Why a node marked its attempt, or node 0 the checkpoint, failed. */
    public static String reason(Path dir, long generation, int node) {
        try {
            return Files.readString(dir.resolve(node < 0 ? failed(generation) : failed(generation, node)));
        } catch (IOException e) {
            return "(unknown: " + e + ")";
        }
    }

    /**
     * Writes {@code bytes} to {@code target} through a temporary file: written, forced to the
     * device, then renamed atomically over {@code target}, and the directory forced. Readers see
     * the old file or the whole new one, never a part.
     */
    static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + TMP);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(target.getParent());
    }

    /**
     * Makes the directory's entries (renames, new files) durable, where the file system allows
     * opening a directory (POSIX); elsewhere the rename's own guarantees stand.
     */
    static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not supported for directories here (e.g. Windows): nothing more can be done.
        }
    }
}
