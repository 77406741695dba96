/**
 * Microbenchmarks of remote access over loopback: a two-node cluster in one JVM on the real Netty
 * transport, against the same bytes moved by plain Netty request/response.
 */
package io.adaps.bench.remote;
