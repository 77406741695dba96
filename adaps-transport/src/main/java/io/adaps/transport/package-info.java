/**
 * The network transport between the nodes of a cluster (Netty: framing, codecs, batching per
 * destination, heartbeats). This module is where multi-node clusters will plug in; a node built
 * from {@code adaps-core} alone is a cluster of one and needs nothing from here yet.
 */
package io.adaps.transport;
