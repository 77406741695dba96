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
import java.util.zip.CRC32C;

import io.adaps.api.RestoredCheckpoint.SavedWorker;
import io.adaps.api.Table;
import io.adaps.store.TableStore;

/**
 * Writes one node's part of a checkpoint: a data file per table with the rows the node owns
 * ({@link DataFile}), a state file with its workers ({@link StateFile}), each under a temporary
 * name, forced to the device and renamed; then the part file that lists them for node 0, which
 * puts them into the manifest ({@link CheckpointPublisher}). Rows must not change meanwhile: the
 * node's checkpoint protocol holds them still.
 */
public final class CheckpointWriter {
    private CheckpointWriter() {
    }

    /**
     * Writes node {@code node}'s files of checkpoint {@code generation} into {@code dir}.
     *
     * @return the bytes of its data and state files
     */
    public static long write(Path dir, long generation, int node, List<Table> tables, TableStore[] stores,
                             List<SavedWorker> workers) throws IOException {
        List<FileEntry> entries = new ArrayList<>();
        // A part left by an earlier attempt at this generation must not stand for this one's.
        Files.deleteIfExists(dir.resolve(CheckpointFiles.part(generation, node)));
        for (Table table : tables) {
            Path file = dir.resolve(CheckpointFiles.data(generation, table.id(), node));
            Path tmp = tmp(file);
            FileEntry entry = DataFile.write(tmp, table, stores[table.id()], node);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            entries.add(new FileEntry(file.getFileName().toString(), FileEntry.DATA, entry.table(), node, entry.rows(),
                    entry.size(), entry.crc()));
        }
        byte[] state = StateFile.encode(node, workers);
        Path stateFile = dir.resolve(CheckpointFiles.state(generation, node));
        Path tmp = tmp(stateFile);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(state);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        CRC32C crc = new CRC32C();
        crc.update(state);
        entries.add(new FileEntry(stateFile.getFileName().toString(), FileEntry.STATE, -1, node, workers.size(),
                state.length, (int) crc.getValue()));
        StringBuilder part = new StringBuilder();
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
