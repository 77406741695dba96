/** Microbenchmarks of the node protocol's message encoding and decoding against plain buffers. */
package io.adaps.bench.codec;
