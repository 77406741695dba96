/**
 * Checkpoints on disk: the data and state files a node writes, the manifest that publishes a
 * checkpoint, chains of increments and the row versions that tell what changed, and restoring a
 * node's rows from them. The collective protocol that makes the cut consistent lives with the
 * node ({@code io.adaps.node}); this package knows files and stores.
 */
package io.adaps.checkpoint;
