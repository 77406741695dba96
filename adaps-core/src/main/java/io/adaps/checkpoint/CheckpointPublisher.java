package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint.SavedWorker;
import io.adaps.api.Table;

/**
 * Node 0's last step of a checkpoint: gathers every node's part file (and the workers' clocks from
 * the state files it lists), checks that the data files hold every row of every table exactly as
 * often as the tables have rows (a full checkpoint) or at most that many (an increment), writes
 * the manifest under a temporary name, forces it and renames it into place atomically (the moment
 * the checkpoint exists), then removes what is no longer needed: the part files, and the
 * checkpoints that neither are among the newest {@code kept} nor are in the chain of one that is
 * ({@link CheckpointChain}; manifest first, so a crash while cleaning never leaves a manifest
 * without its files), and leftovers of attempts that did not complete.
 */
public final class CheckpointPublisher {
    private CheckpointPublisher() {
    }

    /**
     * Publishes checkpoint {@code generation} of {@code nodes} nodes in {@code dir}: full if
     * {@code base} is 0, else an increment of checkpoint {@code base}.
     *
     * @return the manifest
     * @throws CheckpointException if a node's part is missing or says other rows, or the rows do not add up
     */
    public static Path publish(Path dir, long generation, long base, int nodes, String schema, List<Table> tables,
                               int kept) throws IOException {
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
            long since = since(lines, part);
            if (since != 0 && since != base) {
                throw new CheckpointException("file=" + part + ": node " + node + " wrote the rows changed since checkpoint "
                        + since + " (expected " + (base == 0 ? "every row it owns" : "every row it owns, or those changed "
                        + "since checkpoint " + base) + ")");
            }
            for (String line : lines.subList(1, lines.size())) {
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
        Manifest manifest = Manifest.of(generation, base, nodes, schema, clocks.toString(), files);
        for (Table table : tables) {
            long rows = manifest.dataFiles(table.id()).stream().mapToLong(FileEntry::rows).sum();
            if (manifest.full() ? rows != table.rows() : rows > table.rows()) {
                throw new CheckpointException("table '" + table.name() + "': the nodes wrote " + rows + " rows (expected "
                        + (manifest.full() ? table.rows() + ", every row once)" : "at most " + table.rows()
                        + ", every changed row once)"));
            }
        }
        Path target = dir.resolve(CheckpointFiles.manifest(generation));
        CheckpointFiles.writeAtomically(target, manifest.toBytes());
        clean(dir, generation, nodes, kept);
        return target;
    }

    /** A part file's first line: what its node's rows are (see {@link CheckpointWriter#write}). */
    private static long since(List<String> lines, Path part) {
        String first = lines.isEmpty() ? "" : lines.get(0);
        String number = first.startsWith(CheckpointWriter.PART_BASE)
                ? first.substring(CheckpointWriter.PART_BASE.length()).trim() : "";
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new CheckpointException("file=" + part + ": first line '" + first + "' (expected "
                    + CheckpointWriter.PART_BASE + "N)", e);
        }
    }

    private static void clean(Path dir, long generation, int nodes, int kept) throws IOException {
        for (int node = 0; node < nodes; node++) {
            Files.deleteIfExists(dir.resolve(CheckpointFiles.part(generation, node)));
        }
        List<Long> published = CheckpointFiles.publishedGenerations(dir);
        Set<Long> keep = new HashSet<>();
        for (long newest : published.subList(Math.max(0, published.size() - kept), published.size())) {
            keep.add(newest);
            try {
                for (Manifest needed : CheckpointChain.read(dir, dir.resolve(CheckpointFiles.manifest(newest)))) {
                    keep.add(needed.generation());
                }
            } catch (CheckpointException e) {
                // A broken chain cannot be restored; what is left of it goes when it is no longer among the newest.
            }
        }
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
