package io.adaps.transport.netty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/** Test clusters of {@link NettyTransport}s: configs, concurrent start, an inbox per node. */
final class Nodes implements AutoCloseable {
    private final List<NettyTransport> transports = new CopyOnWriteArrayList<>();

    /** A config like the contract's, with the given timing. */
    static TransportConfig config(int node, List<PeerAddress> peers, Duration heartbeat, Duration failureTimeout,
                                  Duration sendTimeout, int maxMessageBytes, long maxPendingBytes) {
        return new TransportConfig(node, peers, "test", "schema", Duration.ofSeconds(10), heartbeat, failureTimeout,
                sendTimeout, maxMessageBytes, maxPendingBytes);
    }

    /** A config like the contract's. */
    static TransportConfig config(int node, List<PeerAddress> peers) {
        return config(node, peers, Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(5), 1 << 20, 4L << 20);
    }

    /** A transport closed with this object. */
    NettyTransport add(NettyTransport transport) {
        transports.add(transport);
        return transport;
    }

    /** Starts one node per config concurrently, each with its handler; returns when all started. */
    List<NettyTransport> start(List<TransportConfig> configs, List<? extends MessageHandler> handlers) throws Exception {
        List<NettyTransport> started = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            started.add(add(new NettyTransport()));
        }
        Concurrently.run(configs.size(), Duration.ofSeconds(20), i -> started.get(i).start(configs.get(i), handlers.get(i)));
        return started;
    }

    /** Names of live threads that a transport started. */
    static List<String> transportThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith("adaps-netty-")).toList();
    }

    /**
     * Waits (at most 5 s) until no thread that a transport started is alive. Closing awaits the
     * I/O threads' termination, but Netty completes it on each thread just before the thread
     * exits, so a thread may still be alive a moment after close returns (seen under load:
     * "adaps-netty-0-1" right after a failed start).
     */
    static void awaitTransportThreadsEnded() throws InterruptedException {
        Await.until("no transport thread left after close", Duration.ofSeconds(5), Nodes::transportThreads,
                List::isEmpty);
    }

    @Override
    public void close() {
        transports.forEach(NettyTransport::close);
    }
}
