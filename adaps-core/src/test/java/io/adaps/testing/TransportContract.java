package io.adaps.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportConfig;

/**
 * The {@link Transport} contract, written once and run against every implementation (extend it and
 * say how to make a transport and addresses for it).
 */
public abstract class TransportContract {
    /** A new, unstarted transport of the implementation under test. */
    protected abstract Transport newTransport();

    /** Addresses for {@code nodes} nodes that no other test uses at the same time. */
    protected abstract List<PeerAddress> addresses(int nodes);

    private final List<Transport> started = new ArrayList<>();

    @AfterEach
    void closeAll() {
        started.forEach(Transport::close);
    }

    /** What one node received, in order; messages as {@code "peer:text"}. Tests may override a method. */
    public static class Inbox implements MessageHandler {
        public final ConcurrentLinkedQueue<String> messages = new ConcurrentLinkedQueue<>();
        public final ConcurrentLinkedQueue<PeerFailedException> failures = new ConcurrentLinkedQueue<>();

        @Override
        public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
            messages.add(peer + ":" + buffer.getStringWithoutLengthAscii(offset, length));
        }

        @Override
        public void onPeerFailure(PeerFailedException failure) {
            failures.add(failure);
        }
    }

    protected static TransportConfig config(int node, List<PeerAddress> peers, String clusterId, String schema) {
        return new TransportConfig(node, peers, clusterId, schema, Duration.ofSeconds(10), Duration.ofMillis(100),
                Duration.ofMillis(1000), Duration.ofSeconds(5), 1 << 20, 4L << 20);
    }

    /** Starts {@code inboxes.length} nodes concurrently (start blocks until all peers are there). */
    protected List<Transport> startCluster(Inbox... inboxes) throws Exception {
        List<PeerAddress> peers = addresses(inboxes.length);
        List<Transport> transports = new ArrayList<>();
        for (int node = 0; node < inboxes.length; node++) {
            Transport transport = newTransport();
            transports.add(transport);
            started.add(transport);
        }
        Concurrently.run(inboxes.length, Duration.ofSeconds(30),
                node -> transports.get(node).start(config(node, peers, "contract", "schema-1"), inboxes[node]));
        return transports;
    }

    /** Sends {@code text} as an ASCII message. */
    public static void send(Transport transport, int peer, String text) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[text.length()]);
        buffer.putStringWithoutLengthAscii(0, text);
        transport.send(peer, buffer, 0, text.length());
    }

    @Test
    void messagesArriveWholeAndInOrderBetweenEveryPair() throws Exception {
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = startCluster(inboxes);
        int perPair = 2000;
        for (int i = 0; i < perPair; i++) {
            for (int from = 0; from < 3; from++) {
                for (int to = 0; to < 3; to++) {
                    if (from != to) {
                        send(nodes.get(from), to, "m" + i + "-" + "x".repeat(i % 97));
                    }
                }
            }
        }
        for (int to = 0; to < 3; to++) {
            Inbox inbox = inboxes[to];
            Await.until("all messages at node " + to, Duration.ofSeconds(20),
                    () -> inbox.messages.size() == 2 * perPair);
            for (int from = 0; from < 3; from++) {
                if (from == to) {
                    continue;
                }
                String prefix = from + ":";
                List<String> fromPeer = inbox.messages.stream().filter(m -> m.startsWith(prefix)).toList();
                assertThat(fromPeer).hasSize(perPair);
                for (int i = 0; i < perPair; i++) {
                    assertThat(fromPeer.get(i)).isEqualTo(prefix + "m" + i + "-" + "x".repeat(i % 97));
                }
            }
            assertThat(inbox.failures).isEmpty();
        }
    }

    @Test
    void concurrentSendersAndLargeMessages() throws Exception {
        Inbox[] inboxes = {new Inbox(), new Inbox()};
        List<Transport> nodes = startCluster(inboxes);
        int threads = 4;
        int perThread = 500;
        String large = "L".repeat((1 << 20) - 16);
        CountDownLatch done = new CountDownLatch(threads);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        send(nodes.get(0), 1, i % 100 == 99 ? "t" + id + "-" + i + large : "t" + id + "-" + i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }).start();
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(failure.get()).isNull();
        Await.until("all messages", Duration.ofSeconds(30), () -> inboxes[1].messages.size() == threads * perThread);
        for (int t = 0; t < threads; t++) {
            String prefix = "0:t" + t + "-";
            List<String> fromThread = inboxes[1].messages.stream().filter(m -> m.startsWith(prefix)).toList();
            for (int i = 0; i < perThread; i++) {
                assertThat(fromThread.get(i)).isEqualTo(prefix + i + (i % 100 == 99 ? large : ""));
            }
        }
    }

    @Test
    void aClosedPeerIsReportedAndRefused() throws Exception {
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = startCluster(inboxes);
        send(nodes.get(2), 0, "before");
        nodes.get(2).close();
        Await.until("node 0 told of node 2's failure", Duration.ofSeconds(5), () -> !inboxes[0].failures.isEmpty());
        Await.until("node 1 told of node 2's failure", Duration.ofSeconds(5), () -> !inboxes[1].failures.isEmpty());
        assertThat(inboxes[0].failures).singleElement().satisfies(f -> assertThat(f.peer()).isEqualTo(2));
        assertThat(inboxes[0].messages).contains("2:before");
        assertThatThrownBy(() -> send(nodes.get(0), 2, "after")).isInstanceOf(PeerFailedException.class)
                .hasMessageStartingWith("node 2 failed: ");
        // The others keep talking.
        send(nodes.get(0), 1, "still");
        Await.until("node 1 still reachable", Duration.ofSeconds(5), () -> inboxes[1].messages.contains("0:still"));
        assertThatThrownBy(() -> send(nodes.get(2), 0, "x")).isInstanceOf(IllegalStateException.class);
        nodes.get(2).close();
    }

    @Test
    void aMissingPeerFailsStartNamingIt() {
        List<PeerAddress> peers = addresses(2);
        Transport alone = newTransport();
        started.add(alone);
        TransportConfig config = new TransportConfig(0, peers, "contract", "schema-1", Duration.ofMillis(500),
                Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(1), 1 << 20, 4L << 20);
        assertThatThrownBy(() -> alone.start(config, new Inbox())).isInstanceOf(ClusterException.class)
                .hasMessageContaining("node 1 (" + peers.get(1) + ")")
                .hasMessageContaining("did not connect within PT0.5S");
    }

    @Test
    void aHandshakeWithAnotherSchemaIsRefused() throws Exception {
        List<PeerAddress> peers = addresses(2);
        Transport a = newTransport();
        Transport b = newTransport();
        started.add(a);
        started.add(b);
        AtomicReference<Throwable> failureOfA = new AtomicReference<>();
        Thread startA = new Thread(() -> {
            try {
                a.start(config(0, peers, "contract", "schema-1"), new Inbox());
            } catch (Throwable e) {
                failureOfA.set(e);
            }
        });
        startA.start();
        assertThatThrownBy(() -> b.start(config(1, peers, "contract", "schema-2"), new Inbox()))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("schema");
        b.close();
        a.close();
        startA.join(TimeUnit.SECONDS.toMillis(15));
        assertThat(startA.isAlive()).isFalse();
    }

    @Test
    void badSendsAreRefused() throws Exception {
        List<Transport> nodes = startCluster(new Inbox(), new Inbox());
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[(1 << 20) + 1]);
        assertThatThrownBy(() -> nodes.get(0).send(0, buffer, 0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peer=0 (expected another node of 0..1)");
        assertThatThrownBy(() -> nodes.get(0).send(5, buffer, 0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peer=5 (expected another node of 0..1)");
        assertThatThrownBy(() -> nodes.get(0).send(1, buffer, 0, (1 << 20) + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("length=1048577 (expected <= maxMessageBytes=1048576)");
        nodes.get(0).close();
        nodes.get(0).close();
        assertThatThrownBy(() -> nodes.get(0).send(1, buffer, 0, 4)).isInstanceOf(IllegalStateException.class);
    }
}
