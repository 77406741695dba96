package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

import io.adaps.api.Table;

/**
 * Writes one node's part of a checkpoint: a data file per table with the rows the node owns
 * ({@link DataFile}), a state file with its workers ({@link StateFile}), each under a temporary
 * name, forced to the device and renamed; then the part file that lists them for node 0, which
 * puts them into the manifest ({@link CheckpointPublisher}). The rows come as {@link RowSnapshot}s,
 * copied while the node's checkpoint protocol held them still.
 */
public final class CheckpointWriter {
    /** The first line of a part file: what its node's data files hold (see {@link #write}). */
    static final String PART_BASE = "base=";

    private CheckpointWriter() {
    }

    /**
     * Removes what an earlier attempt at checkpoint {@code generation} left of node {@code node}'s
     * that could be taken for this attempt's: its part file and failure mark. Called before the
     * barrier that starts the attempt's writing, so that node 0 finds only this attempt's.
     */
    public static void clearAttempt(Path dir, long generation, int node) throws IOException {
        Files.deleteIfExists(dir.resolve(CheckpointFiles.part(generation, node)));
        Files.deleteIfExists(dir.resolve(CheckpointFiles.failed(generation, node)));
        if (node == 0) {
            Files.deleteIfExists(dir.resolve(CheckpointFiles.failed(generation)));
        }
    }

    /**
     * Writes node {@code node}'s files of checkpoint {@code generation} into {@code dir}: each
     * table's rows as {@code rows} gives them (a snapshot taken now, or earlier), then the state
     * file with {@code state}, then the part file. The part file's first line, {@code base=}, tells
     * node 0 what the rows are: every row the node owns (0), or those changed since checkpoint
     * {@code since}.
     *
     * @return the bytes of its data and state files
     */
    public static long write(Path dir, long generation, int node, long since, List<Table> tables,
                             IntFunction<RowSnapshot> rows, NodeState state) throws IOException {
        List<FileEntry> entries = new ArrayList<>();
        for (Table table : tables) {
            Path file = dir.resolve(CheckpointFiles.data(generation, table.id(), node));
            Path tmp = tmp(file);
            FileEntry entry = DataFile.write(tmp, rows.apply(table.id()), node);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            entries.add(new FileEntry(file.getFileName().toString(), FileEntry.DATA, entry.table(), node, entry.rows(),
                    entry.size(), entry.crc()));
        }
        byte[] stateBytes = StateFile.encode(state);
        Path stateFile = dir.resolve(CheckpointFiles.state(generation, node));
        Path tmp = tmp(stateFile);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(stateBytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        CRC32C crc = new CRC32C();
        crc.update(stateBytes);
        entries.add(new FileEntry(stateFile.getFileName().toString(), FileEntry.STATE, -1, node, state.workers().size(),
                stateBytes.length, (int) crc.getValue()));
        StringBuilder part = new StringBuilder(PART_BASE).append(since).append('\n');
        long bytes = 0;
        for (FileEntry entry : entries) {
            part.append(entry.toLine()).append('\n');
            bytes += entry.size();
        }
        CheckpointFiles.writeAtomically(dir.resolve(CheckpointFiles.part(generation, node)),
                part.toString().getBytes(StandardCharsets.UTF_8));
        return bytes;
    }

    private static Path tmp(Path file) {
        return file.resolveSibling(file.getFileName() + CheckpointFiles.TMP);
    }
}
