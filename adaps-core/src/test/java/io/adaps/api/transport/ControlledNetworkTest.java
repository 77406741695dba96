package io.adaps.api.transport;

import static io.adaps.testing.TransportContract.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.ControlledNetwork.Delivery;
import io.adaps.testing.TransportContract.Inbox;

/**
 * The step-driven test network: nothing moves without a step, links interleave but each keeps its
 * order (unless reordering is asked for), a seed determines everything, and failures are reported
 * as the {@link Transport} contract says. The protocol tests that run on it are only as good as
 * these properties.
 */
class ControlledNetworkTest {
    private static final List<PeerAddress> PEERS = List.of(new PeerAddress("controlled", 1),
            new PeerAddress("controlled", 2), new PeerAddress("controlled", 3));

    private static TransportConfig config(int node) {
        return new TransportConfig(node, PEERS, "controlled", "schema", Duration.ofSeconds(1), Duration.ofMillis(100),
                Duration.ofMillis(1000), Duration.ofSeconds(1), 1024, 4096);
    }

    /** Starts a transport for each inbox, in order, on this thread (start does not wait for peers). */
    private static List<Transport> start(ControlledNetwork network, MessageHandler... handlers) {
        List<Transport> transports = new ArrayList<>();
        for (int node = 0; node < handlers.length; node++) {
            Transport transport = new ControlledTransport(network);
            transport.start(config(node), handlers[node]);
            transports.add(transport);
        }
        return transports;
    }

    /** Every node sends {@code perLink} numbered messages to every other node. */
    private static void sendNumbered(List<Transport> nodes, int perLink) {
        for (int i = 0; i < perLink; i++) {
            for (int from = 0; from < nodes.size(); from++) {
                for (int to = 0; to < nodes.size(); to++) {
                    if (from != to) {
                        send(nodes.get(from), to, "m" + i);
                    }
                }
            }
        }
    }

    /** The messages {@code inbox} received from {@code peer}, without the peer prefix. */
    private static List<String> from(Inbox inbox, int peer) {
        return inbox.messages.stream().filter(m -> m.startsWith(peer + ":")).map(m -> m.substring(2)).toList();
    }

    @Test
    void nothingMovesUntilAStep() {
        ControlledNetwork network = new ControlledNetwork(3, 1);
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = start(network, inboxes);
        send(nodes.get(0), 1, "a");
        send(nodes.get(2), 1, "b");
        assertThat(network.pending()).isEqualTo(2);
        assertThat(inboxes[1].messages).isEmpty();
        assertThat(network.step()).isTrue();
        assertThat(inboxes[1].messages).hasSize(1);
        assertThat(network.step()).isTrue();
        assertThat(network.step()).isFalse();
        assertThat(inboxes[1].messages).containsExactlyInAnyOrder("0:a", "2:b");
        assertThat(network.pending()).isZero();
        assertThat(network.steps()).isEqualTo(2);
    }

