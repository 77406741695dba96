package io.adaps.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The checkpoint a node was restored from ({@link AdaPS#restoredFrom()}): where it was, how many
 * nodes wrote it, and what each of their workers saved with {@link Worker#checkpointState}. The
 * application uses it to continue where it was: its data position and epoch, for example. On a
 * cluster of the same size, {@link Worker#restoredState()} is the short way for a worker to get
 * its own.
 */
public final class RestoredCheckpoint {
    /**
     * What one worker saved.
     *
     * @param node   the node it ran on
     * @param worker its id on that node
     * @param clock  its clock at the checkpoint
     * @param state  what it saved, or {@code null} if it saved nothing
     */
    public record SavedWorker(int node, int worker, long clock, byte[] state) {
    }

    private final Path manifest;
    private final long generation;
    private final int nodes;
    private final List<SavedWorker> workers;
    private final boolean placementRestored;

    /** Made by the runtime when it restores a node. */
    public RestoredCheckpoint(Path manifest, long generation, int nodes, List<SavedWorker> workers,
                              boolean placementRestored) {
        this.manifest = manifest;
        this.generation = generation;
        this.nodes = nodes;
        this.workers = List.copyOf(workers);
        this.placementRestored = placementRestored;
    }

    /**
     * Whether this node started with the rows where the checkpoint found them
     * ({@link AdaPS.Builder#restorePlacement}); {@code false}: every row started at its home.
     */
    public boolean placementRestored() {
        return placementRestored;
    }

    /** The manifest restored from. */
    public Path manifest() {
        return manifest;
    }

    /** The checkpoint's generation in its directory. */
    public long generation() {
        return generation;
    }

    /** Nodes of the cluster that wrote it. */
    public int nodes() {
        return nodes;
    }

    /** Every worker of every node that wrote it, by node, then worker id. */
    public List<SavedWorker> workers() {
        return workers;
    }

    /** A copy of what worker {@code worker} of node {@code node} saved, if it saved anything. */
    public Optional<byte[]> state(int node, int worker) {
        for (SavedWorker saved : workers) {
            if (saved.node() == node && saved.worker() == worker && saved.state() != null) {
                return Optional.of(saved.state().clone());
            }
        }
        return Optional.empty();
    }

    /** The clock of worker {@code worker} of node {@code node} at the checkpoint, if it existed. */
    public OptionalLong clock(int node, int worker) {
        for (SavedWorker saved : workers) {
            if (saved.node() == node && saved.worker() == worker) {
                return OptionalLong.of(saved.clock());
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public String toString() {
        return "RestoredCheckpoint[" + manifest + ", generation " + generation + ", " + nodes + " node(s), "
                + workers.size() + " worker(s)]";
    }
}
