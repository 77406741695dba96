/** Checkpoint throughput and pause against a plain sequential write of the same bytes. */
package io.adaps.bench.checkpoint;
