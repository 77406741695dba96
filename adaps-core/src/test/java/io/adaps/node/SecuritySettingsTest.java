package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.ClusterException;
import io.adaps.api.NodeSettings;
import io.adaps.api.TableSpec;
import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.api.transport.TlsSettings;
import io.adaps.testing.Concurrently;

/**
 * Link security and the bind host on the builder and from {@code ADAPS_*} variables: what they
 * set, what they refuse (naming the variable or value, changing nothing), and the cluster secret's
 * HMAC and the in-JVM handshake's comparison of secrets.
 */
class SecuritySettingsTest {
    @TempDir
    Path directory;

    @Test
    void tlsFromPemVariables() throws IOException {
        Path cert = file("cert.pem");
        Path key = file("key.pem");
        Path ca = file("ca.pem");
        NodeSettings settings = builder().fromEnvironment(Map.of("ADAPS_TLS_CERT", cert.toString(),
                "ADAPS_TLS_KEY", key.toString(), "ADAPS_TLS_CA", ca.toString())).settings();
        assertThat(settings.tls().source()).isEqualTo(TlsSettings.Source.PEM);
        assertThat(settings.tls().identity()).isEqualTo(cert);
        assertThat(settings.tls().privateKey()).isEqualTo(key);
        assertThat(settings.tls().trust()).isEqualTo(ca);
        assertThat(settings.tls().toString()).isEqualTo("TLS(certificateChain=" + cert + ", privateKey=" + key
                + ", trustedCas=" + ca + ")");
    }

    @Test
    void tlsFromKeyStoreVariables() throws IOException {
        Path keyStore = file("node.p12");
        Path trustStore = file("trust.p12");
        NodeSettings settings = builder().fromEnvironment(Map.of("ADAPS_TLS_KEYSTORE", keyStore.toString(),
                "ADAPS_TLS_KEYSTORE_PASSWORD", "k", "ADAPS_TLS_TRUSTSTORE", trustStore.toString(),
                "ADAPS_TLS_TRUSTSTORE_PASSWORD", "t")).settings();
        assertThat(settings.tls().source()).isEqualTo(TlsSettings.Source.KEY_STORE);
        assertThat(settings.tls().identityPassword()).containsExactly('k');
        assertThat(settings.tls().trustPassword()).containsExactly('t');
        assertThat(settings.tls().toString()).doesNotContain("password").isEqualTo("TLS(keyStore=" + keyStore
                + ", trustStore=" + trustStore + ")");
    }

