package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.TableSpec;
import io.adaps.cluster.AdaptiveContract;
import io.adaps.cluster.ClusterContract;
import io.adaps.cluster.RelocationContract;
import io.adaps.cluster.TestCluster;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.Transport;

/**
 * The distributed parameter server's guarantees with nodes talking Netty over loopback; fails if
 * any Netty buffer leaked or any transport thread is left.
 */
@ExtendWith(NoLeaks.class)
class NettyClusterTest extends ClusterContract {
    @Override
    protected Transport newTransport(int node) {
        return new NettyTransport();
    }

    @Override
    protected List<String> addresses(int nodes) {
        return Ports.loopback(nodes).stream().map(PeerAddress::toString).toList();
    }

    @Test
    void closingAClusterLeavesNoThreads() throws Exception {
        try (TestCluster cluster = new TestCluster(3, addresses(3), this::newTransport,
                b -> b.table(TableSpec.of("t", 9, 2)))) {
            cluster.node(0).worker().push(new long[] {0, 4, 8}, new float[6]);
            assertThat(Nodes.transportThreads()).isNotEmpty();
        }
        Nodes.awaitTransportThreadsEnded();
    }

    /** The relocation guarantees over the same transport. */
    @Nested
    class Relocation extends RelocationContract {
        @Override
        protected Transport newTransport(int node) {
            return NettyClusterTest.this.newTransport(node);
        }

        @Override
        protected List<String> addresses(int nodes) {
            return NettyClusterTest.this.addresses(nodes);
        }
    }

    /** The guarantees of every technique over Netty. */
    @Nested
    class Adaptive extends AdaptiveContract {
        @Override
        protected Transport newTransport(int node) {
            return NettyClusterTest.this.newTransport(node);
        }

        @Override
        protected List<String> addresses(int nodes) {
            return NettyClusterTest.this.addresses(nodes);
        }
    }
}
