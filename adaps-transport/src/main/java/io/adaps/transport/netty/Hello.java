package io.adaps.transport.netty;

/**
 * What a connecting node says about itself in its HANDSHAKE frame.
 *
 * @param nodeId    the connecting node's id
 * @param clusterId its cluster id
 * @param schema    its table schema
 */
record Hello(int nodeId, String clusterId, String schema) {
}
