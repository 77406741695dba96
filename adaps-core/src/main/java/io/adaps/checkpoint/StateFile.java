package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint.SavedWorker;

/**
 * One node's workers at a checkpoint: each one's id, clock and the state the application saved
 * for it ({@link io.adaps.api.Worker#checkpointState}). Little-endian:
 * <pre>
 *   0          8            12         16          20
 *   | "ADPSSTAT" | format u32 | node u32 | workers u32 |                  header, 20 bytes
 *   | worker u32 | clock i64 | length i32 (-1: saved nothing) | length bytes |   per worker
 * </pre>
 * Size and CRC32C are in the manifest.
 */
final class StateFile {
    static final long MAGIC = 0x5441545353504441L; // "ADPSSTAT" read little-endian
    private static final int HEADER_BYTES = 20;

    private StateFile() {
    }

    static byte[] encode(int node, List<SavedWorker> workers) {
        int bytes = HEADER_BYTES;
        for (SavedWorker worker : workers) {
            bytes += 16 + (worker.state() == null ? 0 : worker.state().length);
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
        return buffer.array();
    }

    /**
     * Reads the state file {@code entry} from {@code dir}, checked against the manifest.
     *
     * @throws CheckpointException naming the file if it is missing, truncated, corrupted or malformed
     */
    static List<SavedWorker> read(Path dir, FileEntry entry) {
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
            return workers;
        } catch (RuntimeException e) {
            if (e instanceof CheckpointException checkpoint) {
                throw checkpoint;
            }
            throw new CheckpointException(name + " is malformed: " + e, e);
        }
    }
}
