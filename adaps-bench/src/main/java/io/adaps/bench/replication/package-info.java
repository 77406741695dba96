/**
 * Microbenchmarks of selective replication: local access to a replica against access to an owned
 * row, and the latency of a synchronization round ({@code waitSync}). Nodes run in one JVM over
 * loopback on the real Netty transport.
 */
package io.adaps.bench.replication;
