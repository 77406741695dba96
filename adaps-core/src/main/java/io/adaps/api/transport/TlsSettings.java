package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a node finds its TLS identity and the certificates it trusts. Links between nodes that
 * have TLS settings are encrypted and mutually authenticated: each side presents its certificate
 * chain and accepts the other's only if it chains to a trusted certificate (the cluster's CA) and
 * is valid now. Host names are not checked: every holder of a certificate signed by the cluster's
 * CA is a member of the cluster, so give each cluster a CA of its own.
 *
 * <p>Two sources, both read by the transport when the node starts:
 * <ul>
 *   <li>{@link #pem}: a PEM certificate chain, a PEM PKCS#8 private key (unencrypted) and a PEM
 *       file of trusted CA certificates;</li>
 *   <li>{@link #keyStore}: a key store (PKCS#12 or JKS) with this node's key and chain, and a trust
 *       store with the CA certificates.</li>
 * </ul>
 * The factories check that the files are readable; their contents are checked when the node
 * starts ({@code build()} throws naming the file).
 */
public final class TlsSettings {
    /** Which kind of files hold the identity and the trusted certificates. */
    public enum Source {
        /** PEM files: certificate chain, PKCS#8 private key, CA certificates. */
        PEM,
        /** A key store and a trust store (PKCS#12 or JKS; the type is detected). */
        KEY_STORE
    }

    private final Source source;
    private final Path identity;
    private final Path privateKey;
    private final Path trust;
    private final char[] identityPassword;
    private final char[] trustPassword;

    private TlsSettings(Source source, Path identity, Path privateKey, Path trust, char[] identityPassword,
                        char[] trustPassword) {
        this.source = source;
        this.identity = identity;
        this.privateKey = privateKey;
        this.trust = trust;
        this.identityPassword = identityPassword;
        this.trustPassword = trustPassword;
    }

    /**
     * TLS from PEM files.
     *
     * @param certificateChain this node's certificate, then its issuers up to (not necessarily
     *                         including) the CA
     * @param privateKey       the certificate's private key, PKCS#8 ({@code BEGIN PRIVATE KEY}),
     *                         unencrypted
     * @param trustedCas       the CA certificates that peers' certificates must chain to
     * @throws IllegalArgumentException naming the first path that is not a readable file
     */
    public static TlsSettings pem(Path certificateChain, Path privateKey, Path trustedCas) {
        checkReadable(certificateChain, "certificateChain");
        checkReadable(privateKey, "privateKey");
        checkReadable(trustedCas, "trustedCas");
        return new TlsSettings(Source.PEM, certificateChain, privateKey, trustedCas, null, null);
    }

    /**
     * TLS from key stores.
     *
     * @param keyStore           holds one private key entry: this node's key and certificate chain
     * @param keyStorePassword   opens the key store and its key entry
     * @param trustStore         holds the CA certificates that peers' certificates must chain to
     * @param trustStorePassword opens the trust store
     * @throws IllegalArgumentException naming the first path that is not a readable file, or a
     *                                  null password
     */
    public static TlsSettings keyStore(Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword) {
        checkReadable(keyStore, "keyStore");
        checkNotNull(keyStorePassword, "keyStorePassword");
        checkReadable(trustStore, "trustStore");
        checkNotNull(trustStorePassword, "trustStorePassword");
        return new TlsSettings(Source.KEY_STORE, keyStore, null, trustStore, keyStorePassword.clone(),
                trustStorePassword.clone());
    }

    public Source source() {
        return source;
    }

    /** The PEM certificate chain ({@link Source#PEM}) or the key store ({@link Source#KEY_STORE}). */
    public Path identity() {
        return identity;
    }

    /** The PEM private key; null for {@link Source#KEY_STORE}. */
    public Path privateKey() {
        return privateKey;
    }

    /** The PEM CA certificates ({@link Source#PEM}) or the trust store ({@link Source#KEY_STORE}). */
    public Path trust() {
        return trust;
    }

    /** A copy of the key store's password; null for {@link Source#PEM}. */
    public char[] identityPassword() {
        return identityPassword == null ? null : identityPassword.clone();
    }

    /** A copy of the trust store's password; null for {@link Source#PEM}. */
    public char[] trustPassword() {
        return trustPassword == null ? null : trustPassword.clone();
    }

    /** The files, for logs and error messages (never the passwords). */
    @Override
    public String toString() {
        return source == Source.PEM
                ? "TLS(certificateChain=" + identity + ", privateKey=" + privateKey + ", trustedCas=" + trust + ")"
                : "TLS(keyStore=" + identity + ", trustStore=" + trust + ")";
    }

    private static void checkReadable(Path path, String name) {
        checkNotNull(path, name);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IllegalArgumentException(name + "=" + path + " (expected a readable file)");
        }
    }
}
