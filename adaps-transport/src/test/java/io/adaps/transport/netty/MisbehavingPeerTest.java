package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract;
import io.adaps.testing.TransportContract.Inbox;

/**
 * Connections over plain sockets that send garbage, another protocol version, an oversized length or
 * a foreign handshake are refused and closed by the node with an error logged; the node's real peers
 * do not notice. A handshaken peer that sends a malformed frame is reported failed.
 */
@ExtendWith(NoLeaks.class)
class MisbehavingPeerTest {
    private final Nodes nodes = new Nodes();
    private final List<PeerAddress> peers = Ports.loopback(2);
    private final Inbox[] inboxes = {new Inbox(), new Inbox()};

    @AfterEach
    void close() {
        nodes.close();
    }

    @Test
    void strangersAreRefusedAndTheNodeKeepsServingItsPeers() throws Exception {
        List<NettyTransport> cluster = nodes.start(List.of(Nodes.config(0, peers), Nodes.config(1, peers)), List.of(inboxes));
        int max = Frame.maxLength(1 << 20);
        try (LogCapture log = new LogCapture()) {
            assertRefused(stranger -> stranger.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                    "malformed frame: frame length=1195725856 (expected 2.." + max + ")");
            assertRefused(stranger -> stranger.writeHello(9, 1, "test", "schema"),
                    "malformed frame: protocol version=9 (expected " + TransportConfig.PROTOCOL_VERSION + ")");
            assertRefused(stranger -> stranger.writeRaw(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 4}),
                    "malformed frame: frame length=2147483647 (expected 2.." + max + ")");
            assertRefused(stranger -> stranger.writeFrame(TransportConfig.PROTOCOL_VERSION, Frame.MESSAGES, new byte[8]),
                    "malformed frame: MESSAGES frame before the handshake (expected HANDSHAKE)");
            assertRefused(stranger -> stranger.writeHello(TransportConfig.PROTOCOL_VERSION, 7, "test", "schema"),
                    "node id 7 (expected 1..1)");
            assertRefused(stranger -> stranger.writeHello(TransportConfig.PROTOCOL_VERSION, 1, "test", "schema"),
                    "node 1 (" + peers.get(1) + ") is connected already");
            assertThat(log.text()).contains("ERROR Connection - node 0 (" + peers.get(0) + "): closing the connection with /127.0.0.1:")
                    .contains("protocol version=9 (expected " + TransportConfig.PROTOCOL_VERSION + ")").contains("frame length=2147483647");
        }
        TransportContract.send(cluster.get(0), 1, "still");
        TransportContract.send(cluster.get(1), 0, "here");
        Await.until("messages between the real nodes", Duration.ofSeconds(5),
                () -> inboxes[1].messages.contains("0:still") && inboxes[0].messages.contains("1:here"));
        assertThat(inboxes[0].failures).isEmpty();
        assertThat(inboxes[1].failures).isEmpty();
    }

    static Stream<Arguments> malformedFrames() {
        int max = Frame.maxLength(1 << 20);
        byte version = TransportConfig.PROTOCOL_VERSION;
        return Stream.of(
                Arguments.of(new byte[] {0, 0, 0, 8, version, Frame.MESSAGES, 0, 0, 0, 5, 'a', 'b'},
                        "message length=5 at offset 0 (expected <= 2, the rest of the frame)"),
                Arguments.of(new byte[] {0, 0, 0, 2, 1, Frame.HEARTBEAT}, "protocol version=1 (expected " + version + ")"),
                Arguments.of(new byte[] {0, 0x10, 0, 0x10, version, Frame.MESSAGES}, "frame length=1048592 (expected 2.." + max + ")"),
                Arguments.of(new byte[] {0, 0, 0, 2, version, Frame.HANDSHAKE},
                        "HANDSHAKE frame after the handshake (expected MESSAGES or HEARTBEAT)"));
    }

    @ParameterizedTest
    @MethodSource("malformedFrames")
    void aPeerSendingAMalformedFrameIsReportedFailed(byte[] frame, String problem) throws Exception {
        TransportConfig config = Nodes.config(0, peers);
        NettyTransport node = nodes.add(new NettyTransport());
        Thread starter = new Thread(() -> node.start(config, inboxes[0]));
        starter.start();
        try (FakePeer fake = FakePeer.connect(peers.get(0)); LogCapture log = new LogCapture()) {
            fake.handshake(1, "test", "schema");
            starter.join(5_000);
            fake.writeRaw(frame);
            Await.until("failure of node 1", Duration.ofSeconds(5), () -> !inboxes[0].failures.isEmpty());
            assertThat(inboxes[0].failures).singleElement().satisfies(failure -> {
                assertThat(failure.peer()).isEqualTo(1);
                assertThat(failure).hasMessage("node 1 failed: " + peers.get(1) + ": malformed frame: " + problem);
            });
            assertThat(fake.closedByNode()).isTrue();
            assertThat(log.text()).contains("ERROR Connection - node 0 (" + peers.get(0)
                    + "): closing the connection to node 1 (" + peers.get(1) + "): malformed frame: " + problem);
        }
        assertThat(inboxes[0].messages).isEmpty();
        assertThatThrownBy(() -> TransportContract.send(node, 1, "x")).isInstanceOf(PeerFailedException.class);
    }

    private interface Misbehaviour {
        void perform(FakePeer stranger) throws Exception;
    }

    private void assertRefused(Misbehaviour misbehaviour, String reason) throws Exception {
        try (FakePeer stranger = FakePeer.connect(peers.get(0))) {
            misbehaviour.perform(stranger);
            FakePeer.ReadFrame answer = stranger.readFrame();
            assertThat(answer.type()).isEqualTo(Frame.HANDSHAKE_REFUSED);
            assertThat(answer.bodyText()).isEqualTo(reason);
            assertThat(stranger.closedByNode()).as("closed by the node").isTrue();
        }
    }
}
