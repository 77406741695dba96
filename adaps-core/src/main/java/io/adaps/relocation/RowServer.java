package io.adaps.relocation;

import org.agrona.MutableDirectBuffer;

import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.store.TableStore;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Serves row request entries (PULL, PUSH, SET, SYNC, REFRESH) against rows this node owns and
 * writes their answers, addressed to the request's origin: the one place where answers are made,
 * whether the request came straight here ({@link #serveOwned}, from the {@link RequestServer}),
 * was forwarded here, or waited here for its row to arrive ({@link #serve}, from the
 * {@link Relocator}). Replicas never answer other nodes: only the owner does.
 *
 * <h2>Answers</h2>
 * <pre>
 *   PULL     -&gt; PULL_REPLY [index | value]
 *   PUSH/SET -&gt; ACK        [index]
 *   SYNC     -&gt; REFRESHED  [index | version | value]   the delta applied and the value read atomically
 *   REFRESH  -&gt; UNCHANGED  [index | version]           if the replica's version is current,
 *               REFRESHED  [index | version | value]   else
 * </pre>
 * Answers go into a {@link MessageBatcher} whose destinations are <em>lanes</em>, two per peer
 * ({@link #lane}): UNCHANGED answers travel in a lane of their own, so that the two kinds of
 * answers to one REFRESH make two messages however they interleave.
 *
 * <p>Thread-safe: store accesses are the store's, and the caller brings the scratch arrays.
 */
public final class RowServer {
    private final NodeContext context;

    public RowServer(NodeContext context) {
        this.context = context;
    }

    /** The batcher destination of messages to {@code peer} of {@code type}. */
    public static int lane(int peer, MessageType type) {
        return 2 * peer + (type == MessageType.UNCHANGED ? 1 : 0);
    }

    /** Lanes of a cluster of {@code nodes} nodes. */
    public static int lanes(int nodes) {
        return 2 * nodes;
    }

    /** The peer a lane leads to. */
    public static int peerOf(int lane) {
        return lane >> 1;
    }

    /**
     * Sends a batcher's messages by lane through {@code peers}, dropping those to peers that failed
     * meanwhile ({@link Peers#sendQuietly}).
     */
    public static MessageBatcher.Sender laneSender(Peers peers) {
        return (lane, buffer, offset, length) -> peers.sendQuietly(peerOf(lane), buffer, offset, length);
    }

    /**
     * Serves every entry of {@code request} whose row is owned here and answers them into
     * {@code out}, one answer message per kind; appends the buffer offsets of the other entries
     * to {@code missing}.
     *
     * <p>Each request type has a loop of its own (PUSH and SET share one), with its store access
     * and its answer's kind written out, which the JIT compiles with the profile of that type
     * alone. One loop for all types, its access chosen per entry, was compiled first with the
     * profile of the pulls of an evaluation, then thrown away and compiled again, a large method
     * each time, as the first epochs brought pushes, syncs and refreshes (MF on 2 pinned nodes:
     * three compilations, 0.27 s of compiler time in epochs 1-4).
     *
     * @param update scratch for an entry's values, and {@code answer} for an answer's value (each
     *               the table's value length)
     */
    public void serveOwned(Message request, Table table, float[] update, float[] answer, MessageBatcher out,
                           IntArrayList missing) {
        TableStore store = context.store(table.id());
        int entryLength = request.type().entryLength(table.valueLength(), store.stride());
        switch (request.type()) {
            case PULL -> servePulls(request, table, store, entryLength, answer, out, missing);
            case PUSH -> serveWrites(request, table, store, entryLength, false, update, out, missing);
            case SET -> serveWrites(request, table, store, entryLength, true, update, out, missing);
            case SYNC -> serveSyncs(request, table, store, entryLength, update, answer, out, missing);
            case REFRESH -> serveRefreshes(request, table, store, entryLength, answer, out, missing);
            default -> throw notRowRequest(request.type());
        }
    }

    private static void servePulls(Message request, Table table, TableStore store, int entryLength, float[] answer,
                                   MessageBatcher out, IntArrayList missing) {
        // After the first answer, the next ones continue its message (MessageBatcher.append).
        boolean continuing = false;
        for (int i = 0; i < request.count(); i++) {
            int at = request.entry(i, entryLength);
            if (store.pullOwned(request.rowAt(at), answer, 0)) {
                writeAnswer(MessageType.PULL_REPLY, table, request, at, 0, answer, continuing, out);
                continuing = true;
            } else {
                missing.add(at);
            }
        }
    }

    /** Serves PUSH entries, or SET entries if {@code set}. */
    private static void serveWrites(Message request, Table table, TableStore store, int entryLength, boolean set,
                                    float[] update, MessageBatcher out, IntArrayList missing) {
        boolean continuing = false;
        for (int i = 0; i < request.count(); i++) {
            int at = request.entry(i, entryLength);
            request.readFloats(at + Message.ROW_ENTRY, update, 0, table.valueLength());
            long row = request.rowAt(at);
            if (set ? store.setOwned(row, update, 0) : store.pushOwned(row, update, 0)) {
                writeAnswer(MessageType.ACK, table, request, at, 0, update, continuing, out);
                continuing = true;
            } else {
                missing.add(at);
            }
        }
    }

    private static void serveSyncs(Message request, Table table, TableStore store, int entryLength, float[] update,
                                   float[] answer, MessageBatcher out, IntArrayList missing) {
        boolean continuing = false;
        for (int i = 0; i < request.count(); i++) {
            int at = request.entry(i, entryLength);
            request.readFloats(at + Message.ROW_ENTRY, update, 0, table.valueLength());
            long version = store.syncOwned(request.rowAt(at), update, 0, answer, 0);
            if (version >= 0) {
                writeAnswer(MessageType.REFRESHED, table, request, at, version, answer, continuing, out);
                continuing = true;
            } else {
                missing.add(at);
            }
        }
    }

    private static void serveRefreshes(Message request, Table table, TableStore store, int entryLength,
                                       float[] answer, MessageBatcher out, IntArrayList missing) {
        boolean refreshing = false;
        boolean unchanging = false;
        for (int i = 0; i < request.count(); i++) {
            int at = request.entry(i, entryLength);
            long known = request.versionAt(at + Message.ROW_ENTRY);
            long version = store.pullOwnedIfChanged(request.rowAt(at), known, answer, 0);
            if (version < 0) {
                missing.add(at);
            } else if (version == known) {
                writeAnswer(MessageType.UNCHANGED, table, request, at, version, answer, unchanging, out);
                unchanging = true;
            } else {
                writeAnswer(MessageType.REFRESHED, table, request, at, version, answer, refreshing, out);
                refreshing = true;
            }
        }
    }

    /** Answers the entry at {@code at} of {@code request}: see {@link #write}. */
    private static void writeAnswer(MessageType kind, Table table, Message request, int at, long version,
                                    float[] value, boolean continuing, MessageBatcher out) {
        write(kind, table, request.intAt(at + Message.ROW_LENGTH), request.origin(), request.requestId(), version,
                value, continuing, out);
    }

    /**
     * Serves one entry if its row is owned here and writes the answer into {@code out}.
     *
     * @param update  the values of a PUSH, SET or SYNC entry (the table's value length)
     * @param version the version a REFRESH's replica has
     * @param answer  scratch for the answer's value (the table's value length), the caller's own
     * @return {@code false}, changing nothing, if the row is not owned here
     */
    public boolean serve(MessageType type, Table table, long row, int index, int origin, long requestId,
                         float[] update, long version, float[] answer, MessageBatcher out) {
        long result = apply(type, context.store(table.id()), row, update, version, answer);
        if (result < 0) {
            return false;
        }
        write(answerType(type, result, version), table, index, origin, requestId, result, answer, false, out);
        return true;
    }

    /**
     * Applies an entry to the owned row: a PUSH, SET or SYNC with {@code update}; a PULL or SYNC
     * reads the value into {@code answer}, a REFRESH too unless it is still at {@code version}.
     *
     * @return the version of the value read (SYNC, REFRESH), 0 (PULL, PUSH, SET), or -1, changing
     *         nothing, if the row is not owned here
     */
    private static long apply(MessageType type, TableStore store, long row, float[] update, long version,
                              float[] answer) {
        return switch (type) {
            case PULL -> store.pullOwned(row, answer, 0) ? 0 : -1;
            case PUSH -> store.pushOwned(row, update, 0) ? 0 : -1;
            case SET -> store.setOwned(row, update, 0) ? 0 : -1;
            case SYNC -> store.syncOwned(row, update, 0, answer, 0);
            case REFRESH -> store.pullOwnedIfChanged(row, version, answer, 0);
            default -> throw notRowRequest(type);
        };
    }

    private static IllegalArgumentException notRowRequest(MessageType type) {
        return new IllegalArgumentException("type=" + type + " (expected a row request)");
    }

    /** The answer to a request of {@code type} that {@link #apply} served with {@code result}. */
    private static MessageType answerType(MessageType type, long result, long knownVersion) {
        return switch (type) {
            case PULL -> MessageType.PULL_REPLY;
            case PUSH, SET -> MessageType.ACK;
            case SYNC -> MessageType.REFRESHED;
            default -> result == knownVersion ? MessageType.UNCHANGED : MessageType.REFRESHED;
        };
    }

    /**
     * Writes one answer entry: {@code continuing} when an entry of this kind to this origin was
     * written for the same request just before, so that its message is open.
     */
    private static void write(MessageType kind, Table table, int index, int origin, long requestId, long version,
                              float[] value, boolean continuing, MessageBatcher out) {
        int lane = lane(origin, kind);
        int entryLength = kind.entryLength(table.valueLength(), 0);
        int at = continuing ? out.append(lane, entryLength, 0) : -1;
        if (at < 0) {
            at = out.entry(lane, kind, 0, table.id(), requestId, origin, 0, entryLength);
        }
        MutableDirectBuffer buffer = out.buffer(lane);
        at = Message.writeInt(buffer, at, index);
        if (kind == MessageType.REFRESHED || kind == MessageType.UNCHANGED) {
            at = Message.writeVersion(buffer, at, version);
        }
        if (kind == MessageType.PULL_REPLY || kind == MessageType.REFRESHED) {
            Message.writeFloats(buffer, at, value, 0, table.valueLength());
        }
    }
}
