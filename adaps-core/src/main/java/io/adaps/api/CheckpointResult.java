package io.adaps.api;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A complete checkpoint, as {@link AdaPS#checkpoint} reports it to one node.
 *
 * @param manifest     the manifest that publishes it (restore with {@link AdaPS.Builder#restoreFrom}
 *                     on its directory)
 * @param generation   its number in its directory: 1 for the first, then one more each time
 * @param bytesWritten the bytes this node wrote (its data and state files)
 * @param pause        how long this node's training stood still for the cut and the copy of its
 *                     rows ({@link AdaPS#checkpointAsync} returns after it)
 * @param duration     from the call until the checkpoint was durable and published: how long
 *                     {@link AdaPS#checkpoint} stands training still
 */
public record CheckpointResult(Path manifest, long generation, long bytesWritten, Duration pause, Duration duration) {
}
