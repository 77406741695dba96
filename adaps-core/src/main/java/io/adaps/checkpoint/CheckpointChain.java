package io.adaps.checkpoint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.adaps.api.CheckpointException;

/**
 * A checkpoint with the ones it builds on: its full checkpoint first, then each increment in
 * order, itself last. Every manifest names its base ({@link Manifest#base()}), so the chain is
 * read backwards from the newest; restoring applies it forwards, later rows overriding earlier
 * ones. Three users, one walk: restore ({@link CheckpointRestorer}), the choice between a full
 * checkpoint and an increment ({@link #baseOfNext}), and retention ({@link CheckpointPublisher}
 * never removes a file a kept checkpoint's chain needs).
 *
 * <pre>
 *   fullEvery = 3:   MANIFEST-1 (full) &lt;- MANIFEST-2 (base=1) &lt;- MANIFEST-3 (base=2)   MANIFEST-4 (full) &lt;- ...
 *                    restoring 3 reads 1, then 2, then 3; the 4th checkpoint starts a new chain
 * </pre>
 */
public final class CheckpointChain {
    private CheckpointChain() {
    }

    /**
     * The chain of the checkpoint whose manifest is {@code newest}, full checkpoint first, every
     * manifest read and checked ({@link Manifest#read}).
     *
     * @throws CheckpointException naming the manifest that is missing, corrupted or not the base
     *                             its successor names
     */
    public static List<Manifest> read(Path dir, Path newest) {
        List<Manifest> chain = new ArrayList<>();
        Manifest manifest = Manifest.read(newest);
        chain.add(manifest);
        while (!manifest.full()) {
            long base = manifest.base();
            Path file = dir.resolve(CheckpointFiles.manifest(base));
            try {
                manifest = Manifest.read(file);
            } catch (CheckpointException e) {
                throw new CheckpointException("checkpoint " + chain.get(chain.size() - 1).generation()
                        + " is an increment of checkpoint " + base + ": " + e.getMessage(), e);
            }
            if (manifest.generation() != base) {
                throw new CheckpointException("manifest=" + file + " holds generation=" + manifest.generation()
                        + " (expected " + base + ", the base its successor names)");
            }
            chain.add(manifest);
        }
        Collections.reverse(chain);
        return chain;
    }

    /**
     * What the next checkpoint in {@code dir} is, for tables described by {@code schema}: an
     * increment of the newest published checkpoint (its generation), or full (0). Full when
     * {@code fullEvery} is 1, when there is no checkpoint yet or it holds other tables, and when
     * the newest's chain holds {@code fullEvery} checkpoints already, so that every
     * {@code fullEvery}-th is full. Every node asks this at the same point with the same files, so
     * all of them decide alike (node 0 checks it in their parts).
     *
     * @throws CheckpointException if the newest's chain is broken (the caller then takes a full one)
     */
    public static long baseOfNext(Path dir, String schema, int fullEvery) {
        Path newest = CheckpointFiles.latestManifest(dir);
        if (fullEvery == 1 || newest == null) {
            return 0;
        }
        List<Manifest> chain = read(dir, newest);
        Manifest last = chain.get(chain.size() - 1);
        return chain.size() < fullEvery && last.schema().equals(schema) ? last.generation() : 0;
    }
}
