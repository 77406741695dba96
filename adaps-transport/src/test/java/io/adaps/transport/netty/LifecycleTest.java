package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.ClusterException;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.api.transport.TransportProvider;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract;
import io.adaps.testing.TransportContract.Inbox;

/** Start-up, refusals on both sides, closing, threads and the service registration. */
@ExtendWith(NoLeaks.class)
class LifecycleTest {
    private final Nodes nodes = new Nodes();

    @AfterEach
    void close() {
        nodes.close();
    }

    @Test
    void closeStopsEveryThread() throws Exception {
        List<PeerAddress> peers = Ports.loopback(3);
        List<NettyTransport> cluster = List.of(nodes.add(new NettyTransport(2)), nodes.add(new NettyTransport(2)),
                nodes.add(new NettyTransport(2)));
        startAll(peers, cluster);
        assertThat(Nodes.transportThreads()).contains("adaps-netty-0-1", "adaps-netty-1-1", "adaps-netty-2-1")
                .allMatch(name -> name.matches("adaps-netty-[0-2]-[12]"));
        TransportContract.send(cluster.get(2), 0, "bye");
        cluster.forEach(NettyTransport::close);
        Nodes.awaitTransportThreadsEnded();
    }

    @Test
    void aNodeListensAtItsBindHostAndIsReachedAtItsAdvertisedAddress() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        TransportConfig advertised = Nodes.config(0, peers);
        TransportConfig wildcard = new TransportConfig(0, peers, advertised.clusterId(), advertised.schema(),
                advertised.connectTimeout(), advertised.heartbeatInterval(), advertised.failureTimeout(),
                advertised.sendTimeout(), advertised.maxMessageBytes(), advertised.maxPendingBytes(), "0.0.0.0", null, null);
        assertThat(wildcard.listenAddress()).isEqualTo(new PeerAddress("0.0.0.0", peers.get(0).port()));
        Inbox inbox = new Inbox();
        List<NettyTransport> cluster = nodes.start(List.of(wildcard, Nodes.config(1, peers)), List.of(inbox, new Inbox()));
        TransportContract.send(cluster.get(1), 0, "via the wildcard");
        Await.until("node 0 received the message", Duration.ofSeconds(10),
                () -> inbox.messages.contains("1:via the wildcard"));
    }

    @Test
    void aFailedStartReleasesItsPortAndThreads() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        NettyTransport alone = nodes.add(new NettyTransport());
        TransportConfig config = new TransportConfig(1, peers, "test", "schema", Duration.ofMillis(300),
                Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(1), 1 << 20, 4L << 20);
        assertThatThrownBy(() -> alone.start(config, new Inbox())).isInstanceOf(ClusterException.class)
                .hasMessage("node 1 (" + peers.get(1) + "): peers [node 0 (" + peers.get(0) + ")] did not connect within PT0.3S");
        Nodes.awaitTransportThreadsEnded();
        try (ServerSocket again = new ServerSocket(peers.get(1).port(), 1, InetAddress.getLoopbackAddress())) {
            assertThat(again.isBound()).isTrue();
        }
        assertThatThrownBy(() -> alone.start(config, new Inbox())).isInstanceOf(IllegalStateException.class)
                .hasMessage("transport of node 1 (" + peers.get(1) + ") is closed (expected a new transport)");
    }

    @Test
    void closingDuringStartEndsTheStart() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        NettyTransport waiting = nodes.add(new NettyTransport());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                waiting.start(Nodes.config(0, peers), new Inbox());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        starter.start();
        // Close once the start waits for its peer (a close before the start registered would be
        // refused as a closed transport instead), not after a fixed sleep a loaded machine may outlast.
        Await.until("the start waiting for its peer", Duration.ofSeconds(5),
                () -> starter.getState() == Thread.State.TIMED_WAITING);
        waiting.close();
        starter.join(2_000);
        assertThat(starter.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOf(ClusterException.class).hasMessageContaining("closed while");
        Nodes.awaitTransportThreadsEnded();
    }

    @Test
    void anotherClusterIsRefusedOnBothSides() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        NettyTransport accepting = nodes.add(new NettyTransport());
        NettyTransport dialing = nodes.add(new NettyTransport());
        AtomicReference<Throwable> acceptingFailure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                accepting.start(Nodes.config(0, peers), new Inbox());
            } catch (Throwable e) {
                acceptingFailure.set(e);
            }
        });
        starter.start();
        TransportConfig other = new TransportConfig(1, peers, "other", "schema", Duration.ofSeconds(10),
                Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(1), 1 << 20, 4L << 20);
        String difference = "refused: cluster id 'other' (expected 'test')";
        assertThatThrownBy(() -> dialing.start(other, new Inbox())).isInstanceOf(ClusterException.class)
                .hasMessage("node 1 (" + peers.get(1) + "): handshake with node 0 (" + peers.get(0) + ") " + difference);
        starter.join(5_000);
        assertThat(acceptingFailure.get()).isInstanceOf(ClusterException.class)
                .hasMessage("node 0 (" + peers.get(0) + "): handshake with node 1 (" + peers.get(1) + ") " + difference);
    }

    @Test
    void aTakenPortFailsStart() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        try (ServerSocket taken = new ServerSocket(peers.get(0).port(), 1, InetAddress.getLoopbackAddress())) {
            assertThat(taken.isBound()).isTrue();
            NettyTransport node = nodes.add(new NettyTransport());
            assertThatThrownBy(() -> node.start(Nodes.config(0, peers), new Inbox()))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageStartingWith("node 0 (" + peers.get(0) + "): cannot listen at " + peers.get(0) + ": ");
        }
        Nodes.awaitTransportThreadsEnded();
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> new NettyTransport(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ioThreads=0 (expected > 0)");
        NettyTransport unstarted = new NettyTransport();
        assertThatThrownBy(() -> TransportContract.send(unstarted, 1, "x")).isInstanceOf(IllegalStateException.class)
                .hasMessage("transport is not started (expected a started transport)");
        unstarted.close();
    }

    @Test
    void theProviderIsFoundByName() {
        List<TransportProvider> providers = ServiceLoader.load(TransportProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("netty")).toList();
        assertThat(providers).singleElement().satisfies(p -> {
            try (var transport = p.create()) {
                assertThat(transport).isInstanceOf(NettyTransport.class);
            }
        });
    }

    private static void startAll(List<PeerAddress> peers, List<NettyTransport> cluster) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> starters = new java.util.ArrayList<>();
        for (int node = 0; node < cluster.size(); node++) {
            NettyTransport transport = cluster.get(node);
            TransportConfig config = Nodes.config(node, peers);
            Thread starter = new Thread(() -> {
                try {
                    transport.start(config, new Inbox());
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            starters.add(starter);
            starter.start();
        }
        for (Thread starter : starters) {
            starter.join(10_000);
        }
        assertThat(failure.get()).isNull();
    }
}
