package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.PeerAddress;
import io.adaps.testing.Await;
import io.adaps.testing.TransportContract.Inbox;
import io.netty.util.ResourceLeakDetector;

/**
 * Sending and receiving allocate nothing per message beyond pooled frames, measured with the JVM's
 * per-thread allocation counter on the sending thread and on the receiving node's I/O thread. Leak
 * detection, which allocates a tracker per buffer, is off while this test runs.
 */
@ExtendWith(NoLeaks.class)
class SteadyStateAllocationTest {
    private static final int MESSAGES = 200_000;

    private final Nodes nodes = new Nodes();
    private final ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();

    @AfterEach
    void close() {
        nodes.close();
        ResourceLeakDetector.setLevel(level);
    }

    /** Counts messages and remembers its thread. */
    private static final class Counter implements MessageHandler {
        final AtomicLong received = new AtomicLong();
        volatile Thread thread;

        @Override
        public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
            thread = Thread.currentThread();
            received.addAndGet(buffer.getByte(offset));
        }

        @Override
        public void onPeerFailure(PeerFailedException failure) {
            throw new AssertionError(failure);
        }
    }

    @Test
    void messagesAllocateNothingOnEitherSide() throws Exception {
        var threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter available");
        var counter = (com.sun.management.ThreadMXBean) threads;
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        List<PeerAddress> peers = Ports.loopback(2);
        Counter receiver = new Counter();
        List<NettyTransport> cluster = nodes.start(List.of(Nodes.config(0, peers), Nodes.config(1, peers)),
                List.of(new Inbox(), receiver));
        UnsafeBuffer message = new UnsafeBuffer(new byte[48]);
        message.putByte(0, (byte) 1);
        sendAll(cluster.get(0), message, receiver, MESSAGES);

        long sender = Thread.currentThread().getId();
        long receiving = receiver.thread.getId();
        long sentBefore = counter.getThreadAllocatedBytes(sender);
        long receivedBefore = counter.getThreadAllocatedBytes(receiving);
        sendAll(cluster.get(0), message, receiver, MESSAGES);
        long sending = counter.getThreadAllocatedBytes(sender) - sentBefore;
        long receivingBytes = counter.getThreadAllocatedBytes(receiving) - receivedBefore;
        // One object per message would be >= 16 bytes each: 3.2 MB for 200,000 messages. What is
        // allocated is per frame or per drain (a lock queue node when sender and drain contend, the
        // allocator's bookkeeping), typically 5-80 KB in all; allow 4 bytes per message.
        assertThat(sending).as("bytes the sender allocated for %d messages", MESSAGES).isLessThan(4L * MESSAGES);
        assertThat(receivingBytes).as("bytes the receiver allocated for %d messages", MESSAGES).isLessThan(4L * MESSAGES);
    }

    private static void sendAll(NettyTransport sender, UnsafeBuffer message, Counter receiver, int count)
            throws InterruptedException {
        long expected = receiver.received.get() + count;
        for (int i = 0; i < count; i++) {
            sender.send(1, message, 0, message.capacity());
        }
        Await.until("all received", Duration.ofSeconds(20), () -> receiver.received.get() == expected);
    }
}