    @Test
    void eachLinkKeepsItsOrderWhileLinksInterleave() {
        ControlledNetwork network = new ControlledNetwork(3, 7);
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = start(network, inboxes);
        List<Delivery> deliveries = new ArrayList<>();
        network.onDelivery(deliveries::add);
        sendNumbered(nodes, 100);
        assertThat(network.deliverAll(10_000)).isEqualTo(600);
        List<String> inOrder = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            inOrder.add("m" + i);
        }
        for (int to = 0; to < 3; to++) {
            for (int from = 0; from < 3; from++) {
                if (from != to) {
                    assertThat(from(inboxes[to], from)).as("link %d -> %d", from, to).isEqualTo(inOrder);
                }
            }
        }
        // Interleaved: the link of the delivery changes often, not once per link.
        long switches = 0;
        for (int i = 1; i < deliveries.size(); i++) {
            Delivery a = deliveries.get(i - 1);
            Delivery b = deliveries.get(i);
            if (a.from() != b.from() || a.to() != b.to()) {
                switches++;
            }
        }
        assertThat(switches).isGreaterThan(300);
    }

    @Test
    void reorderingWithinALinkDeliversEveryMessageOnceInSomeOtherOrder() {
        ControlledNetwork network = new ControlledNetwork(3, 7, true);
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = start(network, inboxes);
        sendNumbered(nodes, 50);
        network.deliverAll(10_000);
        List<String> received = from(inboxes[1], 0);
        assertThat(received).hasSize(50).doesNotHaveDuplicates();
        List<String> sorted = received.stream().sorted((a, b) -> Integer.parseInt(a.substring(1))
                - Integer.parseInt(b.substring(1))).toList();
        assertThat(received).isNotEqualTo(sorted);
    }

    /**
     * Every node answers every message it receives with a message to a third node, until the hop
     * count runs out: what is sent depends on the order of deliveries, so equal traces mean equal
     * schedules.
     */
    private static List<String> trace(long seed, boolean reorder) {
        ControlledNetwork network = new ControlledNetwork(3, seed, reorder);
        List<Transport> nodes = new ArrayList<>();
        List<String> trace = new ArrayList<>();
        MessageHandler[] handlers = new MessageHandler[3];
        for (int node = 0; node < 3; node++) {
            int self = node;
            handlers[node] = new Inbox() {
                @Override
                public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                    String text = buffer.getStringWithoutLengthAscii(offset, length);
                    trace.add(peer + "->" + self + ":" + text);
                    int hops = Integer.parseInt(text.substring(0, text.indexOf('/')));
                    if (hops > 0) {
                        send(nodes.get(self), 3 - self - peer, (hops - 1) + "/" + trace.size());
                    }
                }
            };
        }
        nodes.addAll(start(network, handlers));
        for (int i = 0; i < 20; i++) {
            send(nodes.get(i % 3), (i + 1) % 3, "5/" + i);
        }
        network.deliverAll(1_000);
        return trace;
    }

    @Test
    void theSeedDeterminesTheSchedule() {
        for (boolean reorder : new boolean[] {false, true}) {
            assertThat(trace(42, reorder)).hasSize(120).isEqualTo(trace(42, reorder));
            assertThat(trace(42, reorder)).isNotEqualTo(trace(43, reorder));
        }
    }

    @Test
    void aKilledNodeLosesItsMessagesAndIsReportedOnceAtALaterStep() {
        ControlledNetwork network = new ControlledNetwork(3, 3);
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = start(network, inboxes);
        send(nodes.get(2), 0, "from the dead");
        send(nodes.get(0), 2, "to the dead");
        send(nodes.get(0), 1, "survives");
        network.kill(2);
        network.kill(2);
        assertThat(inboxes[0].failures).isEmpty();
        assertThatThrownBy(() -> send(nodes.get(0), 2, "late")).isInstanceOf(PeerFailedException.class)
                .hasMessage("node 2 failed: controlled:3 was killed");
        assertThatThrownBy(() -> send(nodes.get(2), 0, "ghost")).isInstanceOf(IllegalStateException.class);
        assertThat(network.pending()).isEqualTo(3);
        network.deliverAll(10);
        assertThat(inboxes[0].messages).isEmpty();
        assertThat(inboxes[1].messages).containsExactly("0:survives");
        assertThat(inboxes[2].messages).isEmpty();
        for (int node = 0; node < 2; node++) {
            assertThat(inboxes[node].failures).singleElement().satisfies(f -> assertThat(f.peer()).isEqualTo(2));
        }
        assertThat(inboxes[2].failures).isEmpty();
        send(nodes.get(1), 0, "still talking");
        network.deliverAll(10);
        assertThat(inboxes[0].messages).containsExactly("1:still talking");
    }

    @Test
    void aClosedTransportsMessagesArriveBeforeItsFailure() {
        ControlledNetwork network = new ControlledNetwork(3, 5, true);
        List<String> events = new ArrayList<>();
        Inbox[] inboxes = {new Inbox(), new Inbox(), new Inbox()};
        List<Transport> nodes = start(network, inboxes);
        network.onDelivery(d -> events.add(d.to() + (d.bytes() == null ? " failure" : " message")));
        for (int i = 0; i < 5; i++) {
            send(nodes.get(2), 0, "bye" + i);
        }
        send(nodes.get(0), 2, "unheard");
        nodes.get(2).close();
        nodes.get(2).close();
        assertThatThrownBy(() -> send(nodes.get(2), 0, "x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> send(nodes.get(1), 2, "x")).isInstanceOf(PeerFailedException.class)
                .hasMessage("node 2 failed: controlled:3 closed");
        network.deliverAll(20);
        assertThat(from(inboxes[0], 2)).hasSize(5);
        assertThat(events.stream().filter(e -> e.startsWith("0 ")).toList())
                .containsExactly("0 message", "0 message", "0 message", "0 message", "0 message", "0 failure");
        assertThat(inboxes[1].failures).hasSize(1);
        assertThat(inboxes[2].messages).isEmpty();
    }

    @Test
    void startReturnsAtOnceAndMessagesWaitForTheirReceiver() {
        ControlledNetwork network = new ControlledNetwork(3, 9);
        Inbox late = new Inbox();
        List<Transport> early = start(network, new Inbox(), new Inbox());
        send(early.get(0), 2, "early");
        assertThat(network.step()).isFalse();
        assertThat(network.pending()).isEqualTo(1);
        Transport third = new ControlledTransport(network);
        third.start(config(2), late);
        assertThat(network.step()).isTrue();
        assertThat(late.messages).containsExactly("0:early");
        assertThatThrownBy(() -> new ControlledTransport(network).start(config(2), new Inbox()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void badSendsAreRefusedAsByTheOtherTransports() {
        ControlledNetwork network = new ControlledNetwork(3, 1);
        List<Transport> nodes = start(network, new Inbox(), new Inbox(), new Inbox());
        assertThatThrownBy(() -> send(nodes.get(0), 0, "self")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peer=0 (expected another node of 0..2)");
        assertThatThrownBy(() -> send(nodes.get(0), 3, "none")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peer=3 (expected another node of 0..2)");
        assertThatThrownBy(() -> send(nodes.get(0), 1, "x".repeat(1025))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("length=1025 (expected <= maxMessageBytes=1024)");
        assertThatThrownBy(() -> send(new ControlledTransport(network), 1, "unstarted"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(network.pending()).isZero();
    }

    @Test
    void aThrowingHandlerStopsTheStepAndItsDeliveryRemainsKnown() {
        ControlledNetwork network = new ControlledNetwork(3, 1);
        List<Delivery> seen = new ArrayList<>();
        network.onDelivery(seen::add);
        MessageHandler failing = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                throw new IllegalStateException("handler failed");
            }
        };
        List<Transport> nodes = start(network, new Inbox(), failing, new Inbox());
        send(nodes.get(0), 1, "boom");
        assertThatThrownBy(network::step).isInstanceOf(IllegalStateException.class).hasMessage("handler failed");
        assertThat(seen).isEmpty();
        assertThat(network.latest()).satisfies(d -> {
            assertThat(d.step()).isEqualTo(1);
            assertThat(d.from()).isZero();
            assertThat(d.to()).isEqualTo(1);
            assertThat(new String(d.bytes(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("boom");
        });
    }

    @Test
    void deliverAllFailsWhenTheNodesNeverFallQuiet() {
        ControlledNetwork network = new ControlledNetwork(3, 1);
        List<Transport> nodes = new ArrayList<>();
        MessageHandler pingPong = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                send(nodes.get(1 - peer), peer, "ping");
            }
        };
        nodes.addAll(start(network, pingPong, pingPong, new Inbox()));
        send(nodes.get(0), 1, "ping");
        assertThatThrownBy(() -> network.deliverAll(100)).isInstanceOf(IllegalStateException.class)
                .hasMessage("network did not quiesce within 100 steps (1 deliveries still pending)");
        assertThat(network.steps()).isEqualTo(100);
    }
}
