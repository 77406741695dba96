package io.adaps.node;

import java.util.Arrays;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Messages built while the relocation lock is held and sent after it is released, so that no
 * thread ever waits on the network (back-pressure) while others wait for the lock.
 *
 * <p>Entries are added one at a time with {@link #entry}; consecutive entries for the same peer
 * with the same header (type, flags, table, request id, origin, aux) share one message, up to the
 * maximum message size. Each peer's messages are sent in the order they were begun.
 *
 * <p>Not thread-safe: the {@link Relocator} keeps a pool per thread and hands out one instance per
 * nesting level, so that handling a message delivered to this node itself while an outer one is
 * being sent (see {@link Node#send}) gets its own.
 */
final class Outbound {
    private final int maxMessageBytes;
    private final ExpandableArrayBuffer[] buffers;
    private final int[] positions;
    /** Per peer: where its open message starts, or -1. */
    private final int[] open;
    private final IntArrayList[] starts;
    private final IntArrayList used = new IntArrayList();
    private final Message header = new Message();

    Outbound(int peers, int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
        this.buffers = new ExpandableArrayBuffer[peers];
        this.positions = new int[peers];
        this.open = new int[peers];
        this.starts = new IntArrayList[peers];
        Arrays.fill(open, -1);
    }

    /**
     * Reserves {@code entryLength} bytes for one entry of a message to {@code peer} with the given
     * header; returns the offset at which the caller writes the entry into {@link #buffer(int)}.
     */
    int entry(int peer, MessageType type, int flags, int table, long requestId, int origin, int aux, int entryLength) {
        ExpandableArrayBuffer buffer = buffers[peer];
        if (buffer == null) {
            buffer = buffers[peer] = new ExpandableArrayBuffer(1024);
            starts[peer] = new IntArrayList();
        }
        int start = open[peer];
        if (start < 0 || !sameHeader(buffer, start, type, flags, table, requestId, origin, aux)
                || positions[peer] + entryLength - start > maxMessageBytes) {
            if (starts[peer].isEmpty()) {
                used.add(peer);
            }
            start = positions[peer];
            Message.writeHeader(buffer, start, type, flags, table, 0, requestId, origin, aux);
            starts[peer].add(start);
            open[peer] = start;
            positions[peer] = start + Message.HEADER_LENGTH;
        }
        int at = positions[peer];
        buffer.checkLimit(at + entryLength);
        positions[peer] = at + entryLength;
        header.wrap(buffer, start, Message.HEADER_LENGTH);
        Message.writeCount(buffer, start, header.count() + 1);
        return at;
    }

    /** The buffer that {@link #entry} offsets for {@code peer} point into. */
    MutableDirectBuffer buffer(int peer) {
        return buffers[peer];
    }

    private boolean sameHeader(ExpandableArrayBuffer buffer, int start, MessageType type, int flags, int table,
                               long requestId, int origin, int aux) {
        header.wrap(buffer, start, Message.HEADER_LENGTH);
        return header.type() == type && header.flags() == flags && header.table() == table
                && header.requestId() == requestId && header.origin() == origin && header.aux() == aux;
    }

    /**
     * Sends everything through {@code node}, then empties this instance (also when a send throws).
     * A send to a failed peer is dropped: the peer's failure handling covers its requesters.
     */
    void flush(Node node) {
        try {
            for (int u = 0; u < used.size(); u++) {
                int peer = used.getInt(u);
                IntArrayList peerStarts = starts[peer];
                for (int m = 0; m < peerStarts.size(); m++) {
                    int start = peerStarts.getInt(m);
                    int end = m + 1 < peerStarts.size() ? peerStarts.getInt(m + 1) : positions[peer];
                    node.sendQuietly(peer, buffers[peer], start, end - start);
                }
            }
        } finally {
            clear();
        }
    }

    /** Forgets everything not sent. */
    void clear() {
        for (int u = 0; u < used.size(); u++) {
            int peer = used.getInt(u);
            starts[peer].clear();
            positions[peer] = 0;
            open[peer] = -1;
        }
        used.clear();
    }
}
