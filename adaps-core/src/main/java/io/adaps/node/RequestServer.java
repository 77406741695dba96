package io.adaps.node;

import org.agrona.ExpandableArrayBuffer;

import io.adaps.api.Table;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.store.TableStore;

/**
 * Serves PULL, PUSH and SET requests from other nodes against this node's store, on the transport
 * thread that delivered them (store access is short and never blocks), and answers the requester.
 * A request is checked completely before it changes anything: a malformed one, or one naming rows
 * this node does not hold, is answered with an ERROR and changes nothing.
 */
final class RequestServer {
    /** Per transport thread: the answer being built and a value buffer. */
    private static final class Scratch {
        final ExpandableArrayBuffer answer = new ExpandableArrayBuffer(1024);
        float[] values = new float[64];
    }

    private final Node node;
    private final TableStore[] stores;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    RequestServer(Node node, TableStore[] stores) {
        this.node = node;
        this.stores = stores;
    }

    void serve(int peer, Message request) {
        Scratch s = scratch.get();
        int tableId = request.table();
        if (tableId >= stores.length) {
            answerError(peer, request, s, "table=" + tableId + " (expected 0.." + (stores.length - 1) + ")");
            return;
        }
        Table table = node.tables().get(tableId);
        int valueLength = table.valueLength();
        String problem = request.validate(valueLength);
        if (problem == null) {
            problem = checkRows(request, table);
        }
        if (problem != null) {
            answerError(peer, request, s, problem);
            return;
        }
        if (s.values.length < valueLength) {
            s.values = new float[valueLength];
        }
        TableStore store = stores[tableId];
        int count = request.count();
        MessageType type = request.type();
        if (type == MessageType.PULL) {
            int at = Message.HEADER_LENGTH;
            s.answer.checkLimit(Message.HEADER_LENGTH + count * valueLength * Float.BYTES);
            for (int i = 0; i < count; i++) {
                store.pull(request.pullRow(i), s.values, 0);
                at = Message.writeFloats(s.answer, at, s.values, 0, valueLength);
            }
            Message.writeHeader(s.answer, 0, MessageType.PULL_REPLY, tableId, count, request.requestId());
            node.send(peer, s.answer, 0, at);
            return;
        }
        for (int i = 0; i < count; i++) {
            int entry = request.entryOffset(i, valueLength);
            request.readFloats(entry + Message.ROW_LENGTH, s.values, 0, valueLength);
            if (type == MessageType.PUSH) {
                store.push(request.rowAt(entry), s.values, 0);
            } else {
                store.set(request.rowAt(entry), s.values, 0);
            }
        }
        Message.writeHeader(s.answer, 0, MessageType.ACK, tableId, count, request.requestId());
        node.send(peer, s.answer, 0, Message.HEADER_LENGTH);
    }

    private String checkRows(Message request, Table table) {
        TableStore store = stores[table.id()];
        boolean pull = request.type() == MessageType.PULL;
        for (int i = 0; i < request.count(); i++) {
            long row = pull ? request.pullRow(i) : request.rowAt(request.entryOffset(i, table.valueLength()));
            if (row < 0 || row >= table.rows()) {
                return "row=" + row + " (expected 0.." + (table.rows() - 1) + " in table '" + table.name() + "')";
            }
            if (!store.holds(row)) {
                return "row=" + row + " of table '" + table.name() + "' is not held by " + node.describePeer(node.nodeId());
            }
        }
        return null;
    }

    private void answerError(int peer, Message request, Scratch s, String problem) {
        node.logRefusedRequest(peer, problem);
        int length = Math.min(problem.length(), 1000);
        s.answer.putStringWithoutLengthAscii(Message.HEADER_LENGTH, problem, 0, length);
        Message.writeHeader(s.answer, 0, MessageType.ERROR, 0, length, request.requestId());
        node.send(peer, s.answer, 0, Message.HEADER_LENGTH + length);
    }
}
