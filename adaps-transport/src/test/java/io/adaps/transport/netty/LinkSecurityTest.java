package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.ClusterException;
import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TlsSettings;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract;
import io.adaps.testing.TransportContract.Inbox;

/**
 * TLS with mutual authentication and the cluster secret between two Netty nodes: links that agree
 * carry messages both ways; a peer without TLS (either way round), with a certificate from another
 * CA, with an expired certificate, without the secret or with another one makes both nodes'
 * start-up fail naming the reason, and leaves nothing running. Certificates are made at test time.
 */
@ExtendWith(NoLeaks.class)
class LinkSecurityTest {
    private static final ClusterSecret SECRET = ClusterSecret.ofText("the cluster's shared secret");

    @TempDir
    Path directory;
    private TestCertificates certificates;
    private TestCertificates.Authority clusterCa;
    private List<PeerAddress> peers;
    private final Nodes nodes = new Nodes();

    @BeforeEach
    void setUp() {
        certificates = new TestCertificates(directory);
        clusterCa = certificates.authority("cluster");
        peers = Ports.loopback(2);
    }

    @AfterEach
    void closeAll() throws InterruptedException {
        nodes.close();
        Nodes.awaitTransportThreadsEnded();
    }

    @Test
    void mutualTlsFromPemFilesCarriesMessagesBothWays() throws Exception {
        assertConnected(config(0, certificates.pem("node0", clusterCa, clusterCa), null),
                config(1, certificates.pem("node1", clusterCa, clusterCa), null));
    }

    @Test
    void mutualTlsFromKeyStoresCarriesMessagesBothWays() throws Exception {
        assertConnected(config(0, certificates.keyStore("node0", clusterCa, clusterCa), null),
                config(1, certificates.keyStore("node1", clusterCa, clusterCa), null));
    }

    @Test
    void theSameSecretWithAndWithoutTlsConnects() throws Exception {
        assertConnected(config(0, null, SECRET), config(1, null, ClusterSecret.ofText("the cluster's shared secret")));
        nodes.close();
        Nodes.awaitTransportThreadsEnded();
        peers = Ports.loopback(2);
        assertConnected(config(0, certificates.pem("node0", clusterCa, clusterCa), SECRET),
                config(1, certificates.pem("node1", clusterCa, clusterCa), SECRET));
    }

    @Test
    void aPlaintextPeerOfATlsNodeIsRefusedOnBothSides() throws Exception {
        String refusal = "refused: no TLS (expected TLS: " + describe(0) + " requires it)";
        assertBothRefused(config(0, certificates.pem("node0", clusterCa, clusterCa), null), config(1, null, null),
                describe(0) + ": handshake with " + describe(1) + " " + refusal,
                describe(1) + ": handshake with " + describe(0) + " " + refusal);
    }

    @Test
    void aTlsPeerOfAPlaintextNodeIsRefusedOnBothSides() throws Exception {
        assertBothRefused(config(0, null, null), config(1, certificates.pem("node1", clusterCa, clusterCa), null),
                "refused: malformed frame: a TLS handshake (expected plaintext frames: this node does not use TLS)",
                describe(1) + ": handshake with " + describe(0)
                        + " failed: the peer does not use TLS (expected TLS, which this node requires)");
    }

    @Test
    void aCertificateFromAnotherCaIsRefusedOnBothSides() throws Exception {
        TestCertificates.Authority otherCa = certificates.authority("other");
        assertBothRefused(config(0, certificates.pem("node0", clusterCa, clusterCa), null),
                config(1, certificates.pem("node1", otherCa, clusterCa), null),
                "TLS handshake failed", describe(1) + ": handshake with " + describe(0) + " failed: TLS handshake failed");
    }

    @Test
    void aNodeThatTrustsAnotherCaRefusesTheClusterOnBothSides() throws Exception {
        TestCertificates.Authority otherCa = certificates.authority("other");
        assertBothRefused(config(0, certificates.pem("node0", clusterCa, clusterCa), null),
                config(1, certificates.pem("node1", otherCa, otherCa), null),
                "TLS handshake failed", describe(1) + ": handshake with " + describe(0) + " failed: TLS handshake failed");
    }

    @Test
    void anExpiredCertificateIsRefusedOnBothSides() throws Exception {
        Instant now = Instant.now();
        TlsSettings expired = certificates.pem("node1", clusterCa, clusterCa, now.minus(Duration.ofHours(2)),
                now.minus(Duration.ofMinutes(30)));
        assertBothRefused(config(0, certificates.pem("node0", clusterCa, clusterCa), null), config(1, expired, null),
                "TLS handshake failed: PKIX path validation failed: java.security.cert.CertPathValidatorException: "
                        + "validity check failed", describe(1) + ": handshake with " + describe(0) + " failed: TLS handshake failed");
    }

