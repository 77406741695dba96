package io.adaps.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.Worker;

/**
 * The examples' checkpoints (the {@code --checkpoint-dir}, {@code --checkpoint-every} and
 * {@code --resume} options): a checkpoint after every N-th epoch and after the last, taken at the
 * epoch's end, where every node's training threads have finished and waited for their updates;
 * the epoch travels in a bookkeeping worker's saved state ({@code epoch=N}), so that a resumed run
 * starts with the next epoch. The files are written in the background while the next epoch
 * trains ({@link AdaPS#checkpointAsync}); the run waits for the last one before it ends.
 */
public final class Checkpointing {
    private static final String EPOCH = "epoch=";

    private final Path dir;
    private final int every;
    private final boolean resume;
    private CheckpointTicket pending;
    /** With checkpoints: the worker whose saved state is the epoch. */
    private Worker progress;

    /**
     * @param dir    where checkpoints go, or {@code null} for none
     * @param every  a checkpoint after every {@code every}-th epoch (and after the last)
     * @param resume start from the newest checkpoint in {@code dir}, if it holds one
     */
    public Checkpointing(Path dir, int every, boolean resume) {
        this.dir = dir;
        this.every = every;
        this.resume = resume;
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

    /** {@code builder}, restoring from the checkpoint directory if this run {@link #resumes()}. */
    public AdaPS.Builder configure(AdaPS.Builder builder) {
        return resumes() ? builder.restoreFrom(dir) : builder;
    }

    /**
     * Starts the run on {@code node}: with checkpoints, makes the bookkeeping worker that saves the
     * epoch (on the calling thread, which must make the later calls), and returns the last epoch
     * the restored checkpoint had completed; 0 for a fresh start.
     */
    public int begin(AdaPS node) {
        if (dir == null) {
            return 0;
        }
        progress = node.unclockedWorker();
        return progress.restoredState().map(state -> {
            String text = new String(state, StandardCharsets.UTF_8);
            if (!text.startsWith(EPOCH)) {
                throw new IllegalStateException("restored state '" + text + "' (expected " + EPOCH + "N)");
            }
            return Integer.parseInt(text.substring(EPOCH.length()));
        }).orElse(0);
    }

    /**
     * At the end of epoch {@code epoch} of {@code epochs}, once every node's training threads are
     * done with it: records it in the saved state and takes a checkpoint if one is due.
     * Collective: every node calls it at the same epoch.
     */
    public void afterEpoch(AdaPS node, int epoch, int epochs, PrintWriter out) {
        if (dir == null) {
            return;
        }
        progress.checkpointState((EPOCH + epoch).getBytes(StandardCharsets.UTF_8));
        if (epoch % every != 0 && epoch != epochs) {
            return;
        }
        report(node, awaitPending(), out);
        pending = node.checkpointAsync(dir);
        if (node.nodeId() == 0) {
            out.printf(Locale.ROOT, "checkpoint after epoch %d: training paused %.1f ms; written in the background%n",
                    epoch, pending.pause().toNanos() / 1e6);
            out.flush();
        }
    }

    /** Waits for the last checkpoint's files; call it before the node closes. */
    public void finish(AdaPS node, PrintWriter out) {
        report(node, awaitPending(), out);
    }

    private CheckpointResult awaitPending() {
        CheckpointResult done = pending == null ? null : pending.await();
        pending = null;
        return done;
    }

    private static void report(AdaPS node, CheckpointResult done, PrintWriter out) {
        if (done != null && node.nodeId() == 0) {
            out.printf(Locale.ROOT, "checkpoint %d durable: %s, %.1f ms paused, %.1f ms in all, %d bytes from node 0%n",
                    done.generation(), done.manifest(), done.pause().toNanos() / 1e6, done.duration().toNanos() / 1e6,
                    done.bytesWritten());
            out.flush();
        }
    }
}
