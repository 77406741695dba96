package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.RestoredCheckpoint.SavedWorker;
import io.adaps.api.Table;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;

/**
 * Restores a node from the newest checkpoint in a directory, onto any number of nodes: the node
 * reads every data file of every table, whichever node wrote it, and installs the rows it is home
 * of now, with their values and rule state as saved. Everything is checked before a node starts:
 * {@link #open} refuses a missing or corrupted manifest, a newer format, other tables and files
 * that are missing or of the wrong size; {@link #load} refuses a file whose checksum, header or
 * rows are wrong, and a row that is missing or appears twice. The caller discards the stores if
 * anything throws, so a refused restore changes nothing.
 */
public final class CheckpointRestorer {
    private final Path dir;
    private final Path manifestFile;
    private final Manifest manifest;
    /** Every writing node's state file, by node. */
    private final List<NodeState> states;

    private CheckpointRestorer(Path dir, Path manifestFile, Manifest manifest, List<NodeState> states) {
        this.dir = dir;
        this.manifestFile = manifestFile;
        this.manifest = manifest;
        this.states = states;
    }

    /**
     * Opens the newest checkpoint in {@code dir} for tables described by {@code schema}.
     *
     * @throws CheckpointException naming the directory, file or table that is not as expected
     */
    public static CheckpointRestorer open(Path dir, String schema, List<Table> tables) {
        if (!Files.isDirectory(dir)) {
            throw new CheckpointException("restoreFrom=" + dir + " (expected a directory holding a checkpoint)");
        }
        Path manifestFile = CheckpointFiles.latestManifest(dir);
        if (manifestFile == null) {
            throw new CheckpointException("restoreFrom=" + dir + " (expected a checkpoint: no MANIFEST-* in it, so no "
                    + "checkpoint there completed)");
        }
        Manifest manifest = Manifest.read(manifestFile);
        if (!manifest.schema().equals(schema)) {
            throw new CheckpointException("manifest=" + manifestFile + ": the checkpoint's tables differ from those "
                    + "declared: " + firstDifference(manifest.schema(), schema));
        }
        for (Table table : tables) {
            long rows = manifest.dataFiles(table.id()).stream().mapToLong(FileEntry::rows).sum();
            if (rows != table.rows()) {
                throw new CheckpointException("manifest=" + manifestFile + ": table '" + table.name() + "' has " + rows
                        + " rows in its files (expected " + table.rows() + ")");
            }
        }
        for (FileEntry file : manifest.files()) {
            Path path = dir.resolve(file.name());
            long size;
            try {
                size = Files.size(path);
            } catch (IOException e) {
                throw new CheckpointException("file=" + path + " (expected a file of checkpoint " + manifest.generation()
                        + " in " + manifestFile.getFileName() + "; it is missing: " + e + ")", e);
            }
            if (size != file.size()) {
                throw new CheckpointException("file=" + path + " has " + size + " bytes (expected " + file.size()
                        + " as the manifest records; " + (size < file.size() ? "truncated" : "longer") + ")");
            }
        }
        List<NodeState> states = new ArrayList<>();
        for (FileEntry file : manifest.stateFiles()) {
            states.add(StateFile.read(dir, file));
        }
        return new CheckpointRestorer(dir, manifestFile, manifest, states);
    }

    /**
     * Installs into {@code store} every row of {@code table} for which {@code here} holds (the rows
     * this node is home of, or those it owned at the cut, see {@link #placement}), from whichever
     * files hold it, as an owned row with its saved value and rule state.
     *
     * @throws CheckpointException naming the file or table if a file is corrupted or a row is missing or repeated
     */
    public void load(Table table, TableStore store, LongPredicate here) {
        long expected = 0;
        for (long row = 0; row < table.rows(); row++) {
            if (here.test(row)) {
                expected++;
            }
        }
        long[] loaded = new long[1];
        for (FileEntry file : manifest.dataFiles(table.id())) {
            DataFile.read(dir, file, table, store.stride(), (row, floats) -> {
                if (!here.test(row)) {
                    return;
                }
                if (store.holds(row)) {
                    throw new CheckpointException("file=" + dir.resolve(file.name()) + " holds row=" + row + " of table '"
                            + table.name() + "', which another file of the checkpoint holds too (expected every row once)");
                }
                store.install(row, SlotKind.OWNED, floats, 0);
                loaded[0]++;
            });
        }
        if (loaded[0] != expected) {
            throw new CheckpointException("manifest=" + manifestFile + ": table '" + table.name() + "' restored "
                    + loaded[0] + " rows here (expected " + expected + ", the rows placed on this node)");
        }
    }

    /**
     * Where the rows were owned at the cut, if a cluster of {@code nodes} nodes partitioned by
     * {@code partitioning} can put them there: the checkpoint was written by as many nodes with the
     * same partitioning, and saved its placement (format 2). {@code null} otherwise.
     */
    public Placement placement(int nodes, String partitioning, int tables) {
        if (manifest.nodes() != nodes || states.size() != nodes) {
            return null;
        }
        for (NodeState state : states) {
            if (!partitioning.equals(state.partitioning())) {
                return null;
            }
        }
        return Placement.of(states, tables);
    }

    /**
     * The workers of every node that wrote the checkpoint, with what they saved; {@code placed}:
     * whether this node starts with the placement of the cut.
     */
    public RestoredCheckpoint restored(boolean placed) {
        List<SavedWorker> workers = new ArrayList<>();
        for (NodeState state : states) {
            workers.addAll(state.workers());
        }
        return new RestoredCheckpoint(manifestFile, manifest.generation(), manifest.nodes(), workers, placed);
    }

    private static String firstDifference(String saved, String declared) {
        String[] a = saved.split(";");
        String[] b = declared.split(";");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String left = i < a.length ? a[i] : "(none)";
            String right = i < b.length ? b[i] : "(none)";
            if (!left.equals(right)) {
                return "table " + i + " saved as '" + left + "', declared as '" + right + "'";
            }
        }
        return "(none)";
    }
}
