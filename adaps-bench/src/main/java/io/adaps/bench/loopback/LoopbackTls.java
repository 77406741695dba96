package io.adaps.bench.loopback;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.adaps.api.transport.TlsSettings;

/**
 * TLS settings for benchmark clusters: one self-signed EC P-256 certificate made with the JDK's
 * {@code keytool} in a temporary directory, used by every node as its identity and as its only
 * trusted certificate (a PKCS#12 store's key entry is also a trust anchor). The handshake and the
 * record protection cost what they cost with a CA-signed certificate of the same key type.
 */
public final class LoopbackTls implements AutoCloseable {
    private static final String PASSWORD = "adaps-bench";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    private final Path directory;
    private final TlsSettings settings;

    private LoopbackTls(Path directory, TlsSettings settings) {
        this.directory = directory;
        this.settings = settings;
    }

    /** A new certificate in a new temporary directory. */
    public static LoopbackTls create() {
        try {
            Path directory = Files.createTempDirectory("adaps-bench-tls");
            Path store = directory.resolve("node.p12");
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "node",
                    "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=adaps-bench", "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed with exit code " + process.exitValue());
            }
            char[] password = PASSWORD.toCharArray();
            return new LoopbackTls(directory, TlsSettings.keyStore(store, password, store, password));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making a certificate", e);
        }
    }

    /** The settings every node of the cluster uses. */
    public TlsSettings settings() {
        return settings;
    }

    /** Deletes the certificate's directory. */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
