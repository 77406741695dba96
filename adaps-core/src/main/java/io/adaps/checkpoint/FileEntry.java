package io.adaps.checkpoint;

import java.util.HashMap;
import java.util.Map;

import io.adaps.api.CheckpointException;

/**
 * One file of a checkpoint as its manifest lists it: one line of space-separated
 * {@code key=value} pairs, e.g.
 * <pre>
 *   file=g00000007-t0-n1.data kind=data table=0 node=1 rows=5000 size=660032 crc32c=8f3a0c11
 *   file=g00000007-n1.state kind=state table=-1 node=1 rows=2 size=84 crc32c=0b7e22d4
 * </pre>
 *
 * @param name  the file's name in the checkpoint's directory
 * @param kind  {@link #DATA} (a table's rows) or {@link #STATE} (a node's workers)
 * @param table the table's id for data files, -1 for state files
 * @param node  the node that wrote it
 * @param rows  rows (data) or workers (state) it holds
 * @param size  its length in bytes
 * @param crc   the CRC32C of all its bytes
 */
public record FileEntry(String name, String kind, int table, int node, long rows, long size, int crc) {
    public static final String DATA = "data";
    public static final String STATE = "state";

    String toLine() {
        return "file=" + name + " kind=" + kind + " table=" + table + " node=" + node + " rows=" + rows + " size=" + size
                + " crc32c=" + String.format("%08x", crc);
    }

    /**
     * Parses a line written by {@link #toLine()}.
     *
     * @throws CheckpointException naming {@code source} if the line is malformed
     */
    static FileEntry parse(String line, String source) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : line.trim().split(" +")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw malformed(line, source);
            }
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        try {
            String name = fields.get("file");
            String kind = fields.get("kind");
            if (name == null || name.contains("/") || name.contains("\\") || !(DATA.equals(kind) || STATE.equals(kind))) {
                throw malformed(line, source);
            }
            return new FileEntry(name, kind, Integer.parseInt(fields.get("table")), Integer.parseInt(fields.get("node")),
                    Long.parseLong(fields.get("rows")), Long.parseLong(fields.get("size")),
                    Integer.parseUnsignedInt(fields.get("crc32c"), 16));
        } catch (NumberFormatException | NullPointerException e) {
            throw malformed(line, source);
        }
    }

    private static CheckpointException malformed(String line, String source) {
        return new CheckpointException(source + ": malformed file line '" + line + "' (expected file=NAME kind=data|state "
                + "table=T node=N rows=R size=S crc32c=HEX)");
    }
}
