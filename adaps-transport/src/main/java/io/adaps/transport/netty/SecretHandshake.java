package io.adaps.transport.netty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import io.adaps.api.transport.ClusterSecret;

/**
 * The cluster-secret challenge-response of a connection's handshake: each side proves that it
 * knows the secret without sending it, over fresh nonces from both sides, so that no proof can be
 * replayed on another connection.
 *
 * <pre>
 * connecting node D                                   accepting node A
 * HANDSHAKE(id_D, cluster, schema, n_D)  ---------->
 *                                        <----------  CHALLENGE(n_A, HMAC(s, "adaps-accept" | cluster | id_D | n_D | n_A))
 * check A's proof; if wrong: HANDSHAKE_REFUSED
 * PROOF(HMAC(s, "adaps-dial" | cluster | id_D | n_A | n_D)) -->
 *                                                     check D's proof; then the usual checks:
 *                                        <----------  HANDSHAKE_ACK or HANDSHAKE_REFUSED
 * </pre>
 *
 * Nonces are 32 bytes from {@link SecureRandom}; the two labels keep one side's proof from ever
 * being the other's; proofs are compared in constant time ({@link ClusterSecret#verify}). A node
 * refuses a peer that has no secret when it has one, and the reverse, naming the difference, and
 * the connecting side refuses an ACK that skipped the challenge. The secret authenticates the
 * handshake only; TLS protects what follows.
 */
final class SecretHandshake {
    static final int NONCE_LENGTH = 32;
    static final int MAC_LENGTH = 32;
    private static final byte[] ACCEPTOR = "adaps-accept".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DIALER = "adaps-dial".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] NO_NONCE = new byte[0];

    private SecretHandshake() {
    }

    /** A fresh nonce when {@code secret} is set, else the empty nonce (no secret). */
    static byte[] nonce(ClusterSecret secret) {
        if (secret == null) {
            return NO_NONCE;
        }
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** The accepting node's proof, for the CHALLENGE to {@code hello}. */
    static byte[] acceptorProof(ClusterSecret secret, Hello hello, byte[] acceptorNonce) {
        return secret.mac(ACCEPTOR, context(hello), hello.nonce(), acceptorNonce);
    }

    /** Whether {@code proof} is the accepting node's proof for {@code hello} and its nonce. */
    static boolean isAcceptorProof(ClusterSecret secret, Hello hello, byte[] acceptorNonce, byte[] proof) {
        return secret.verify(proof, ACCEPTOR, context(hello), hello.nonce(), acceptorNonce);
    }

    /** The connecting node's proof, for its PROOF after the CHALLENGE with {@code acceptorNonce}. */
    static byte[] dialerProof(ClusterSecret secret, Hello hello, byte[] acceptorNonce) {
        return secret.mac(DIALER, context(hello), acceptorNonce, hello.nonce());
    }

    /** Whether {@code proof} is the connecting node's proof for {@code hello} and the nonce sent to it. */
    static boolean isDialerProof(ClusterSecret secret, Hello hello, byte[] acceptorNonce, byte[] proof) {
        return secret.verify(proof, DIALER, context(hello), acceptorNonce, hello.nonce());
    }

    /** Why the handshake cannot go on when one side has a secret and the other not, or null. */
    static String mismatch(ClusterSecret secret, Hello hello, String self) {
        if (secret != null && !hello.hasSecret()) {
            return "no cluster secret (expected one: " + self + " authenticates peers with a cluster secret)";
        }
        if (secret == null && hello.hasSecret()) {
            return "a cluster secret (expected none: " + self + " has no cluster secret)";
        }
        return null;
    }

    private static byte[] context(Hello hello) {
        byte[] cluster = hello.clusterId().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 * Integer.BYTES + cluster.length)
                .putInt(cluster.length).put(cluster).putInt(hello.nodeId()).array();
    }
}
