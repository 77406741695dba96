package io.adaps.transport.netty;

import java.util.List;

import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.Transport;
import io.adaps.testing.TransportContract;

/** The transport contract on the Netty transport with its default I/O (epoll on Linux). */
@ExtendWith(NoLeaks.class)
class NettyTransportTest extends TransportContract {
    @Override
    protected Transport newTransport() {
        return new NettyTransport();
    }

    @Override
    protected List<PeerAddress> addresses(int nodes) {
        return Ports.loopback(nodes);
    }
}
