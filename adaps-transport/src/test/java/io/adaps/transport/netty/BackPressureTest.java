package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract.Inbox;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;

/**
 * A slow receiver holds a fast sender back: the sender blocks and then fails with the send timeout
 * instead of queueing without bound, the memory in use stays bounded, and every message it did send
 * arrives once and in order when the receiver catches up. Answers sent from handlers (on I/O threads)
 * never block, even far beyond the pending limit.
 */
@ExtendWith(NoLeaks.class)
class BackPressureTest {
    private static final int MESSAGE = 1024;
    private static final long MAX_PENDING = 64 * 1024;
    private static final Duration SEND_TIMEOUT = Duration.ofMillis(300);

    private final Nodes nodes = new Nodes();
    private final List<PeerAddress> peers = Ports.loopback(2);

    @AfterEach
    void close() {
        nodes.close();
    }

    /** Counts messages, checks their order, and sleeps on each while {@code slow}. */
    private static final class SlowReceiver implements MessageHandler {
        final AtomicBoolean slow = new AtomicBoolean(true);
        final AtomicLong received = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicInteger failures = new AtomicInteger();

        @Override
        public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
            if (buffer.getLong(offset) != received.getAndIncrement()) {
                outOfOrder.incrementAndGet();
            }
            if (slow.get()) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void onPeerFailure(PeerFailedException failure) {
            failures.incrementAndGet();
        }
    }

    @Test
    void aSlowReceiverHoldsTheSenderBackWithinBoundedMemory() throws Exception {
        SlowReceiver receiver = new SlowReceiver();
        List<TransportConfig> configs = List.of(config(0), config(1));
        List<NettyTransport> cluster = nodes.start(configs, List.of(new Inbox(), receiver));
        long baseline = usedDirectMemory();
        UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE]);
        long sent = 0;
        long peakMemory = 0;
        ClusterException heldBack = null;
        long blockedNanos = 0;
        while (heldBack == null && sent < 200_000) {
            message.putLong(0, sent);
            long before = System.nanoTime();
            try {
                cluster.get(0).send(1, message, 0, MESSAGE);
                sent++;
            } catch (ClusterException e) {
                heldBack = e;
                blockedNanos = System.nanoTime() - before;
            }
            if (sent % 256 == 0) {
                peakMemory = Math.max(peakMemory, usedDirectMemory() - baseline);
            }
        }
        assertThat(heldBack).as("the sender was held back after %d messages", sent).isNotNull()
                .hasMessage("node 0 (" + peers.get(0) + "): sending to node 1 (" + peers.get(1) + ") held back for "
                        + SEND_TIMEOUT + " (peer not keeping up)");
        assertThat(blockedNanos).isGreaterThanOrEqualTo(SEND_TIMEOUT.toNanos());
        assertThat(sent * MESSAGE).as("bytes accepted before the sender was held back").isLessThan(64L << 20);
        assertThat(peakMemory).as("direct memory used while the receiver was slow").isLessThan(32L << 20);

        receiver.slow.set(false);
        long expected = sent;
        Await.until("everything sent arrives", Duration.ofSeconds(20), () -> receiver.received.get() == expected);
        assertThat(receiver.outOfOrder).hasValue(0);
        assertThat(receiver.failures).hasValue(0);
        System.out.printf("sent %d, peak %d, blocked %d ms%n", sent, peakMemory, blockedNanos / 1_000_000);
    }

    @Test
    void answersFromHandlersNeverBlock() throws Exception {
        AtomicInteger echoes = new AtomicInteger();
        MessageHandler[] handlers = new MessageHandler[2];
        List<NettyTransport> cluster = new java.util.ArrayList<>();
        handlers[0] = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                echoes.incrementAndGet();
            }
        };
        handlers[1] = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                for (int copy = 0; copy < 8; copy++) {
                    cluster.get(1).send(peer, buffer, offset, length);
                }
            }
        };
        cluster.addAll(nodes.start(List.of(config(0), config(1)), List.of(handlers)));
        UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE]);
        int messages = 2_000;
        for (int i = 0; i < messages; i++) {
            cluster.get(0).send(1, message, 0, MESSAGE);
        }
        Await.until("all echoes", Duration.ofSeconds(20), () -> echoes.get() == 8 * messages);
    }

    private TransportConfig config(int node) {
        return Nodes.config(node, peers, Duration.ofMillis(500), Duration.ofSeconds(10), SEND_TIMEOUT, MESSAGE,
                MAX_PENDING);
    }

    private static long usedDirectMemory() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }
}
