package io.adaps.node;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.api.transport.MessageHandler;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.intent.HomeIntents;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageListener;
import io.adaps.protocol.MessageType;

/**
 * The node's one dispatch table: every message, from the transport or from this node itself,
 * goes to the handler registered for its {@link MessageType}. Messages about a table's rows are
 * checked here first, completely (type, length, table, origin, every row in range): a malformed
 * request is refused with an ERROR to its origin and changes nothing, a malformed message of
 * another kind is logged and dropped. Answers are checked against their request by the
 * {@link io.adaps.rpc.Requester} that gets them.
 *
 * <p>Runs on transport threads (and on any thread that sends this node a message); the table is
 * filled before the node connects and read-only after.
 */
final class Dispatcher implements MessageHandler, MessageListener {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final MessageType[] TYPES = MessageType.values();

    private final NodeContext context;
    private final Peers peers;
    private final MessageListener[] handlers = new MessageListener[TYPES.length];
    private final boolean[] checked = new boolean[TYPES.length];
    private final ThreadLocal<Message> flyweights = ThreadLocal.withInitial(Message::new);

    Dispatcher(NodeContext context) {
        this.context = context;
        this.peers = context.peers();
    }

    /** Hands messages of {@code type} to {@code handler} as they come. */
    Dispatcher on(MessageType type, MessageListener handler) {
        handlers[type.ordinal()] = handler;
        return this;
    }

    /** Hands messages of {@code type}, about rows of a table, to {@code handler} once they are checked. */
    Dispatcher onChecked(MessageType type, MessageListener handler) {
        checked[type.ordinal()] = true;
        return on(type, handler);
    }

    @Override
    public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
        peers.countReceived(length);
        onMessage(peer, flyweights.get().wrap(buffer, offset, length));
    }

    @Override
    public void onMessage(int peer, Message message) {
        MessageType type = message.length() >= Message.HEADER_LENGTH ? message.type() : null;
        if (context.isClosed() && type != MessageType.LEAVE) {
            // Leaving: peers were told, and treat what they still need from here as failed. A peer's
            // LEAVE still counts: this node says its own goodbye only after its manager stopped, and a
            // peer that left meanwhile would otherwise be logged as failed when its connection closes.
            return;
        }
        if (type == null) {
            LOG.error("node {}: dropped a malformed message of {} bytes from {}", context.nodeId(), message.length(),
                    peers.describe(peer));
            return;
        }
        MessageListener handler = handlers[type.ordinal()];
        if (handler == null) {
            LOG.error("node {}: dropped a {} from {} (not handled by node {} with technique {})", context.nodeId(), type,
                    peers.describe(peer), context.nodeId(), context.config().technique());
            return;
        }
        if (checked[type.ordinal()]) {
            String problem = check(message);
            if (problem != null) {
                refuse(peer, message, problem);
                return;
            }
        }
        handler.onMessage(peer, message);
    }

    @Override
    public void onPeerFailure(PeerFailedException failure) {
        peers.markFailed(failure);
    }

    private void refuse(int peer, Message message, String problem) {
        LOG.error("node {}: refused a request from {}: {}", context.nodeId(), peers.describe(peer), problem);
        MessageType type = message.type();
        if (type.isRowRequest() || type == MessageType.LOCALIZE) {
            int origin = message.origin();
            peers.sendError(origin >= 0 && origin < context.clusterSize() ? origin : peer, message.requestId(), -1, problem);
        }
    }

    /** What is wrong with a message about rows of a table, or {@code null}. */
    private String check(Message message) {
        int tableId = message.table();
        if (tableId >= context.tables().size()) {
            return "table=" + tableId + " (expected 0.." + (context.tables().size() - 1) + ")";
        }
        Table table = context.table(tableId);
        int stride = context.store(tableId).stride();
        String problem = message.validate(table.valueLength(), stride);
        if (problem != null) {
            return problem;
        }
        int origin = message.origin();
        if (origin < 0 || origin >= context.clusterSize()) {
            return "origin=" + origin + " (expected a node 0.." + (context.clusterSize() - 1) + ")";
        }
        if (message.type() == MessageType.INTENT && (message.aux() < 0 || message.aux() >= Technique.values().length
                || origin >= HomeIntents.MAX_NODES)) {
            return "aux=" + message.aux() + " from node " + origin + " (expected a technique 0.."
                    + (Technique.values().length - 1) + " from a node below " + HomeIntents.MAX_NODES + ")";
        }
        int entryLength = message.type().entryLength(table.valueLength(), stride);
        for (int i = 0; i < message.count(); i++) {
            long row = message.rowAt(message.entry(i, entryLength));
            if (row < 0 || row >= table.rows()) {
                return "row=" + row + " (expected 0.." + (table.rows() - 1) + " in table '" + table.name() + "')";
            }
        }
        return null;
    }
}
