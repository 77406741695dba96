package io.adaps.bench.loopback;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.transport.netty.NettyTransport;

/**
 * {@code n} AdaPS nodes in this JVM, for the benchmarks that need a cluster, connected over loopback TCP by the real Netty transport (each
 * node with its own {@link NettyTransport} and its default single I/O thread), all with the same
 * {@link Technique}: relocation ({@link Technique#RELOCATION_ONLY}) unless the caller chooses
 * another. One table, range partitioned: node {@code i} is home of the {@code i}-th block of
 * {@code ceil(rows / n)} rows ({@link #firstRowOf}). Under {@link Technique#FULL_REPLICATION},
 * node {@code i} therefore holds a replica of every row outside its block from the start.
 */
public final class LoopbackNodes implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private final List<AdaPS> nodes;

    private LoopbackNodes(List<AdaPS> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts {@code n} nodes with {@code table} and returns once they are all connected. They are
     * built at the same time, each on a thread of its own, since {@code build()} blocks until every
     * peer has connected. If one fails, the others are closed and the first failure is thrown.
     */
    public static LoopbackNodes start(int n, TableSpec table) {
        return start(n, table, Technique.RELOCATION_ONLY);
    }

    /** As {@link #start(int, TableSpec)}, with every node running {@code technique}. */
    public static LoopbackNodes start(int n, TableSpec table, Technique technique) {
        return start(n, table, technique, UnaryOperator.identity());
    }

    /**
     * As {@link #start(int, TableSpec, Technique)}, with further settings that {@code configure}
     * makes on every node's builder (a sampling scheme, say).
     */
    public static LoopbackNodes start(int n, TableSpec table, Technique technique,
                                      UnaryOperator<AdaPS.Builder> configure) {
        int[] ports = freePorts(n);
        List<String> peers = new ArrayList<>(n);
        for (int port : ports) {
            peers.add("127.0.0.1:" + port);
        }
        List<CompletableFuture<AdaPS>> starting = new ArrayList<>(n);
        for (int node = 0; node < n; node++) {
            int id = node;
            starting.add(CompletableFuture.supplyAsync(() -> build(id, peers, table, technique, configure),
                    task -> new Thread(task, "start-node-" + id).start()));
        }
        List<AdaPS> started = new ArrayList<>(n);
        RuntimeException failure = forEachCollectingFailures(starting, node -> started.add(node.join()), null);
        if (failure != null) {
            forEachCollectingFailures(started, AdaPS::close, failure);
            throw failure;
        }
        return new LoopbackNodes(List.copyOf(started));
    }

    private static AdaPS build(int nodeId, List<String> peers, TableSpec table, Technique technique,
                               UnaryOperator<AdaPS.Builder> configure) {
        return configure.apply(AdaPS.builder())
                .table(table)
                .partitioning(Partitioning.RANGE)
                .technique(technique)
                .transport(new NettyTransport())
                .nodeId(nodeId)
                .peers(peers)
                .connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    /** Distinct ports free on loopback just now (all sockets are open while picking). */
    private static int[] freePorts(int n) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        List<ServerSocket> sockets = new ArrayList<>(n);
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket socket = new ServerSocket(0, 1, loopback);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Nothing to do: the port is free either way.
                }
            }
        }
    }

    /** Node {@code id}. */
    public AdaPS node(int id) {
        return nodes.get(id);
    }

    /** The first row that node {@code id} is home of (range partitioning). */
    public long firstRowOf(int id) {
        long rows = nodes.get(0).tables().get(0).rows();
        long share = (rows + nodes.size() - 1) / nodes.size();
        return id * share;
    }

    /** Closes every node, in id order, even if closing one fails: connections, I/O threads, buffers. */
    @Override
    public void close() {
        RuntimeException failure = forEachCollectingFailures(nodes, AdaPS::close, null);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Runs {@code action} on every item even if some throw; returns {@code first} (or, if it is
     * {@code null}, the first exception) with the other exceptions suppressed in it.
     */
    private static <T> RuntimeException forEachCollectingFailures(List<T> items, java.util.function.Consumer<T> action,
                                                                 RuntimeException first) {
        RuntimeException failure = first;
        for (T item : items) {
            try {
                action.accept(item);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        return failure;
    }
}
