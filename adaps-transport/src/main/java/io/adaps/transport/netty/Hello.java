package io.adaps.transport.netty;

/**
 * What a connecting node says about itself in its HANDSHAKE frame.
 *
 * @param nodeId    the connecting node's id
 * @param clusterId its cluster id
 * @param schema    its table schema
 * @param nonce     its fresh challenge for the accepting node's proof of the cluster secret
 *                  ({@link SecretHandshake}); empty when it has no cluster secret
 */
record Hello(int nodeId, String clusterId, String schema, byte[] nonce) {
    /** Whether the connecting node authenticates with a cluster secret. */
    boolean hasSecret() {
        return nonce.length > 0;
    }
}
