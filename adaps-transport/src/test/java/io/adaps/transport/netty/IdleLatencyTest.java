package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.transport.PeerAddress;
import io.adaps.testing.TransportContract.Inbox;

/**
 * Batching adds no latency on an idle link: a message is written as soon as it is sent, so a
 * ping-pong round trip takes a fraction of a millisecond, not a flush interval or Nagle's 40 ms (the
 * bound allows for other processes on the test machine).
 */
@ExtendWith(NoLeaks.class)
class IdleLatencyTest {
    private final Nodes nodes = new Nodes();

    @AfterEach
    void close() {
        nodes.close();
    }

    @Test
    void pingPongIsNotHeldBack() throws Exception {
        List<PeerAddress> peers = Ports.loopback(2);
        Thread pinger = Thread.currentThread();
        AtomicInteger pongs = new AtomicInteger();
        NettyTransport[] cluster = new NettyTransport[2];
        Inbox ponger = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                cluster[1].send(peer, buffer, offset, length);
            }
        };
        Inbox pingerInbox = new Inbox() {
            @Override
            public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
                pongs.incrementAndGet();
                LockSupport.unpark(pinger);
            }
        };
        List<NettyTransport> started = nodes.start(List.of(Nodes.config(0, peers), Nodes.config(1, peers)),
                List.of(pingerInbox, ponger));
        cluster[0] = started.get(0);
        cluster[1] = started.get(1);
        UnsafeBuffer ping = new UnsafeBuffer(new byte[16]);
        int rounds = 2_000;
        long[] roundTrips = new long[rounds];
        for (int round = 0; round < rounds; round++) {
            long start = System.nanoTime();
            cluster[0].send(1, ping, 0, ping.capacity());
            while (pongs.get() <= round) {
                // The pong's handler unparks this thread: a polling wait would add its pauses to the
                // measured round trip.
                LockSupport.parkNanos(1_000_000);
            }
            roundTrips[round] = System.nanoTime() - start;
        }
        Arrays.sort(roundTrips);
        long medianMicros = roundTrips[rounds / 2] / 1_000;
        assertThat(medianMicros).as("median round trip in µs").isLessThan(5_000);
    }
}
