package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.PeerAddress;
import io.adaps.cluster.TestCluster;

/**
 * A cluster configured through the public builder with TLS and a cluster secret: the settings
 * reach the transport, and every node's updates of every row arrive exactly (the sums).
 */
@ExtendWith(NoLeaks.class)
class SecureClusterTest {
    private static final int NODES = 3;
    private static final int ROWS = 30;

    @TempDir
    Path directory;

    @Test
    void exactSumsOverTlsWithAClusterSecret() throws Exception {
        TestCertificates certificates = new TestCertificates(directory);
        TestCertificates.Authority ca = certificates.authority("cluster");
        ClusterSecret secret = ClusterSecret.ofText("a secret shared by the three nodes");
        List<String> addresses = Ports.loopback(NODES).stream().map(PeerAddress::toString).toList();
        try (TestCluster cluster = new TestCluster(NODES, addresses, node -> new NettyTransport(),
                (id, builder) -> builder.table(TableSpec.of("t", ROWS, 2)).technique(Technique.STATIC)
                        .tls(certificates.pem("node" + id, ca, ca)).clusterSecret(secret))) {
            long[] keys = new long[ROWS];
            Arrays.setAll(keys, key -> key);
            float[] ones = new float[2 * ROWS];
            Arrays.fill(ones, 1f);
            for (int node = 0; node < NODES; node++) {
                try (Worker worker = cluster.node(node).worker()) {
                    worker.push(keys, ones);
                }
            }
            for (int node = 0; node < NODES; node++) {
                float[] values = new float[2 * ROWS];
                try (Worker worker = cluster.node(node).worker()) {
                    worker.pull(keys, values);
                }
                float[] expected = new float[2 * ROWS];
                Arrays.fill(expected, NODES);
                assertThat(values).as("node %d's view", node).containsExactly(expected);
            }
        }
        Nodes.awaitTransportThreadsEnded();
    }
}
