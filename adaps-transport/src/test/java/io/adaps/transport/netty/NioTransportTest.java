package io.adaps.transport.netty;

import java.util.List;

import org.junit.jupiter.api.extension.ExtendWith;

import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.Transport;
import io.adaps.testing.TransportContract;

/** The transport contract on the Netty transport forced to NIO, with two I/O threads per node. */
@ExtendWith(NoLeaks.class)
class NioTransportTest extends TransportContract {
    @Override
    protected Transport newTransport() {
        return new NettyTransport(2, false);
    }

    @Override
    protected List<PeerAddress> addresses(int nodes) {
        return Ports.loopback(nodes);
    }
}
