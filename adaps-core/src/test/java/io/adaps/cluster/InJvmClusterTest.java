package io.adaps.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Nested;

import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.api.transport.Transport;

/** The cluster guarantees over the in-JVM transport. */
class InJvmClusterTest extends ClusterContract {
    private static final AtomicInteger PORTS = new AtomicInteger(1);
    private final InJvmNetwork network = new InJvmNetwork();

    @Override
    protected Transport newTransport(int node) {
        return new InJvmTransport(network);
    }

    @Override
    protected List<String> addresses(int nodes) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            addresses.add("injvm:" + PORTS.getAndIncrement());
        }
        return addresses;
    }

    /** The relocation guarantees over the same transport. */
    @Nested
    class Relocation extends RelocationContract {
        @Override
        protected Transport newTransport(int node) {
            return InJvmClusterTest.this.newTransport(node);
        }

        @Override
        protected List<String> addresses(int nodes) {
            return InJvmClusterTest.this.addresses(nodes);
        }
    }

    /** The guarantees of every technique over the same transport. */
    @Nested
    class Adaptive extends AdaptiveContract {
        @Override
        protected Transport newTransport(int node) {
            return InJvmClusterTest.this.newTransport(node);
        }

        @Override
        protected List<String> addresses(int nodes) {
            return InJvmClusterTest.this.addresses(nodes);
        }
    }
}
