package io.adaps.transport.netty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.transport.MessageHandler;
import io.adaps.transport.PeerAddress;
import io.adaps.transport.TransportConfig;

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
        List<Thread> starters = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < configs.size(); i++) {
            NettyTransport transport = add(new NettyTransport());
            started.add(transport);
            TransportConfig config = configs.get(i);
            MessageHandler handler = handlers.get(i);
            Thread starter = new Thread(() -> {
                try {
                    transport.start(config, handler);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            starters.add(starter);
            starter.start();
        }
        for (Thread starter : starters) {
            starter.join(20_000);
        }
        if (failure.get() != null) {
            throw new AssertionError("start failed", failure.get());
        }
        return started;
    }

    static void send(NettyTransport transport, int peer, String text) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[text.length()]);
        buffer.putStringWithoutLengthAscii(0, text);
        transport.send(peer, buffer, 0, text.length());
    }

    static void await(String what, BooleanSupplier condition, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + bound + ": " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Names of live threads that a transport started. */
    static List<String> transportThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith("adaps-netty-")).toList();
    }

    @Override
    public void close() {
        transports.forEach(NettyTransport::close);
    }
}
