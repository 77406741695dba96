package io.adaps.bench.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.transport.netty.NettyTransport;

/**
 * Two AdaPS nodes in this JVM, connected over loopback TCP by the real Netty transport (each node
 * with its own {@link NettyTransport} and its default single I/O thread). One table, range
 * partitioned: node 0 is home of the first half of its rows, node 1 of the second half, so a
 * worker of node 0 that names only rows of the second half does nothing but remote operations.
 */
final class LoopbackCluster implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private final AdaPS requester;
    private final AdaPS holder;

    private LoopbackCluster(AdaPS requester, AdaPS holder) {
        this.requester = requester;
        this.holder = holder;
    }

    /**
     * Starts both nodes with {@code table} and returns once they are connected. Both are built at
     * the same time, since {@code build()} blocks until every peer has connected.
     */
    static LoopbackCluster start(TableSpec table) {
        int[] ports = freePorts();
        List<String> peers = List.of("127.0.0.1:" + ports[0], "127.0.0.1:" + ports[1]);
        CompletableFuture<AdaPS> node1 = CompletableFuture.supplyAsync(() -> build(1, peers, table),
                task -> new Thread(task, "start-node-1").start());
        AdaPS node0;
        try {
            node0 = build(0, peers, table);
        } catch (RuntimeException e) {
            node1.thenAccept(AdaPS::close);
            throw e;
        }
        try {
            return new LoopbackCluster(node0, node1.join());
        } catch (RuntimeException e) {
            node0.close();
            throw e;
        }
    }

    private static AdaPS build(int nodeId, List<String> peers, TableSpec table) {
        return AdaPS.builder()
                .table(table)
                .partitioning(Partitioning.RANGE)
                .transport(new NettyTransport())
                .nodeId(nodeId)
                .peers(peers)
                .connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    /** Two distinct ports free on loopback just now (both sockets are open while picking). */
    private static int[] freePorts() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket first = new ServerSocket(0, 1, loopback); ServerSocket second = new ServerSocket(0, 1, loopback)) {
            return new int[] {first.getLocalPort(), second.getLocalPort()};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Node 0, whose workers call. */
    AdaPS requester() {
        return requester;
    }

    /** The first row that node 1 is home of: rows from here to the end live at node 1. */
    long firstRemoteRow() {
        long rows = requester.tables().get(0).rows();
        return (rows + 1) / 2;
    }

    /** Closes node 0, then node 1: connections, I/O threads and buffers. */
    @Override
    public void close() {
        try {
            requester.close();
        } finally {
            holder.close();
        }
    }
}
