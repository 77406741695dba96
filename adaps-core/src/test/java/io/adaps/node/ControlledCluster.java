package io.adaps.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.transport.ControlledNetwork;
import io.adaps.transport.ControlledNetwork.Delivery;
import io.adaps.transport.ControlledTransport;

/**
 * The nodes of a cluster with one table, connected by a {@link ControlledNetwork} and built one
 * after the other on the test's thread, plus the questions tests ask about where rows are. Nothing
 * runs unless the test steps the network: every handler runs on the test's thread.
 */
final class ControlledCluster implements AutoCloseable {
    final ControlledNetwork network;
    /** The table as node 0 declared it (same id and rows on every node). */
    final Table table;
    private final Node[] nodes;

    ControlledCluster(ControlledNetwork network, TableSpec spec, Partitioning partitioning, Technique technique) {
        this.network = network;
        this.nodes = new Node[network.size()];
        List<String> peers = new ArrayList<>();
        for (int node = 0; node < nodes.length; node++) {
            peers.add("controlled:" + (node + 1));
        }
        try {
            for (int node = 0; node < nodes.length; node++) {
                nodes[node] = (Node) AdaPS.builder()
                        .table(spec)
                        .partitioning(partitioning)
                        .technique(technique)
                        .peers(peers)
                        .nodeId(node)
                        .transport(new ControlledTransport(network))
                        .operationTimeout(Duration.ofSeconds(5))
                        .build();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.table = nodes[0].tables().get(0);
    }

    int size() {
        return nodes.length;
    }

    Node node(int node) {
        return nodes[node];
    }

    int home(long row) {
        return nodes[0].home(table, row);
    }

    /** The nodes that hold {@code row} now. */
    int[] holders(long row) {
        int[] holders = new int[nodes.length];
        int count = 0;
        for (int node = 0; node < nodes.length; node++) {
            if (nodes[node].holdsRow(table, row)) {
                holders[count++] = node;
            }
        }
        return Arrays.copyOf(holders, count);
    }

    /** The first row held by more than one node, or -1: the check after every step, kept cheap. */
    long rowHeldTwice() {
        for (long row = 0; row < table.rows(); row++) {
            boolean held = false;
            for (Node node : nodes) {
                if (node.holdsRow(table, row)) {
                    if (held) {
                        return row;
                    }
                    held = true;
                }
            }
        }
        return -1;
    }

    /** The owner of {@code row} by its home's directory. */
    int directoryOwner(long row) {
        return nodes[home(row)].directoryOwner(table, row);
    }

    /**
     * A delivery in words: its step, link, message type and header, and the rows of requests, e.g.
     * {@code #12 1->0 PULL n=2 id=w0/p0/t5 rows=[3, 17]}. Request ids are decoded as a worker's
     * ({@code worker/part/ticket}), which other message types may not follow.
     */
    String describe(Delivery delivery) {
        String link = "#" + delivery.step() + " " + delivery.from() + "->" + delivery.to() + " ";
        if (delivery.bytes() == null) {
            return link + "node " + delivery.from() + " failed";
        }
        byte[] bytes = delivery.bytes();
        if (bytes.length < Message.HEADER_LENGTH) {
            return link + bytes.length + " bytes";
        }
        Message message = new Message().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        MessageType type = message.type();
        long id = message.requestId();
        StringBuilder text = new StringBuilder(link).append(type != null ? type.name() : "type" + bytes[0])
                .append(" n=").append(message.count())
                .append(" id=w").append(id >>> 48).append("/p").append((id >>> 32) & 0xFFFF).append("/t").append((int) id)
                .append(" bytes=").append(bytes.length);
        int valueLength = table.valueLength();
        if ((type == MessageType.PULL || type == MessageType.PUSH || type == MessageType.SET)
                && message.validate(valueLength) == null) {
            long[] rows = new long[message.count()];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = type == MessageType.PULL ? message.pullRow(i) : message.rowAt(message.entryOffset(i, valueLength));
            }
            text.append(" rows=").append(Arrays.toString(rows));
        } else if (type == MessageType.ERROR) {
            text.append(" '").append(message.errorText()).append('\'');
        }
        return text.toString();
    }

    /** Closes every node; messages still pending are abandoned. */
    @Override
    public void close() {
        for (Node node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
