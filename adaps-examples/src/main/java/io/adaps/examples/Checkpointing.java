package io.adaps.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.Worker;

/**
 * The examples' checkpoints (the {@code --checkpoint-dir}, {@code --checkpoint-every} and
 * {@code --resume} options). Every few epochs ({@link CheckpointInterval#epochs()}) a checkpoint
 * is taken at the epoch's end, where every node's training threads have finished and waited for
 * their updates, and written in the background while the next epoch trains
 * ({@link AdaPS#checkpointAsync}); with a period instead, the library takes one at the first
 * barrier after each period ({@link AdaPS.Builder#checkpointEvery}), mid-epoch at the cuts of
 * {@link EpochCuts}. Either way a checkpoint follows the last epoch, and the run waits for it
 * before it ends.
 *
 * <p>Where training stands ({@link EpochProgress}) travels in a bookkeeping worker's saved state,
 * which is kept up to date before every barrier of the run, since a periodic checkpoint may be
 * taken at any of them. A resumed run continues with the epoch after the one saved, or within the
 * epoch, with the step after the cut.
 */
public final class Checkpointing {
    private final Path dir;
    private final CheckpointInterval every;
    private final int fullEvery;
    private final boolean resume;
    /** With checkpoints: the worker whose saved state is the progress. */
    private Worker progress;
    /** Steps per epoch of this run ({@link #start}). */
    private int steps;
    private CheckpointTicket pending;
    /** The newest checkpoint node 0 has reported. */
    private long reported;

    /** Full checkpoints only. */
    public Checkpointing(Path dir, CheckpointInterval every, boolean resume) {
        this(dir, every, 1, resume);
    }

    /**
     * @param dir       where checkpoints go, or {@code null} for none
     * @param every     how often
     * @param fullEvery every {@code fullEvery}-th checkpoint is full, those between hold the rows
     *                  changed since the one before ({@link AdaPS.Builder#fullCheckpointEvery})
     * @param resume    start from the newest checkpoint in {@code dir}, if it holds one
     */
    public Checkpointing(Path dir, CheckpointInterval every, int fullEvery, boolean resume) {
        this.dir = dir;
        this.every = Checks.checkNotNull(every, "every");
        this.fullEvery = fullEvery;
        this.resume = resume;
    }

    /** No checkpoints. */
    public static Checkpointing none() {
        return new Checkpointing(null, CheckpointInterval.everyEpochs(1), false);
    }

    /** Whether this run starts from a checkpoint: {@code --resume} and a published one in the directory. */
    public boolean resumes() {
        if (!resume || dir == null || !Files.isDirectory(dir)) {
            return false;
        }
        try (DirectoryStream<Path> manifests = Files.newDirectoryStream(dir, "MANIFEST-*")) {
            return manifests.iterator().hasNext();
        } catch (IOException e) {
            throw new UncheckedIOException("--checkpoint-dir=" + dir + ": cannot list it", e);
        }
    }

    /** Whether checkpoints are taken mid-epoch: into a directory, with a period. */
    public boolean midEpoch() {
        return dir != null && every.midEpoch();
    }

    /**
     * {@code builder} with periodic checkpoints if they are asked for, restoring from the
     * checkpoint directory if this run {@link #resumes()}.
     */
    public AdaPS.Builder configure(AdaPS.Builder builder) {
        if (dir != null) {
            builder.fullCheckpointEvery(fullEvery);
        }
        if (midEpoch()) {
            builder.checkpointEvery(dir, every.period());
        }
        return resumes() ? builder.restoreFrom(dir) : builder;
    }

    /**
     * With checkpoints, makes the worker whose saved state is the progress, on the calling thread,
     * which must make the later calls. Call it on a node just built: before any other worker, so
     * that it has the same id in every run (a resumed run finds every node's progress by it), and
     * before any barrier, since it saves a restored node's progress again at once.
     */
    public void begin(AdaPS node) {
        if (dir == null) {
            return;
        }
        progress = node.unclockedWorker();
        // On another number of nodes a node may have saved nothing; then the epoch is node 0's
        // (and start() refuses to continue mid-epoch).
        node.restoredFrom().flatMap(restored -> restored.state(node.nodeId(), progress.id())
                .or(() -> restored.state(0, progress.id()))).ifPresent(progress::checkpointState);
    }

