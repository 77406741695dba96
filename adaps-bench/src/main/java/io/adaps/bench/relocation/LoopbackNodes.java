package io.adaps.bench.relocation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.transport.netty.NettyTransport;

/**
 * {@code n} AdaPS nodes in this JVM, connected over loopback TCP by the real Netty transport (each
 * node with its own {@link NettyTransport} and its default single I/O thread), with relocation on
 * ({@link Technique#RELOCATION_ONLY}). One table, range partitioned: node {@code i} is home of the
 * {@code i}-th block of {@code ceil(rows / n)} rows ({@link #firstRowOf}).
 */
final class LoopbackNodes implements AutoCloseable {
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
    static LoopbackNodes start(int n, TableSpec table) {
        int[] ports = freePorts(n);
        List<String> peers = new ArrayList<>(n);
        for (int port : ports) {
            peers.add("127.0.0.1:" + port);
        }
        List<CompletableFuture<AdaPS>> starting = new ArrayList<>(n);
        for (int node = 0; node < n; node++) {
            int id = node;
            starting.add(CompletableFuture.supplyAsync(() -> build(id, peers, table),
                    task -> new Thread(task, "start-node-" + id).start()));
        }
        List<AdaPS> started = new ArrayList<>(n);
        RuntimeException failure = null;
        for (CompletableFuture<AdaPS> node : starting) {
            try {
                started.add(node.join());
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            started.forEach(AdaPS::close);
            throw failure;
        }
        return new LoopbackNodes(List.copyOf(started));
    }

    private static AdaPS build(int nodeId, List<String> peers, TableSpec table) {
        return AdaPS.builder()
                .table(table)
                .partitioning(Partitioning.RANGE)
                .technique(Technique.RELOCATION_ONLY)
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
    AdaPS node(int id) {
        return nodes.get(id);
    }

    /** The first row that node {@code id} is home of (range partitioning). */
    long firstRowOf(int id) {
        long rows = nodes.get(0).tables().get(0).rows();
        long share = (rows + nodes.size() - 1) / nodes.size();
        return id * share;
    }

    /** Closes every node, in id order, even if closing one fails: connections, I/O threads, buffers. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (AdaPS node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
