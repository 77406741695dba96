package io.adaps.node;

import org.agrona.ExpandableArrayBuffer;

import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.intent.HomeIntents;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Serves the row-carrying messages from other nodes (or from this node's own workers) on the
 * thread that delivered them: PULL, PUSH, SET and REFRESH against the rows this node owns, answered
 * straight to the requester (store access is short and never blocks); LOCALIZE, RELINQUISH,
 * HANDOVER and INTENT, and the rows a request names that are not owned here, go to the
 * {@link Relocator}. Replicas held here never answer other nodes: only an owner does.
 *
 * <p>A message is checked completely before it changes anything: a malformed one is answered
 * with an ERROR (or, if it is not a request, logged) and changes nothing.
 */
final class RequestServer {
    /** Per thread: the answer being built, a value buffer and the entries not held here. */
    private static final class Scratch {
        final ExpandableArrayBuffer answer = new ExpandableArrayBuffer(1024);
        final ExpandableArrayBuffer unchanged = new ExpandableArrayBuffer(1024);
        final IntArrayList missing = new IntArrayList();
        float[] values = new float[64];
    }

    private final Node node;
    private final TableStore[] stores;
    private final Relocator relocator;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    RequestServer(Node node, TableStore[] stores, Relocator relocator) {
        this.node = node;
        this.stores = stores;
        this.relocator = relocator;
    }

    /** Handles a PULL, PUSH, SET, LOCALIZE, RELINQUISH or HANDOVER from {@code peer}. */
    void serve(int peer, Message message) {
        String problem = check(message);
        if (problem != null) {
            MessageType type = message.type();
            node.logRefusedRequest(peer, problem);
            if (type.isRowRequest() || type == MessageType.LOCALIZE) {
                int origin = message.origin();
                node.sendError(origin >= 0 && origin < node.clusterSize() ? origin : peer, message.requestId(), -1, problem);
            }
            return;
        }
        Table table = node.tables().get(message.table());
        switch (message.type()) {
            case PULL, PUSH, SET -> serveRows(message, table);
            // A SYNC pushes, then reads the fresh value: under the relocation lock, which a row is
            // taken out under, so the read cannot miss (that would apply the push twice).
            case SYNC -> relocator.forwardOrQueue(message, table, allEntries(message, table));
            case REFRESH -> serveRefresh(message, table);
            case LOCALIZE -> relocator.onLocalize(message, table);
            case RELINQUISH -> relocator.onRelinquish(message, table);
            case HANDOVER -> relocator.onHandover(peer, message, table);
            case INTENT -> relocator.onIntent(message, table);
            default -> throw new AssertionError(message.type());
        }
    }

    /** Applies the rows held here and answers them; hands the others to the relocator. */
    private void serveRows(Message request, Table table) {
        Scratch s = scratch(table);
        int valueLength = table.valueLength();
        TableStore store = stores[table.id()];
        MessageType type = request.type();
        int entryLength = type.entryLength(valueLength, store.stride());
        boolean answersValues = type == MessageType.PULL;
        int answerEntry = answersValues ? Message.INDEX_LENGTH + valueLength * Float.BYTES : Message.INDEX_LENGTH;
        int count = request.count();
        s.answer.checkLimit(Message.HEADER_LENGTH + count * answerEntry);
        s.missing.clear();
        int at = Message.HEADER_LENGTH;
        int answered = 0;
        for (int i = 0; i < count; i++) {
            int entry = request.entry(i, entryLength);
            long row = request.rowAt(entry);
            if (type != MessageType.PULL) {
                request.readFloats(entry + Message.ROW_ENTRY, s.values, 0, valueLength);
            }
            if (!serveOwned(store, type, row, s.values, s.values)) {
                s.missing.add(entry);
                continue;
            }
            at = Message.writeInt(s.answer, at, request.intAt(entry + Message.ROW_LENGTH));
            if (answersValues) {
                at = Message.writeFloats(s.answer, at, s.values, 0, valueLength);
            }
            answered++;
        }
        if (answered > 0) {
            int origin = request.origin();
            Message.writeHeader(s.answer, 0, answersValues ? MessageType.PULL_REPLY : MessageType.ACK, 0,
                    table.id(), answered, request.requestId(), origin, 0);
            node.sendQuietly(origin, s.answer, 0, at);
        }
        if (!s.missing.isEmpty()) {
            relocator.forwardOrQueue(request, table, s.missing);
        }
    }

    /** This thread's scratch, with room for a value of {@code table}. */
    private Scratch scratch(Table table) {
        Scratch s = scratch.get();
        if (s.values.length < table.valueLength()) {
            s.values = new float[table.valueLength()];
        }
        return s;
    }

    /** The buffer offsets of every entry of {@code message}. */
    private IntArrayList allEntries(Message message, Table table) {
        IntArrayList entries = scratch.get().missing;
        entries.clear();
        int entryLength = message.type().entryLength(table.valueLength(), stores[table.id()].stride());
        for (int i = 0; i < message.count(); i++) {
            entries.add(message.entry(i, entryLength));
        }
        return entries;
    }

    /**
     * Answers a REFRESH: rows owned here whose version is the one the replica has with one
     * UNCHANGED message (versions only), the others with one REFRESHED message (versions and
     * values); rows not owned here go to the relocator.
     */
    private void serveRefresh(Message request, Table table) {
        Scratch s = scratch(table);
        int valueLength = table.valueLength();
        TableStore store = stores[table.id()];
        int entryLength = MessageType.REFRESH.entryLength(valueLength, 0);
        int count = request.count();
        s.answer.checkLimit(Message.HEADER_LENGTH + count * MessageType.REFRESHED.entryLength(valueLength, 0));
        s.unchanged.checkLimit(Message.HEADER_LENGTH + count * MessageType.UNCHANGED.entryLength(valueLength, 0));
        s.missing.clear();
        int refreshedAt = Message.HEADER_LENGTH;
        int unchangedAt = Message.HEADER_LENGTH;
        int refreshed = 0;
        int unchanged = 0;
        for (int i = 0; i < count; i++) {
            int entry = request.entry(i, entryLength);
            long version = store.pullOwnedVersioned(request.rowAt(entry), s.values, 0);
            if (version < 0) {
                s.missing.add(entry);
                continue;
            }
            int index = request.intAt(entry + Message.ROW_LENGTH);
            if (version == request.versionAt(entry + Message.ROW_ENTRY)) {
                unchangedAt = Message.writeInt(s.unchanged, unchangedAt, index);
                unchangedAt = Message.writeVersion(s.unchanged, unchangedAt, version);
                unchanged++;
            } else {
                refreshedAt = Message.writeInt(s.answer, refreshedAt, index);
                refreshedAt = Message.writeVersion(s.answer, refreshedAt, version);
                refreshedAt = Message.writeFloats(s.answer, refreshedAt, s.values, 0, valueLength);
                refreshed++;
            }
        }
        int origin = request.origin();
        if (refreshed > 0) {
            Message.writeHeader(s.answer, 0, MessageType.REFRESHED, 0, table.id(), refreshed, request.requestId(), origin, 0);
            node.sendQuietly(origin, s.answer, 0, refreshedAt);
        }
        if (unchanged > 0) {
            Message.writeHeader(s.unchanged, 0, MessageType.UNCHANGED, 0, table.id(), unchanged, request.requestId(),
                    origin, 0);
            node.sendQuietly(origin, s.unchanged, 0, unchangedAt);
        }
        if (!s.missing.isEmpty()) {
            relocator.forwardOrQueue(request, table, s.missing);
        }
    }

    /**
     * Serves one entry of a PULL, PUSH or SET if this node owns the row: a PULL reads into
     * {@code value}, a PUSH or SET applies {@code update}.
     *
     * @return {@code false}, changing nothing, if the row is not owned here
     */
    static boolean serveOwned(TableStore store, MessageType type, long row, float[] update, float[] value) {
        return switch (type) {
            case PULL -> store.pullOwned(row, value, 0);
            case PUSH -> store.pushOwned(row, update, 0);
            case SET -> store.setOwned(row, update, 0);
            default -> throw new AssertionError(type);
        };
    }

    /** What is wrong with {@code message}, or {@code null}. */
    private String check(Message message) {
        int tableId = message.table();
        if (tableId >= stores.length) {
            return "table=" + tableId + " (expected 0.." + (stores.length - 1) + ")";
        }
        Table table = node.tables().get(tableId);
        String problem = message.validate(table.valueLength(), stores[tableId].stride());
        if (problem != null) {
            return problem;
        }
        int origin = message.origin();
        if (origin < 0 || origin >= node.clusterSize()) {
            return "origin=" + origin + " (expected a node 0.." + (node.clusterSize() - 1) + ")";
        }
        if (message.type() == MessageType.INTENT && (message.aux() < 0 || message.aux() >= Technique.values().length
                || origin >= HomeIntents.MAX_NODES)) {
            return "aux=" + message.aux() + " from node " + origin + " (expected a technique 0.."
                    + (Technique.values().length - 1) + " from a node below " + HomeIntents.MAX_NODES + ")";
        }
        int entryLength = message.type().entryLength(table.valueLength(), stores[tableId].stride());
        for (int i = 0; i < message.count(); i++) {
            long row = message.rowAt(message.entry(i, entryLength));
            if (row < 0 || row >= table.rows()) {
                return "row=" + row + " (expected 0.." + (table.rows() - 1) + " in table '" + table.name() + "')";
            }
        }
        return null;
    }
}
