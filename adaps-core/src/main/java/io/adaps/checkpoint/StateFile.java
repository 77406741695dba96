package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint.SavedWorker;

/**
 * One node's bookkeeping at a checkpoint: its workers, each one's id, clock and the state the
 * application saved for it ({@link io.adaps.api.Worker#checkpointState}), and, as a trailer, the
 * node's placement: the rows it owned that are homed elsewhere, with the partitioning that says
 * where home is. Little-endian:
 * <pre>
 *   0          8            12         16          20
 *   | "ADPSSTAT" | format u32 | node u32 | workers u32 |                  header, 20 bytes
 *   | worker u32 | clock i64 | length i32 (-1: saved nothing) | length bytes |   per worker
 *   | partitioning length u32 | partitioning UTF-8 | tables u32 |           placement (trailer)
 *   | table u32 | rows u32 | row u32 x rows (ascending) |                   per table
 * </pre>
 * Size and CRC32C are in the manifest. Most rows never leave their home, so the placement is
 * short: only the rows relocated before the cut. It is a trailer of format 1 rather than a new
 * format: older readers stop after the workers (and restore cold), and a file that ends there,
 * written before placements were saved, reads as having none.
 */
final class StateFile {
    static final long MAGIC = 0x5441545353504441L; // "ADPSSTAT" read little-endian
    private static final int HEADER_BYTES = 20;

    private StateFile() {
    }

    static byte[] encode(NodeState state) {
        int node = state.node();
        List<SavedWorker> workers = state.workers();
        int[][] placed = state.placed();
        byte[] partitioningBytes = state.partitioning().getBytes(StandardCharsets.UTF_8);
        int bytes = HEADER_BYTES + 8 + partitioningBytes.length;
        for (SavedWorker worker : workers) {
            bytes += 16 + (worker.state() == null ? 0 : worker.state().length);
        }
        for (int[] rows : placed) {
            bytes += 8 + 4 * rows.length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(MAGIC).putInt(Manifest.FULL_FORMAT).putInt(node).putInt(workers.size());
        for (SavedWorker worker : workers) {
            buffer.putInt(worker.worker()).putLong(worker.clock());
            if (worker.state() == null) {
                buffer.putInt(-1);
            } else {
                buffer.putInt(worker.state().length).put(worker.state());
            }
        }
        buffer.putInt(partitioningBytes.length).put(partitioningBytes).putInt(placed.length);
        for (int table = 0; table < placed.length; table++) {
            buffer.putInt(table).putInt(placed[table].length);
            for (int row : placed[table]) {
                buffer.putInt(row);
            }
        }
        return buffer.array();
    }

    /**
     * Reads the state file {@code entry} from {@code dir}, checked against the manifest.
     *
     * @throws CheckpointException naming the file if it is missing, truncated, corrupted or malformed
     */
    static NodeState read(Path dir, FileEntry entry) {
        Path file = dir.resolve(entry.name());
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CheckpointException("file=" + file + " (node " + entry.node() + "'s workers): cannot read it: " + e, e);
        }
        String name = "file=" + file + " (node " + entry.node() + "'s workers)";
        if (bytes.length != entry.size()) {
            throw new CheckpointException(name + " has " + bytes.length + " bytes (expected " + entry.size()
                    + " as the manifest records; " + (bytes.length < entry.size() ? "truncated" : "longer") + ")");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        if ((int) crc.getValue() != entry.crc()) {
            throw new CheckpointException(name + " is corrupted (crc32c=" + String.format("%08x", (int) crc.getValue())
                    + ", expected " + String.format("%08x", entry.crc()) + " as the manifest records)");
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long magic = buffer.getLong();
            int format = buffer.getInt();
            int node = buffer.getInt();
            int count = buffer.getInt();
            if (magic != MAGIC || format != Manifest.FULL_FORMAT || node != entry.node() || count < 0) {
                throw new CheckpointException(name + " has header magic=" + Long.toHexString(magic) + " format=" + format
                        + " node=" + node + " workers=" + count + " (expected node=" + entry.node() + ")");
            }
            List<SavedWorker> workers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int worker = buffer.getInt();
                long clock = buffer.getLong();
                int length = buffer.getInt();
                byte[] state = null;
                if (length >= 0) {
                    state = new byte[length];
                    buffer.get(state);
                }
                workers.add(new SavedWorker(node, worker, clock, state));
            }
            if (!buffer.hasRemaining()) {
                return new NodeState(node, workers, null, new int[0][]);
            }
            byte[] partitioning = new byte[buffer.getInt()];
            buffer.get(partitioning);
            int[][] placed = new int[buffer.getInt()][];
            for (int table = 0; table < placed.length; table++) {
                if (buffer.getInt() != table) {
                    throw new CheckpointException(name + " is malformed: its placement's table " + table + " is out of order");
                }
                placed[table] = new int[buffer.getInt()];
                for (int i = 0; i < placed[table].length; i++) {
                    placed[table][i] = buffer.getInt();
                }
            }
            return new NodeState(node, workers, new String(partitioning, StandardCharsets.UTF_8), placed);
        } catch (RuntimeException e) {
            if (e instanceof CheckpointException checkpoint) {
                throw checkpoint;
            }
            throw new CheckpointException(name + " is malformed: " + e, e);
        }
    }
}
