package io.adaps.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
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
 * of now, with their values and rule state as saved. An increment is restored with its chain
 * ({@link CheckpointChain}): the full checkpoint first, then each increment in order, a later
 * checkpoint's rows overriding earlier ones. Everything is checked before a node starts:
 * {@link #open} refuses a missing or corrupted manifest anywhere in the chain, a newer format,
 * other tables, and files that are missing or of the wrong size; {@link #load} refuses a file
 * whose checksum, header or rows are wrong, a row that appears twice in one checkpoint, and a row
 * missing from the full one. The caller discards the stores if anything throws, so a refused
 * restore changes nothing.
 */
public final class CheckpointRestorer {
    private final Path dir;
    /** The chain of the newest checkpoint: its full checkpoint first, the newest last. */
    private final List<Manifest> chain;
    /** The newest checkpoint's state files, by node: its workers and its placement. */
    private final List<NodeState> states;

    private CheckpointRestorer(Path dir, List<Manifest> chain, List<NodeState> states) {
        this.dir = dir;
        this.chain = chain;
        this.states = states;
    }

    /**
     * Opens the newest checkpoint in {@code dir}, with its chain, for tables described by {@code schema}.
     *
     * @throws CheckpointException naming the directory, file or table that is not as expected
     */
    public static CheckpointRestorer open(Path dir, String schema, List<Table> tables) {
        if (!Files.isDirectory(dir)) {
            throw new CheckpointException("restoreFrom=" + dir + " (expected a directory holding a checkpoint)");
        }
        Path newest = CheckpointFiles.latestManifest(dir);
        if (newest == null) {
            throw new CheckpointException("restoreFrom=" + dir + " (expected a checkpoint: no MANIFEST-* in it, so no "
                    + "checkpoint there completed)");
        }
        List<Manifest> chain = CheckpointChain.read(dir, newest);
        for (Manifest manifest : chain) {
            Path manifestFile = dir.resolve(CheckpointFiles.manifest(manifest.generation()));
            if (!manifest.schema().equals(schema)) {
                throw new CheckpointException("manifest=" + manifestFile + ": the checkpoint's tables differ from those "
                        + "declared: " + firstDifference(manifest.schema(), schema));
            }
            for (Table table : tables) {
                long rows = manifest.dataFiles(table.id()).stream().mapToLong(FileEntry::rows).sum();
                if (manifest.full() ? rows != table.rows() : rows > table.rows()) {
                    throw new CheckpointException("manifest=" + manifestFile + ": table '" + table.name() + "' has " + rows
                            + " rows in its files (expected " + (manifest.full() ? "" : "at most ") + table.rows() + ")");
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
        }
        List<NodeState> states = new ArrayList<>();
        for (FileEntry file : chain.get(chain.size() - 1).stateFiles()) {
            states.add(StateFile.read(dir, file));
        }
        return new CheckpointRestorer(dir, chain, states);
    }

    /**
     * Installs into {@code store} every row of {@code table} for which {@code here} holds (the rows
     * this node is home of, or those it owned at the cut, see {@link #placement}), from whichever
     * files of the chain hold it (the newest checkpoint that does), as an owned row with its saved
     * value and rule state.
     *
     * @throws CheckpointException naming the file or table if a file is corrupted or a row is
     *                             missing from the full checkpoint or repeated in one checkpoint
     */
    public void load(Table table, TableStore store, LongPredicate here) {
        long expected = 0;
        for (long row = 0; row < table.rows(); row++) {
            if (here.test(row)) {
                expected++;
            }
        }
        for (Manifest manifest : chain) {
            BitSet read = new BitSet();
            for (FileEntry file : manifest.dataFiles(table.id())) {
                DataFile.read(dir, file, table, store.stride(), (row, floats) -> {
                    if (!here.test(row)) {
                        return;
                    }
                    if (read.get((int) row)) {
                        throw new CheckpointException("file=" + dir.resolve(file.name()) + " holds row=" + row
                                + " of table '" + table.name() + "', which another file of checkpoint "
                                + manifest.generation() + " holds too (expected every row once)");
                    }
                    read.set((int) row);
                    if (store.holds(row)) { // from an older checkpoint of the chain: this one's is newer
                        store.takeOut(row, null, 0);
                    }
                    store.install(row, SlotKind.OWNED, floats, 0);
                });
            }
            if (manifest.full() && read.cardinality() != expected) {
                throw new CheckpointException("manifest=" + dir.resolve(CheckpointFiles.manifest(manifest.generation()))
                        + ": table '" + table.name() + "' restored " + read.cardinality() + " rows here (expected "
                        + expected + ", the rows placed on this node)");
            }
        }
    }

    /**
     * Where the rows were owned at the newest checkpoint's cut, if a cluster of {@code nodes} nodes
     * partitioned by {@code partitioning} can put them there: the checkpoint was written by as many
     * nodes with the same partitioning, and saved its placement. {@code null} otherwise.
     */
    public Placement placement(int nodes, String partitioning, int tables) {
        if (chain.get(chain.size() - 1).nodes() != nodes || states.size() != nodes) {
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
     * The workers of every node that wrote the newest checkpoint, with what they saved;
     * {@code placed}: whether this node starts with the placement of the cut.
     */
    public RestoredCheckpoint restored(boolean placed) {
        Manifest newest = chain.get(chain.size() - 1);
        List<SavedWorker> workers = new ArrayList<>();
        for (NodeState state : states) {
            workers.addAll(state.workers());
        }
        return new RestoredCheckpoint(dir.resolve(CheckpointFiles.manifest(newest.generation())), newest.generation(),
                newest.nodes(), workers, placed);
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
