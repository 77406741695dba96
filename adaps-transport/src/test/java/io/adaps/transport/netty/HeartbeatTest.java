package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract;
import io.adaps.testing.TransportContract.Inbox;

/**
 * Failure detection against a fake peer over a plain socket: while it sends heartbeats it stays
 * alive (and hears the node's heartbeats); once it goes silent without closing its socket, the node
 * reports it failed after about the failure timeout.
 */
@ExtendWith(NoLeaks.class)
class HeartbeatTest {
    private static final Duration HEARTBEAT = Duration.ofMillis(100);
    private static final Duration FAILURE_TIMEOUT = Duration.ofMillis(600);

    private final Nodes nodes = new Nodes();

    @AfterEach
    void close() {
        nodes.close();
    }

    @Test
    void aSilentPeerIsReportedFailedAfterTheFailureTimeout() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        TransportConfig config = Nodes.config(0, peers, HEARTBEAT, FAILURE_TIMEOUT, Duration.ofSeconds(1), 1 << 20, 4L << 20);
        Inbox inbox = new Inbox();
        NettyTransport node = nodes.add(new NettyTransport());
        Thread starter = new Thread(() -> node.start(config, inbox));
        starter.start();
        try (FakePeer fake = FakePeer.connect(peers.get(0))) {
            fake.handshake(1, "test", "schema");
            starter.join(5_000);

            long aliveUntil = System.nanoTime() + 2 * FAILURE_TIMEOUT.toNanos();
            long silentSince = 0;
            while (System.nanoTime() < aliveUntil) {
                // Read the clock before writing: the node cannot have read the heartbeat earlier, so
                // the measured silence is never shorter than the node's, however late this thread
                // runs after the write.
                silentSince = System.nanoTime();
                fake.writeHeartbeat();
                Thread.sleep(HEARTBEAT.toMillis());
            }
            assertThat(inbox.failures).as("alive while it sends heartbeats").isEmpty();
            assertThat(fake.readFrame().type()).as("the idle node sends heartbeats").isEqualTo(Frame.HEARTBEAT);

            Await.until("the silent peer reported", Duration.ofSeconds(5), () -> !inbox.failures.isEmpty());
            long detectedMillis = (System.nanoTime() - silentSince) / 1_000_000;
            assertThat(detectedMillis).isBetween(FAILURE_TIMEOUT.toMillis(), FAILURE_TIMEOUT.toMillis() + 1_000);
            assertThat(inbox.failures).singleElement().satisfies(failure -> {
                assertThat(failure.peer()).isEqualTo(1);
                assertThat(failure.getMessage()).startsWith("node 1 failed: " + peers.get(1) + ": no heartbeat for ")
                        .endsWith(" ms");
            });
            assertThat(fake.closedByNode()).isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> TransportContract.send(node, 1, "x"))
                    .isInstanceOf(io.adaps.api.PeerFailedException.class).hasMessageContaining("no heartbeat for");
        }
    }
}