    /**
     * Where this node's run starts, in epochs of {@code steps} steps: the start of epoch 1, or
     * where the restored checkpoint was taken. Node 0 prints where it resumed.
     *
     * @throws IllegalStateException naming the checkpoint, if a node's saved progress is not one
     *                               or differs from node 0's, or if it was taken mid-epoch with
     *                               other steps per epoch or on another number of nodes
     */
    public EpochProgress start(AdaPS node, int steps, PrintWriter out) {
        this.steps = steps;
        Optional<RestoredCheckpoint> restored = progress == null ? Optional.empty() : node.restoredFrom();
        if (restored.isEmpty()) {
            return EpochProgress.start(1, steps);
        }
        RestoredCheckpoint checkpoint = restored.get();
        Optional<EpochProgress> saved = saved(checkpoint, node.nodeId()).or(() -> saved(checkpoint, 0));
        if (saved.isEmpty()) {
            // Taken before any progress was saved: nothing is trained yet.
            return EpochProgress.start(1, steps);
        }
        EpochProgress at = saved.get();
        if (!at.begun()) {
            if (node.nodeId() == 0 && at.epoch() > 1) {
                out.printf(Locale.ROOT, "resumed from %s after epoch %d%n", checkpoint.manifest(), at.epoch() - 1);
            }
            return EpochProgress.start(at.epoch(), steps);
        }
        String where = "checkpoint " + checkpoint.manifest() + " was taken in epoch " + at.epoch() + " after step "
                + at.step() + " of " + at.steps();
        if (checkpoint.nodes() != node.clusterSize()) {
            throw new IllegalStateException(where + " on " + checkpoint.nodes() + " node(s) (expected as many to "
                    + "continue mid-epoch, not " + node.clusterSize() + ")");
        }
        if (at.steps() != steps) {
            throw new IllegalStateException(where + " (expected " + steps + " steps per epoch, as this run has: give "
                    + "the options of the run that took it)");
        }
        long clusterDone = 0;
        for (int other = 0; other < checkpoint.nodes(); other++) {
            EpochProgress theirs = saved(checkpoint, other).orElse(null);
            if (theirs == null || theirs.epoch() != at.epoch() || theirs.step() != at.step()) {
                throw new IllegalStateException(where + " by node " + node.nodeId() + ", but node " + other
                        + " saved " + theirs + " (expected the same epoch and step)");
            }
            clusterDone += theirs.done();
        }
        if (node.nodeId() == 0) {
            out.printf(Locale.ROOT, "resumed from %s in epoch %d after step %d of %d (entries=%d of the epoch "
                    + "trained before)%n", checkpoint.manifest(), at.epoch(), at.step(), at.steps(), clusterDone);
        }
        return at;
    }

    private Optional<EpochProgress> saved(RestoredCheckpoint checkpoint, int node) {
        return checkpoint.state(node, progress.id()).map(state -> {
            try {
                return EpochProgress.parse(state);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("checkpoint " + checkpoint.manifest() + ", node " + node + ": "
                        + e.getMessage(), e);
            }
        });
    }

    /** Saves where this node's training stands, for the next checkpoints. */
    public void save(EpochProgress at) {
        if (progress != null) {
            progress.checkpointState(at.toBytes());
        }
    }

    /**
     * After epoch {@code epoch} of {@code epochs} is reported: saves that the next one starts, and
     * takes a checkpoint if one is due before the last epoch (after it, {@link #finish} does).
     * Collective: every node calls it at the same epoch.
     */
    public void afterEpoch(AdaPS node, int epoch, int epochs, PrintWriter out) {
        if (dir == null) {
            return;
        }
        save(EpochProgress.start(epoch + 1, steps));
        boolean due = epoch < epochs && every.dueAfter(epoch);
        if (due) {
            awaitPending();
        }
        reportNewest(node, out);
        if (due) {
            pending = node.checkpointAsync(dir);
            if (node.nodeId() == 0) {
                out.printf(Locale.ROOT, "checkpoint after epoch %d: training paused %.1f ms; written in the "
                        + "background%n", epoch, pending.pause().toNanos() / 1e6);
                out.flush();
            }
        }
    }

    /**
     * Takes the checkpoint after the last epoch and waits for it; call it after the run's last
     * barrier and before the node closes. That barrier may have started a periodic checkpoint,
     * and this one waits for it: the node closes with none being written. Collective: every node
     * calls it.
     */
    public void finish(AdaPS node, PrintWriter out) {
        if (dir == null) {
            return;
        }
        awaitPending();
        reportNewest(node, out);
        node.checkpoint(dir);
        reportNewest(node, out);
    }

    private void awaitPending() {
        if (pending != null) {
            pending.await();
            pending = null;
        }
    }

    /** Node 0 reports the newest checkpoint completed, explicit or periodic, unless it did already. */
    private void reportNewest(AdaPS node, PrintWriter out) {
        Optional<CheckpointResult> newest = node.lastCheckpoint();
        if (node.nodeId() == 0 && newest.isPresent() && newest.get().generation() > reported) {
            CheckpointResult done = newest.get();
            reported = done.generation();
            out.printf(Locale.ROOT, "checkpoint %d durable: %s, %.1f ms paused, %.1f ms in all, %d bytes from node 0%n",
                    done.generation(), done.manifest(), done.pause().toNanos() / 1e6, done.duration().toNanos() / 1e6,
                    done.bytesWritten());
            out.flush();
        }
    }
}
