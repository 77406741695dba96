package io.adaps.api.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaps.testing.TransportContract;

/** The transport contract on the in-JVM transport. */
class InJvmTransportTest extends TransportContract {
    private static final AtomicInteger PORTS = new AtomicInteger(1);
    private final InJvmNetwork network = new InJvmNetwork();

    @Override
    protected Transport newTransport() {
        return new InJvmTransport(network);
    }

    @Override
    protected List<PeerAddress> addresses(int nodes) {
        List<PeerAddress> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            addresses.add(new PeerAddress("injvm", PORTS.getAndIncrement()));
        }
        return addresses;
    }
}
