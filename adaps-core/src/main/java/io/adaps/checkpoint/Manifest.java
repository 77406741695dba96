package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import io.adaps.api.CheckpointException;

/**
 * What publishes a checkpoint: a small text file, {@code MANIFEST-<generation>}, written last and
 * renamed into place atomically, so a checkpoint without one does not exist. Its lines:
 * <pre>
 *   adaps-checkpoint format=2
 *   generation=8
 *   base=7                                                      (format 2 only; see below)
 *   nodes=3
 *   schema=users:1000x8:normal(...):adagrad(...);items:...      (the tables, as nodes compare them)
 *   clocks=0/0:12,0/1:12,1/0:11                                 (node/worker:clock of every worker)
 *   file=... (one line per file, see {@link FileEntry})
 *   crc32c=1a2b3c4d                                             (of every byte before this line)
 * </pre>
 * A <em>full</em> checkpoint's data files hold every row; it is written in format 1, which has no
 * {@code base} line, so that AdaPS from before increments restores it. An <em>increment</em>'s
 * data files hold only the rows that changed since checkpoint {@code base} (the one before it in
 * the directory); it is written in format 2, and restoring it means restoring its base first
 * ({@link CheckpointChain}). A reader refuses a manifest whose checksum does not match, whose
 * format is newer than {@link #FORMAT_VERSION}, or whose lines are malformed, naming the file.
 *
 * @param format     the format version it was written in
 * @param generation its checkpoint's number in the directory
 * @param base       the checkpoint whose rows this one holds the changes of, 0 for a full checkpoint
 * @param nodes      nodes that wrote the checkpoint
 * @param schema     the tables (names, sizes, initializers, rules, sampling) as the handshake describes them
 * @param clocks     every worker's clock at the cut, as {@code node/worker:clock} separated by commas
 *                   (the state files hold them too, with the workers' saved states)
 * @param files      every data and state file of the checkpoint
 */
public record Manifest(int format, long generation, long base, int nodes, String schema, String clocks,
                       List<FileEntry> files) {
    /** The newest format this code reads, the one increments are written in. */
    public static final int FORMAT_VERSION = 2;
    /**
     * The format of full checkpoints' manifests and of every data and state file: the first
     * (an increment's data files differ only in holding fewer rows, state files only in their
     * placement trailer, which older readers do not read).
     */
    public static final int FULL_FORMAT = 1;
    private static final String MAGIC = "adaps-checkpoint format=";

    /** @throws IllegalArgumentException if a base is given in a format without one, or is not older */
    public Manifest {
        if (base < 0 || base >= generation || (format < 2 && base != 0)) {
            throw new IllegalArgumentException("base=" + base + " (expected 0, or 1.." + (generation - 1)
                    + " in format 2 or later; format=" + format + ")");
        }
        files = List.copyOf(files);
    }

    /** The manifest of checkpoint {@code generation}: full ({@code base} 0) in format 1, an increment in format 2. */
    static Manifest of(long generation, long base, int nodes, String schema, String clocks, List<FileEntry> files) {
        return new Manifest(base == 0 ? FULL_FORMAT : FORMAT_VERSION, generation, base, nodes, schema, clocks, files);
    }

    /** Whether its data files hold every row (else only those changed since {@link #base}). */
    public boolean full() {
        return base == 0;
    }

    /** Data files of table {@code table}, by node. */
    public List<FileEntry> dataFiles(int table) {
        List<FileEntry> data = new ArrayList<>();
        for (FileEntry file : files) {
            if (FileEntry.DATA.equals(file.kind()) && file.table() == table) {
                data.add(file);
            }
        }
        return data;
    }

    /** State files, by node. */
    public List<FileEntry> stateFiles() {
        return files.stream().filter(file -> FileEntry.STATE.equals(file.kind())).toList();
    }

    byte[] toBytes() {
        StringBuilder text = new StringBuilder();
        text.append(MAGIC).append(format).append('\n')
                .append("generation=").append(generation).append('\n');
        if (format >= 2) {
            text.append("base=").append(base).append('\n');
        }
        text.append("nodes=").append(nodes).append('\n')
                .append("schema=").append(schema).append('\n')
                .append("clocks=").append(clocks).append('\n');
        for (FileEntry file : files) {
            text.append(file.toLine()).append('\n');
        }
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        byte[] trailer = String.format("crc32c=%08x%n", (int) crc.getValue()).getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[body.length + trailer.length];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(trailer, 0, all, body.length, trailer.length);
        return all;
    }

    /**
     * Reads and checks the manifest {@code file}.
     *
     * @throws CheckpointException naming the file if it is missing, unreadable, corrupted,
     *                             malformed or of a newer format
     */
    public static Manifest read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CheckpointException("manifest=" + file + " (expected a published checkpoint's manifest; it is missing)");
        } catch (IOException e) {
            throw new CheckpointException("manifest=" + file + ": cannot read it: " + e, e);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int trailer = text.lastIndexOf("crc32c=");
        if (trailer < 0 || (trailer > 0 && text.charAt(trailer - 1) != '\n')) {
            throw new CheckpointException("manifest=" + file + " is truncated (expected a last line crc32c=HEX)");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, text.substring(0, trailer).getBytes(StandardCharsets.UTF_8).length);
        String recorded = text.substring(trailer + "crc32c=".length()).trim();
        if (!recorded.equals(String.format("%08x", (int) crc.getValue()))) {
            throw new CheckpointException("manifest=" + file + " is corrupted (checksum crc32c=" + recorded
                    + ", expected " + String.format("%08x", (int) crc.getValue()) + " from its contents)");
        }
        String[] lines = text.substring(0, trailer).split("\n");
        if (lines.length < 5 || !lines[0].startsWith(MAGIC)) {
            throw new CheckpointException("manifest=" + file + " (expected a first line '" + MAGIC + "N')");
        }
        String source = "manifest=" + file;
        int format = (int) number(lines[0].substring(MAGIC.length()), "format", source);
        if (format > FORMAT_VERSION || format < 1) {
            throw new CheckpointException(source + ": format=" + format + " (expected 1.." + FORMAT_VERSION
                    + "; written by a newer AdaPS)");
        }
        int line = 1;
        long generation = number(value(lines[line++], "generation", source), "generation", source);
        long base = format >= 2 ? number(value(lines[line++], "base", source), "base", source) : 0;
        if (generation < 1 || base < 0 || base >= generation || lines.length < line + 3) {
            throw new CheckpointException(source + ": generation=" + generation + " base=" + base + " in " + lines.length
                    + " lines (expected generation >= 1, base 0 or older, then nodes=, schema= and clocks=)");
        }
        int nodes = (int) number(value(lines[line++], "nodes", source), "nodes", source);
        String schema = value(lines[line++], "schema", source);
        String clocks = value(lines[line++], "clocks", source);
        List<FileEntry> files = new ArrayList<>();
        for (; line < lines.length; line++) {
            if (!lines[line].isBlank()) {
                files.add(FileEntry.parse(lines[line], source));
            }
        }
        return new Manifest(format, generation, base, nodes, schema, clocks, files);
    }

    private static String value(String line, String key, String source) {
        if (!line.startsWith(key + "=")) {
            throw new CheckpointException(source + ": line '" + line + "' (expected " + key + "=...)");
        }
        return line.substring(key.length() + 1);
    }

    private static long number(String text, String key, String source) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new CheckpointException(source + ": " + key + "='" + text + "' (expected a number)");
        }
    }
}
