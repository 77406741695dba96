package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret shared by the nodes of a cluster, which authenticates each connection's handshake:
 * both sides prove that they know it by an HMAC-SHA256 over fresh random nonces from both (a
 * challenge-response; the secret never travels). It keeps nodes that do not know the secret out
 * of the cluster, but neither encrypts nor authenticates the messages after the handshake: on a
 * network where others can read or alter traffic, use {@link TlsSettings} (the two combine).
 */
public final class ClusterSecret {
    /** The shortest secret accepted, in bytes. */
    public static final int MIN_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";

    private final byte[] key;

    private ClusterSecret(byte[] key) {
        this.key = key;
    }

    /**
     * A secret of these bytes (copied).
     *
     * @throws IllegalArgumentException if it is shorter than {@value #MIN_BYTES} bytes
     */
    public static ClusterSecret of(byte[] secret) {
        checkNotNull(secret, "secret");
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException("secret.length=" + secret.length + " (expected at least " + MIN_BYTES
                    + " bytes)");
        }
        return new ClusterSecret(secret.clone());
    }

    /**
     * A secret of the UTF-8 bytes of {@code secret}.
     *
     * @throws IllegalArgumentException if they are fewer than {@value #MIN_BYTES}
     */
    public static ClusterSecret ofText(String secret) {
        checkNotNull(secret, "secret");
        return of(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** HMAC-SHA256 of the concatenated {@code parts} under this secret. */
    public byte[] mac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available (every JDK has it)", e);
        }
    }

    /** Whether {@code claimed} is the HMAC of {@code parts}, compared in constant time. */
    public boolean verify(byte[] claimed, byte[]... parts) {
        return MessageDigest.isEqual(mac(parts), claimed);
    }

    /** Never the secret. */
    @Override
    public String toString() {
        return "ClusterSecret[" + key.length + " bytes]";
    }
}
