package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint.SavedWorker;
import io.adaps.api.Table;

/**
 * Node 0's last step of a checkpoint: gathers every node's part file (and the workers' clocks from
 * the state files it lists), checks that the data files
 * hold every row of every table exactly as often as the tables have rows, writes the manifest
 * under a temporary name, forces it and renames it into place atomically (the moment the
 * checkpoint exists), then removes what is no longer needed: the part files, and the checkpoints
 * beyond the newest {@code kept} (manifest first, so a crash while cleaning never leaves a
 * manifest without its files), and leftovers of attempts that did not complete.
 */
public final class CheckpointPublisher {
    private CheckpointPublisher() {
    }

    /**
     * Publishes checkpoint {@code generation} of {@code nodes} nodes in {@code dir}.
     *
     * @return the manifest
     * @throws CheckpointException if a node's part is missing or the rows do not add up
     */
    public static Path publish(Path dir, long generation, int nodes, String schema, List<Table> tables, int kept)
            throws IOException {
        List<FileEntry> files = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            Path part = dir.resolve(CheckpointFiles.part(generation, node));
            List<String> lines;
            try {
                lines = Files.readAllLines(part, StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new CheckpointException("file=" + part + " (expected node " + node + "'s list of files of checkpoint "
                        + generation + "; it did not write it)");
            }
            for (String line : lines) {
                if (!line.isBlank()) {
                    files.add(FileEntry.parse(line, "file=" + part));
                }
            }
        }
        StringJoiner clocks = new StringJoiner(",");
        for (FileEntry file : files) {
            if (FileEntry.STATE.equals(file.kind())) {
                for (SavedWorker worker : StateFile.read(dir, file).workers()) {
                    clocks.add(worker.node() + "/" + worker.worker() + ":" + worker.clock());
                }
            }
        }
        Manifest manifest = new Manifest(Manifest.FORMAT_VERSION, generation, nodes, schema, clocks.toString(), files);
        for (Table table : tables) {
            long rows = manifest.dataFiles(table.id()).stream().mapToLong(FileEntry::rows).sum();
            if (rows != table.rows()) {
                throw new CheckpointException("table '" + table.name() + "': the nodes wrote " + rows + " rows (expected "
                        + table.rows() + ", every row once)");
            }
        }
        Path target = dir.resolve(CheckpointFiles.manifest(generation));
        CheckpointFiles.writeAtomically(target, manifest.toBytes());
        clean(dir, generation, nodes, kept);
        return target;
    }

    private static void clean(Path dir, long generation, int nodes, int kept) throws IOException {
        for (int node = 0; node < nodes; node++) {
            Files.deleteIfExists(dir.resolve(CheckpointFiles.part(generation, node)));
        }
        List<Long> published = CheckpointFiles.publishedGenerations(dir);
        List<Long> keep = published.subList(Math.max(0, published.size() - kept), published.size());
        for (long old : published) {
            if (!keep.contains(old)) {
                Files.deleteIfExists(dir.resolve(CheckpointFiles.manifest(old)));
            }
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path file : entries) {
                long of = CheckpointFiles.generationOf(file.getFileName().toString());
                if (of >= 0 && of < generation && !keep.contains(of)) {
                    Files.deleteIfExists(file);
                }
            }
        }
        CheckpointFiles.forceDirectory(dir);
    }
}
