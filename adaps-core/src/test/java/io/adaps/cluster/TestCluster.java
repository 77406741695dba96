package io.adaps.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import io.adaps.api.AdaPS;
import io.adaps.api.transport.Transport;
import io.adaps.testing.Concurrently;

/**
 * Starts an in-process cluster: one node per thread (a node's build() returns only once all peers
 * are connected), each with its own transport. Closes all on {@link #close()}, or at once if
 * any fails to start.
 */
public final class TestCluster implements AutoCloseable {
    private final List<AdaPS> nodes = new ArrayList<>();
    private final List<Transport> transports = new ArrayList<>();

    /**
     * @param size       nodes
     * @param addresses  one host:port per node
     * @param transports makes node i's transport
     * @param configure  declares the tables (and any other settings) on each node's builder
     */
    public TestCluster(int size, List<String> addresses, IntFunction<Transport> transports,
                       UnaryOperator<AdaPS.Builder> configure) throws InterruptedException {
        this(size, addresses, transports, (id, builder) -> configure.apply(builder));
    }

    /** As above, with settings that may differ per node: {@code configure} gets each node's id. */
    public TestCluster(int size, List<String> addresses, IntFunction<Transport> transports,
                       BiFunction<Integer, AdaPS.Builder, AdaPS.Builder> configure) throws InterruptedException {
        AdaPS[] started = new AdaPS[size];
        for (int i = 0; i < size; i++) {
            this.transports.add(transports.apply(i));
        }
        try {
            Concurrently.run(size, Duration.ofSeconds(60), id -> started[id] = configure.apply(id, AdaPS.builder()
                            .nodeId(id)
                            .peers(addresses)
                            .transport(this.transports.get(id))
                            .connectTimeout(Duration.ofSeconds(20))
                            .heartbeatInterval(Duration.ofMillis(200))
                            .failureTimeout(Duration.ofSeconds(2))
                            .operationTimeout(Duration.ofSeconds(20)))
                    .build());
        } finally {
            for (AdaPS node : started) {
                if (node != null) {
                    nodes.add(node);
                }
            }
            if (nodes.size() != size) {
                close();
            }
        }
    }

    public AdaPS node(int i) {
        return nodes.get(i);
    }

    public int size() {
        return nodes.size();
    }

    /** Node i's transport, to simulate a crash by closing it without the node saying goodbye. */
    public Transport transport(int i) {
        return transports.get(i);
    }

    @Override
    public void close() {
        nodes.forEach(AdaPS::close);
        transports.forEach(Transport::close);
    }
}
