package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import io.adaps.api.CheckpointException;
import io.adaps.api.Table;

/**
 * The rows of one table that one node owned at a checkpoint, with their values and update-rule
 * state, bit for bit: every one (a full checkpoint), or those changed since the checkpoint's base
 * (an increment). Little-endian:
 * <pre>
 *   0        8         12        16        20        24          32
 *   +--------+---------+---------+---------+---------+-----------+
 *   | "ADPSROWS" | format u32 | table u32 | valueLength u32 | stride u32 | rows u64 |   header, 32 bytes
 *   +--------+---------+---------+---------+---------+-----------+
 *   | row u32 | stride x f32 (value, then rule state) |            one record per row, row ids ascending
 *   ...
 * </pre>
 * {@code rows} counts the records in the file; {@code format} is 1 in full checkpoints and
 * increments alike.
 * {@code stride} is the value length plus the rule's state length (Adagrad: twice the value
 * length). Floats are stored as their raw bits, so NaNs and signed zeros survive. The file's CRC32C
 * and size are in the manifest, not in the file: a reader checks both.
 */
final class DataFile {
    static final long MAGIC = 0x53574F5253504441L; // "ADPSROWS" read little-endian
    static final int HEADER_BYTES = 32;
    private static final int BUFFER_BYTES = 1 << 20;

    private DataFile() {
    }

    /** Receives the rows a reader accepts. */
    interface RowSink {
        /** Row {@code row}: its value and rule state at {@code floats[0 .. stride)}. */
        void accept(long row, float[] floats);
    }

    /** Writes the rows of {@code rows} to {@code file} (created or truncated) and forces it to the device. */
    static FileEntry write(Path file, RowSnapshot rows, int node) throws IOException {
        Table table = rows.table();
        int stride = rows.stride();
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(BUFFER_BYTES, HEADER_BYTES + 4 + 4 * stride))
                .order(ByteOrder.LITTLE_ENDIAN);
        FloatBuffer view = floats(buffer);
        float[] floats = new float[stride];
        long written = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            buffer.putLong(MAGIC).putInt(Manifest.FULL_FORMAT).putInt(table.id()).putInt(table.valueLength())
                    .putInt(stride).putLong(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                if (buffer.remaining() < 4 + 4 * stride) {
                    written += flush(channel, buffer, crc);
                }
                rows.copy(i, floats);
                int at = buffer.position();
                buffer.putInt((int) rows.row(i));
                view.put((at + 4) >> 2, floats);
                buffer.position(at + 4 + 4 * stride);
            }
            written += flush(channel, buffer, crc);
            channel.force(true);
        }
        return new FileEntry(file.getFileName().toString(), FileEntry.DATA, table.id(), node, rows.size(), written,
                (int) crc.getValue());
    }

    /**
     * The whole of {@code buffer} as floats in its byte order, for bulk copies of a row's floats
     * (raw bits, as {@code floatToRawIntBits} would write them). Every record is a multiple of 4
     * bytes and the buffer is compacted to its start, so a row's floats always begin at a byte
     * index that is a multiple of 4: float index = byte index / 4.
     */
    private static FloatBuffer floats(ByteBuffer buffer) {
        return buffer.duplicate().clear().order(buffer.order()).asFloatBuffer();
    }

    private static long flush(FileChannel channel, ByteBuffer buffer, CRC32C crc) throws IOException {
        buffer.flip();
        crc.update(buffer.duplicate());
        long bytes = buffer.remaining();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
        return bytes;
    }

    /**
     * Reads {@code entry} from {@code dir}, checking it against the manifest and {@code table},
     * and hands every row to {@code sink} as it goes; the checksum is checked at the end, so a
     * caller must discard what it received if this throws.
     *
     * @throws CheckpointException naming the file if it is missing, truncated, longer than
     *                             recorded, corrupted, or of another table's shape
     */
    static void read(Path dir, FileEntry entry, Table table, int stride, RowSink sink) {
        Path file = dir.resolve(entry.name());
        String name = "file=" + file + " (table '" + table.name() + "')";
        try {
            long size = Files.size(file);
            if (size != entry.size()) {
                throw new CheckpointException(name + " has " + size + " bytes (expected " + entry.size()
                        + " as the manifest records; " + (size < entry.size() ? "truncated" : "longer") + ")");
            }
            CRC32C crc = new CRC32C();
            ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(BUFFER_BYTES, HEADER_BYTES + 4 + 4 * stride))
                    .order(ByteOrder.LITTLE_ENDIAN);
            buffer.limit(0); // in read mode, nothing readable yet
            FloatBuffer view = floats(buffer);
            float[] floats = new float[stride];
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                fill(channel, buffer, crc, HEADER_BYTES, name);
                long magic = buffer.getLong();
                int format = buffer.getInt();
                int tableId = buffer.getInt();
                int valueLength = buffer.getInt();
                int fileStride = buffer.getInt();
                long rows = buffer.getLong();
                if (magic != MAGIC || format != Manifest.FULL_FORMAT || tableId != table.id()
                        || valueLength != table.valueLength() || fileStride != stride || rows != entry.rows()
                        || size != HEADER_BYTES + rows * (4L + 4L * stride)) {
                    throw new CheckpointException(name + " has header magic=" + Long.toHexString(magic) + " format="
                            + format + " table=" + tableId + " valueLength=" + valueLength + " stride=" + fileStride
                            + " rows=" + rows + " (expected table=" + table.id() + " valueLength=" + table.valueLength()
                            + " stride=" + stride + " rows=" + entry.rows() + " in " + size + " bytes)");
                }
                long previous = -1;
                for (long i = 0; i < rows; i++) {
                    fill(channel, buffer, crc, 4 + 4 * stride, name);
                    long row = buffer.getInt() & 0xFFFF_FFFFL;
                    if (row <= previous || row >= table.rows()) {
                        throw new CheckpointException(name + " holds row=" + row + " after row=" + previous + " (expected "
                                + (previous + 1) + ".." + (table.rows() - 1) + ", ascending; the file is corrupted)");
                    }
                    previous = row;
                    int at = buffer.position();
                    view.get(at >> 2, floats);
                    buffer.position(at + 4 * stride);
                    sink.accept(row, floats);
                }
            }
            if ((int) crc.getValue() != entry.crc()) {
                throw new CheckpointException(name + " is corrupted (crc32c=" + String.format("%08x", (int) crc.getValue())
                        + ", expected " + String.format("%08x", entry.crc()) + " as the manifest records)");
            }
        } catch (IOException e) {
            throw new CheckpointException(name + ": cannot read it: " + e, e);
        }
    }

    /**
     * Makes at least {@code bytes} readable in {@code buffer} (in read mode), reading more from the
     * channel and adding what it reads to the checksum.
     */
    private static void fill(FileChannel channel, ByteBuffer buffer, CRC32C crc, int bytes, String name)
            throws IOException {
        if (buffer.remaining() >= bytes) {
            return;
        }
        buffer.compact();
        int start = buffer.position();
        while (buffer.position() < bytes) {
            if (channel.read(buffer) < 0) {
                throw new CheckpointException(name + " ends early (truncated)");
            }
        }
        ByteBuffer added = buffer.duplicate();
        added.flip().position(start);
        crc.update(added);
        buffer.flip();
    }
}