    @Test
    void incompleteOrContradictoryTlsVariablesAreRefusedChangingNothing() throws IOException {
        Path cert = file("cert.pem");
        AdaPS.Builder builder = builder();
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_TLS_CERT", cert.toString(),
                "ADAPS_NODE_ID", "0", "ADAPS_PEERS", "a:1,b:2"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_TLS_KEY unset (expected it with the other ADAPS_TLS_* variables)");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_TLS_CERT", cert.toString(),
                "ADAPS_TLS_KEY", cert.toString(), "ADAPS_TLS_CA", directory.resolve("missing.pem").toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_TLS_*: trustedCas=" + directory.resolve("missing.pem") + " (expected a readable file)");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_TLS_CERT", cert.toString(),
                "ADAPS_TLS_KEYSTORE", cert.toString()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_TLS_CERT/ADAPS_TLS_KEY/ADAPS_TLS_CA and ADAPS_TLS_KEYSTORE/ADAPS_TLS_TRUSTSTORE set "
                        + "(expected PEM files or key stores, not both)");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_TLS_KEYSTORE", cert.toString(),
                "ADAPS_TLS_TRUSTSTORE", cert.toString(), "ADAPS_TLS_TRUSTSTORE_PASSWORD", "t")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_TLS_KEYSTORE_PASSWORD unset (expected it with the other ADAPS_TLS_* variables)");
        NodeSettings unchanged = builder.settings();
        assertThat(unchanged.tls()).isNull();
        assertThat(unchanged.peers()).isEmpty();
        assertThatThrownBy(() -> TlsSettings.pem(cert, directory, cert)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("privateKey=" + directory + " (expected a readable file)");
        assertThatThrownBy(() -> builder.tls(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("tls=null (expected a value)");
    }

    @Test
    void clusterSecretFromTextOrFile() throws IOException {
        ClusterSecret fromText = builder().fromEnvironment(Map.of("ADAPS_CLUSTER_SECRET", "0123456789abcdef"))
                .settings().clusterSecret();
        Path file = Files.writeString(directory.resolve("secret"), "0123456789abcdef\n", StandardCharsets.UTF_8);
        ClusterSecret fromFile = builder().fromEnvironment(Map.of("ADAPS_CLUSTER_SECRET_FILE", file.toString()))
                .settings().clusterSecret();
        byte[] data = "nonce".getBytes(StandardCharsets.UTF_8);
        assertThat(fromFile.verify(fromText.mac(data), data)).as("the file's line break is not part of the secret").isTrue();
        assertThat(fromText.toString()).isEqualTo("ClusterSecret[16 bytes]");
        assertThat(fromText.verify(ClusterSecret.ofText("0123456789abcdeF").mac(data), data)).isFalse();
        assertThat(fromText.mac(data)).hasSize(32);
    }

    @Test
    void badSecretsAreRefusedChangingNothing() throws IOException {
        AdaPS.Builder builder = builder().clusterSecret(ClusterSecret.ofText("the secret we keep"));
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_CLUSTER_SECRET", "short")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_CLUSTER_SECRET: secret.length=5 (expected at least 16 bytes)");
        Path file = file("secret");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_CLUSTER_SECRET", "0123456789abcdef",
                "ADAPS_CLUSTER_SECRET_FILE", file.toString()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_CLUSTER_SECRET and ADAPS_CLUSTER_SECRET_FILE set (expected one of them)");
        Path missing = directory.resolve("missing");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_CLUSTER_SECRET_FILE", missing.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ADAPS_CLUSTER_SECRET_FILE='" + missing + "' (expected a readable file: ");
        byte[] data = {1};
        assertThat(builder.settings().clusterSecret().verify(ClusterSecret.ofText("the secret we keep").mac(data), data))
                .isTrue();
        assertThatThrownBy(() -> ClusterSecret.of(new byte[15])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("secret.length=15 (expected at least 16 bytes)");
    }

    @Test
    void bindHostOnTheBuilderAndFromTheEnvironment() {
        assertThat(builder().settings().bindHost()).isNull();
        assertThat(builder().bindHost("0.0.0.0").settings().bindHost()).isEqualTo("0.0.0.0");
        assertThat(builder().fromEnvironment(Map.of("ADAPS_BIND_HOST", " 0.0.0.0 ")).settings().bindHost())
                .isEqualTo("0.0.0.0");
        AdaPS.Builder builder = builder().bindHost("10.0.0.1");
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_BIND_HOST", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_BIND_HOST=' ' (expected a host name or address)");
        assertThatThrownBy(() -> builder.bindHost("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bindHost='' (expected a host name or address)");
        assertThat(builder.settings().bindHost()).isEqualTo("10.0.0.1");
    }

    @Test
    void inJvmNodesWithAnotherSecretRefuseEachOther() throws InterruptedException {
        InJvmNetwork network = new InJvmNetwork();
        List<ClusterSecret> secrets = List.of(ClusterSecret.ofText("the first cluster secret"),
                ClusterSecret.ofText("the other cluster secret"));
        Map<Integer, Throwable> failures = new java.util.concurrent.ConcurrentHashMap<>();
        Concurrently.run(2, java.time.Duration.ofSeconds(30), node -> {
            try (AdaPS started = builder().nodeId(node).peers(List.of("n0:1", "n1:1"))
                    .connectTimeout(java.time.Duration.ofSeconds(10)).clusterSecret(secrets.get(node))
                    .transport(new InJvmTransport(network)).build()) {
                throw new AssertionError("node " + started.nodeId() + " started with another secret");
            } catch (ClusterException e) {
                failures.put(node, e);
            }
        });
        assertThat(failures).hasSize(2);
        assertThat(failures.values()).allSatisfy(e -> assertThat(e).hasMessageContaining(
                "refused: cluster secret (expected this node's)"));
    }

    private static AdaPS.Builder builder() {
        return AdaPS.builder().table(TableSpec.of("t", 4, 1));
    }

    private Path file(String name) throws IOException {
        return Files.writeString(directory.resolve(name), "x", StandardCharsets.US_ASCII);
    }
}