    @Test
    void aWrongSecretIsRefusedOnBothSides() throws Exception {
        String reason = "wrong cluster secret (expected the one " + describe(1) + " has)";
        assertBothRefused(config(0, null, SECRET), config(1, null, ClusterSecret.ofText("another cluster's secret")),
                describe(0) + ": handshake with " + describe(1) + " refused by it: " + reason,
                describe(1) + ": handshake with " + describe(0) + " refused: " + describe(0) + " has a " + reason);
    }

    @Test
    void aPeerWithoutTheSecretIsRefusedOnBothSides() throws Exception {
        String refusal = "refused: no cluster secret (expected one: " + describe(0)
                + " authenticates peers with a cluster secret)";
        assertBothRefused(config(0, null, SECRET), config(1, null, null),
                describe(0) + ": handshake with " + describe(1) + " " + refusal,
                describe(1) + ": handshake with " + describe(0) + " " + refusal);
    }

    @Test
    void aSecretNodeIsRefusedByAPeerWithoutOne() throws Exception {
        String refusal = "refused: a cluster secret (expected none: " + describe(0) + " has no cluster secret)";
        assertBothRefused(config(0, null, null), config(1, null, SECRET),
                describe(0) + ": handshake with " + describe(1) + " " + refusal,
                describe(1) + ": handshake with " + describe(0) + " " + refusal);
    }

    @Test
    void unreadableTlsFilesFailStartNamingThem() throws Exception {
        Path garbage = Files.writeString(directory.resolve("garbage.pem"), "not a certificate", StandardCharsets.US_ASCII);
        TlsSettings settings = TlsSettings.pem(garbage, garbage, garbage);
        NettyTransport node = nodes.add(new NettyTransport());
        Throwable failure = startCatching(node, config(0, settings, null));
        assertThat(failure).isInstanceOf(ClusterException.class)
                .hasMessageStartingWith(describe(0) + ": TLS(certificateChain=" + garbage + ", privateKey=" + garbage
                        + ", trustedCas=" + garbage + ") not usable: ");
    }

    private void assertConnected(TransportConfig first, TransportConfig second) throws Exception {
        List<Inbox> inboxes = List.of(new Inbox(), new Inbox());
        List<NettyTransport> started = nodes.start(List.of(first, second), inboxes);
        TransportContract.send(started.get(0), 1, "hello from 0");
        TransportContract.send(started.get(1), 0, "hello from 1");
        Await.until("node 1 received node 0's message", Duration.ofSeconds(10),
                () -> inboxes.get(1).messages.contains("0:hello from 0"));
        Await.until("node 0 received node 1's message", Duration.ofSeconds(10),
                () -> inboxes.get(0).messages.contains("1:hello from 1"));
    }

    /** Starts both nodes at once; both must fail, node 0's message containing {@code first}, node 1's {@code second}. */
    private void assertBothRefused(TransportConfig first, TransportConfig second, String firstFailure,
                                   String secondFailure) throws Exception {
        List<TransportConfig> configs = List.of(first, second);
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(2);
        List<Thread> starters = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            int id = node;
            NettyTransport transport = nodes.add(new NettyTransport());
            starters.add(new Thread(() -> failures.set(id, startCatching(transport, configs.get(id))), "starter-" + id));
        }
        starters.forEach(Thread::start);
        for (Thread starter : starters) {
            starter.join(30_000);
            assertThat(starter.isAlive()).as(starter.getName() + " returned").isFalse();
        }
        assertThat(failures.get(0)).as("node 0's start").isInstanceOf(ClusterException.class)
                .hasMessageContaining(firstFailure);
        assertThat(failures.get(1)).as("node 1's start").isInstanceOf(ClusterException.class)
                .hasMessageContaining(secondFailure);
        Nodes.awaitTransportThreadsEnded();
    }

    private static Throwable startCatching(NettyTransport transport, TransportConfig config) {
        try {
            transport.start(config, new Inbox());
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    private TransportConfig config(int node, TlsSettings tls, ClusterSecret secret) {
        return new TransportConfig(node, peers, "test", "schema", Duration.ofSeconds(20), Duration.ofMillis(100),
                Duration.ofMillis(1000), Duration.ofSeconds(5), 1 << 20, 4L << 20, null, tls, secret);
    }

    private String describe(int node) {
        return "node " + node + " (" + peers.get(node) + ")";
    }
}
