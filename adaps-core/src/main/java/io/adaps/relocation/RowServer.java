package io.adaps.relocation;

import org.agrona.MutableDirectBuffer;

import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.store.TableStore;

/**
 * Serves one entry of a row request (PULL, PUSH, SET, SYNC, REFRESH) against a row this node
 * owns and writes its answer, addressed to the request's origin: the one place where answers are
 * made, whether the request came straight here ({@link RequestServer}), was forwarded here, or
 * waited here for its row to arrive ({@link Relocator}). Replicas never answer other nodes: only
 * the owner does.
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
 * <p>Thread-safe: store accesses are the store's, and the caller brings the scratch array.
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
     * meanwhile ({@link io.adaps.context.Peers#sendQuietly}).
     */
    public static MessageBatcher.Sender laneSender(io.adaps.context.Peers peers) {
        return (lane, buffer, offset, length) -> peers.sendQuietly(peerOf(lane), buffer, offset, length);
    }

    /**
     * Serves one entry if its row is owned here and writes the answer into {@code out}.
     *
     * @param update  the values of a PUSH, SET or SYNC entry (the table's value length)
     * @param version the version a REFRESH's replica has
     * @param value   scratch for the row's value (the table's value length), the caller's own
     * @return {@code false}, changing nothing, if the row is not owned here
     */
    public boolean serve(MessageType type, Table table, long row, int index, int origin, long requestId,
                         float[] update, long version, float[] value, MessageBatcher out) {
        TableStore store = context.store(table.id());
        int valueLength = table.valueLength();
        switch (type) {
            case PULL -> {
                if (!store.pullOwned(row, value, 0)) {
                    return false;
                }
                int at = out.entry(lane(origin, MessageType.PULL_REPLY), MessageType.PULL_REPLY, 0, table.id(), requestId,
                        origin, 0, MessageType.PULL_REPLY.entryLength(valueLength, 0));
                at = Message.writeInt(out.buffer(lane(origin, MessageType.PULL_REPLY)), at, index);
                Message.writeFloats(out.buffer(lane(origin, MessageType.PULL_REPLY)), at, value, 0, valueLength);
            }
            case PUSH, SET -> {
                if (!(type == MessageType.PUSH ? store.pushOwned(row, update, 0) : store.setOwned(row, update, 0))) {
                    return false;
                }
                int at = out.entry(lane(origin, MessageType.ACK), MessageType.ACK, 0, table.id(), requestId, origin, 0,
                        Message.INDEX_LENGTH);
                Message.writeInt(out.buffer(lane(origin, MessageType.ACK)), at, index);
            }
            case SYNC, REFRESH -> {
                long current = type == MessageType.SYNC ? store.syncOwned(row, update, 0, value, 0)
                        : store.pullOwnedVersioned(row, value, 0);
                if (current < 0) {
                    return false;
                }
                answerVersioned(table, origin, requestId, index, current, value,
                        type == MessageType.REFRESH && current == version, out);
            }
            default -> throw new IllegalArgumentException("type=" + type + " (expected a row request)");
        }
        return true;
    }

    private static void answerVersioned(Table table, int origin, long requestId, int index, long version, float[] value,
                                        boolean unchanged, MessageBatcher out) {
        MessageType answer = unchanged ? MessageType.UNCHANGED : MessageType.REFRESHED;
        int lane = lane(origin, answer);
        int at = out.entry(lane, answer, 0, table.id(), requestId, origin, 0, answer.entryLength(table.valueLength(), 0));
        MutableDirectBuffer buffer = out.buffer(lane);
        at = Message.writeInt(buffer, at, index);
        at = Message.writeVersion(buffer, at, version);
        if (!unchanged) {
            Message.writeFloats(buffer, at, value, 0, table.valueLength());
        }
    }
}
