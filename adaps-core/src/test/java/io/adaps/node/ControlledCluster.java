package io.adaps.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.transport.ControlledNetwork;
import io.adaps.api.transport.ControlledNetwork.Delivery;
import io.adaps.api.transport.ControlledTransport;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;

/**
 * The nodes of a cluster with one table, connected by a {@link ControlledNetwork} and built one
 * after the other on the test's thread, plus the questions tests ask about where rows are. Nothing
 * runs unless the test steps the network: every handler runs on the test's thread.
 */
final class ControlledCluster implements AutoCloseable {
    final ControlledNetwork network;
    /** The table as node 0 declared it (same id and rows on every node). */
    final Table table;
    private final AdaPS[] nodes;
    private final List<ControlledTransport> transports = new ArrayList<>();

    ControlledCluster(ControlledNetwork network, TableSpec spec, Partitioning partitioning, Technique technique) {
        this.network = network;
        this.nodes = new AdaPS[network.size()];
        List<String> peers = new ArrayList<>();
        for (int node = 0; node < nodes.length; node++) {
            peers.add("controlled:" + (node + 1));
        }
        try {
            for (int node = 0; node < nodes.length; node++) {
                transports.add(new ControlledTransport(network));
                nodes[node] = AdaPS.builder()
                        .table(spec)
                        .partitioning(partitioning)
                        .technique(technique)
                        .peers(peers)
                        .nodeId(node)
                        .transport(transports.get(node))
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

    AdaPS node(int node) {
        return nodes[node];
    }

    int home(long row) {
        return Internals.home(nodes[0], table, row);
    }

    /** The nodes that hold {@code row} now. */
    int[] holders(long row) {
        int[] holders = new int[nodes.length];
        int count = 0;
        for (int node = 0; node < nodes.length; node++) {
            if (Internals.holdsRow(nodes[node], table, row)) {
                holders[count++] = node;
            }
        }
        return Arrays.copyOf(holders, count);
    }

    /** The first row held by more than one node, or -1: the check after every step, kept cheap. */
    long rowHeldTwice() {
        for (long row = 0; row < table.rows(); row++) {
            boolean held = false;
            for (AdaPS node : nodes) {
                if (Internals.holdsRow(node, table, row)) {
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
        return Internals.directoryOwner(nodes[home(row)], table, row);
    }

    /**
     * A delivery in words: its step, link, message type and header, and its entries, e.g.
     * {@code #12 1->0 PULL o=1 aux=0 id=w0/p0/t5 [3@0, 17@1]} (row@index), with relocation
     * counters ({@code c}) and values where the entries carry them. Request ids are decoded as a
     * worker's ({@code worker/part/ticket}).
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
                .append(" o=").append(message.origin()).append(" aux=").append(message.aux())
                .append(" id=w").append(id >>> 48).append("/p").append((id >>> 32) & 0xFFFF).append("/t").append((int) id);
        int valueLength = table.valueLength();
        int stride = valueLength + table.spec().updateRule().stateLength(valueLength);
        if (type == MessageType.ERROR) {
            return text.append(" '").append(message.errorText()).append('\'').toString();
        }
        if (type == null || message.validate(valueLength, stride) != null) {
            return text.append(" malformed, ").append(bytes.length).append(" bytes").toString();
        }
        int entryLength = type.entryLength(valueLength, stride);
        StringJoiner entries = new StringJoiner(", ", " [", "]");
        for (int i = 0; i < message.count(); i++) {
            int at = message.entry(i, entryLength);
            entries.add(switch (type) {
                case PULL, LOCALIZE -> message.rowAt(at) + "@" + message.intAt(at + Message.ROW_LENGTH);
                case PUSH, SET -> message.rowAt(at) + "@" + message.intAt(at + Message.ROW_LENGTH)
                        + floats(message, at + Message.ROW_ENTRY, valueLength);
                case PULL_REPLY -> "@" + message.intAt(at) + floats(message, at + Message.INDEX_LENGTH, valueLength);
                case ACK -> "@" + message.intAt(at);
                case RELINQUISH -> message.rowAt(at) + "@" + message.intAt(at + Message.ROW_LENGTH)
                        + " c" + message.intAt(at + Message.ROW_ENTRY);
                case HANDOVER -> message.rowAt(at) + "@" + message.intAt(at + Message.ROW_LENGTH)
                        + " c" + message.intAt(at + Message.ROW_ENTRY) + floats(message, at + Message.MOVE_ENTRY, stride);
                default -> "?";
            });
        }
        return text.append(message.count() > 0 ? entries.toString() : "").toString();
    }

    private static String floats(Message message, int at, int count) {
        float[] values = new float[count];
        message.readFloats(at, values, 0, count);
        return Arrays.toString(values);
    }

    /**
     * Closes the nodes (which stops their managers' threads), then the transports; messages still
     * pending are abandoned.
     */
    @Override
    public void close() {
        for (AdaPS node : nodes) {
            if (node != null) {
                node.close();
            }
        }
        for (ControlledTransport transport : transports) {
            transport.close();
        }
    }
}
