/**
 * Microbenchmarks of relocation (dynamic parameter allocation): the latency of moving rows between
 * nodes with {@code localize}, and the cost of the forwarding hop that a request for a moved row
 * takes when the requester does not know where the row is. Nodes run in one JVM over loopback on
 * the real Netty transport.
 */
package io.adaps.bench.relocation;
