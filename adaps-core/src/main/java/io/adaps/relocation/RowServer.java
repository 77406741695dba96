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
     * @param update scratch for an entry's values, and {@code answer} for an answer's value (each
     *               the table's value length)
     */
    public void serveOwned(Message request, Table table, float[] update, float[] answer, MessageBatcher out,
                           IntArrayList missing) {
        MessageType type = request.type();
        int valueLength = table.valueLength();
        int entryLength = type.entryLength(valueLength, context.store(table.id()).stride());
        int origin = request.origin();
        long requestId = request.requestId();
        // After the first answer of a kind, the next ones continue its message (MessageBatcher.append).
        boolean answering = false;
        boolean unchanging = false;
        for (int i = 0; i < request.count(); i++) {
            int at = request.entry(i, entryLength);
            long version = 0;
            if (type == MessageType.REFRESH) {
                version = request.versionAt(at + Message.ROW_ENTRY);
            } else if (type != MessageType.PULL) {
                request.readFloats(at + Message.ROW_ENTRY, update, 0, valueLength);
            }
            long result = apply(type, table, request.rowAt(at), update, version, answer);
            if (result < 0) {
                missing.add(at);
                continue;
            }
            MessageType kind = answerType(type, result, version);
            boolean unchanged = kind == MessageType.UNCHANGED;
            write(kind, table, request.intAt(at + Message.ROW_LENGTH), origin, requestId, result, answer,
                    unchanged ? unchanging : answering, out);
            if (unchanged) {
                unchanging = true;
            } else {
                answering = true;
            }
        }
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
        long result = apply(type, table, row, update, version, answer);
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
    private long apply(MessageType type, Table table, long row, float[] update, long version, float[] answer) {
        return Access.of(type).apply(context.store(table.id()), row, update, version, answer);
    }

    /**
     * The store access of each request type, one small method each: the JIT inlines the store's
     * access into it, which it would not do for all five in one method.
     */
    private enum Access {
        PULL {
            @Override
            long apply(TableStore store, long row, float[] update, long version, float[] answer) {
                return store.pullOwned(row, answer, 0) ? 0 : -1;
            }
        },
        PUSH {
            @Override
            long apply(TableStore store, long row, float[] update, long version, float[] answer) {
                return store.pushOwned(row, update, 0) ? 0 : -1;
            }
        },
        SET {
            @Override
            long apply(TableStore store, long row, float[] update, long version, float[] answer) {
                return store.setOwned(row, update, 0) ? 0 : -1;
            }
        },
        SYNC {
            @Override
            long apply(TableStore store, long row, float[] update, long version, float[] answer) {
                return store.syncOwned(row, update, 0, answer, 0);
            }
        },
        REFRESH {
            @Override
            long apply(TableStore store, long row, float[] update, long version, float[] answer) {
                return store.pullOwnedIfChanged(row, version, answer, 0);
            }
        };

        abstract long apply(TableStore store, long row, float[] update, long version, float[] answer);

        static Access of(MessageType type) {
            return switch (type) {
                case PULL -> PULL;
                case PUSH -> PUSH;
                case SET -> SET;
                case SYNC -> SYNC;
                case REFRESH -> REFRESH;
                default -> throw new IllegalArgumentException("type=" + type + " (expected a row request)");
            };
        }
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
