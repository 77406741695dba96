package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.adaps.api.TableSpec;
import io.adaps.api.transport.PeerAddress;
import io.adaps.cluster.AdaptiveContract;
import io.adaps.cluster.ClusterContract;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.ConsistencyContract;
import io.adaps.cluster.RelocationContract;
import io.adaps.cluster.TestCluster;

/**
 * The distributed parameter server's guarantees with nodes talking Netty over loopback; fails if
 * any Netty buffer leaked or any transport thread is left.
 */
@ExtendWith(NoLeaks.class)
class NettyClusterTest extends ClusterContract {
    @RegisterExtension
    static final ClusterFixture FIXTURE = new ClusterFixture(node -> new NettyTransport(),
            nodes -> Ports.loopback(nodes).stream().map(PeerAddress::toString).toList());

    @Test
    void closingAClusterLeavesNoThreads() throws Exception {
        try (TestCluster cluster = FIXTURE.cluster(3, b -> b.table(TableSpec.of("t", 9, 2)))) {
            cluster.node(0).worker().push(new long[] {0, 4, 8}, new float[6]);
            assertThat(Nodes.transportThreads()).isNotEmpty();
        }
        Nodes.awaitTransportThreadsEnded();
    }

    /** The relocation guarantees over the same transport. */
    @Nested
    class Relocation extends RelocationContract {
    }

    /** The staleness bounds of every model, and the handshake's comparison of models, over Netty. */
    @Nested
    class Consistency extends ConsistencyContract {
    }

    /** The guarantees of every technique over Netty. */
    @Nested
    class Adaptive extends AdaptiveContract {
    }
}
