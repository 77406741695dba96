/**
 * Checkpoint throughput and pause against a plain sequential write of the same bytes, and the size
 * of incremental checkpoints of a matrix-factorization model.
 */
package io.adaps.bench.checkpoint;
