package io.adaps.protocol;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Builds messages entry by entry for several destinations at once, each split to fit the maximum
 * message size, and sends them in order. Every part of the node that writes messages uses one:
 * workers for their requests (a destination per peer and table), the servers for their answers
 * and forwarded requests, the manager for its intents (a destination per peer).
 *
 * <p>Consecutive entries for one destination with the same header (type, flags, table, request
 * id, origin, aux) share a message. A new one starts when the header differs, when the entry
 * would make the message longer than {@value #TARGET_MESSAGE_BYTES} bytes (or the maximum, if
 * smaller), or when the <em>answer</em> to the message would be: a pull of many rows is split so
 * that each part's reply fits too. An entry longer than that target still goes, alone in its
 * message, up to the maximum. Messages of about the target size keep a transport's frames within
 * its pooled buffers (Netty's adaptive allocator pools up to 1 MiB, 256 KiB in small heaps, and
 * allocates, zeroes and frees larger ones each time) and its receive buffers from growing by
 * copies; their headers cost 0.02% of the bytes. The count in a
 * message's header is kept current, so a message is ready to send as soon as it is built; a
 * requester may still rewrite its request id ({@link Message#writeRequestId}) to number its parts.
 *
 * <pre>
 *   buffer(d): | header | entry | entry | ... | header | entry | ...
 *              ^ messageStart(d, 0)           ^ messageStart(d, 1)
 * </pre>
 *
 * <p>Not thread-safe; allocation-free once its buffers have grown to the working size.
 */
public final class MessageBatcher {
    /** Where {@link #flush} sends each message. */
    @FunctionalInterface
    public interface Sender {
        /** Sends the message {@code buffer[offset, offset + length)} to {@code destination}. */
        void send(int destination, DirectBuffer buffer, int offset, int length);
    }

    /** The size at which a message with entries in it is closed and the next one started. */
    public static final int TARGET_MESSAGE_BYTES = 256 * 1024;

    private final int maxMessageBytes;
    private final int targetMessageBytes;
    private final MutableDirectBuffer[] buffers;
    private final IntArrayList[] starts;
    private final int[] positions;
    /** Per destination: the open message's start (-1: none), header fields and answer size. */
    private final int[] open;
    private final byte[] openType;
    private final int[] openFlags;
    private final int[] openTable;
    private final long[] openRequestId;
    private final int[] openOrigin;
    private final int[] openAux;
    private final int[] openCount;
    private final long[] openAnswerBytes;
    private final IntArrayList used = new IntArrayList();

    /** A batcher for destinations {@code 0 .. destinations - 1}. */
    public MessageBatcher(int destinations, int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
        this.targetMessageBytes = Math.min(maxMessageBytes, TARGET_MESSAGE_BYTES);
        this.buffers = new MutableDirectBuffer[destinations];
        this.starts = new IntArrayList[destinations];
        this.positions = new int[destinations];
        this.open = new int[destinations];
        this.openType = new byte[destinations];
        this.openFlags = new int[destinations];
        this.openTable = new int[destinations];
        this.openRequestId = new long[destinations];
        this.openOrigin = new int[destinations];
        this.openAux = new int[destinations];
        this.openCount = new int[destinations];
        this.openAnswerBytes = new long[destinations];
        Arrays.fill(open, -1);
    }

    /** {@link #entry(int, MessageType, int, int, long, int, int, int, int)} for a message that is not answered. */
    public int entry(int destination, MessageType type, int flags, int table, long requestId, int origin, int aux,
                     int entryLength) {
        return entry(destination, type, flags, table, requestId, origin, aux, entryLength, 0);
    }

    /**
     * Reserves {@code entryLength} bytes for one entry of a message to {@code destination} with the
     * given header, whose answer will take {@code answerEntryLength} bytes for it; returns the offset
     * at which the caller writes the entry into {@link #buffer(int)}.
     */
    public int entry(int destination, MessageType type, int flags, int table, long requestId, int origin, int aux,
                     int entryLength, int answerEntryLength) {
        MutableDirectBuffer buffer = buffers[destination];
        if (buffer == null) {
            buffer = buffers[destination] = Message.newBuffer(1024);
            starts[destination] = new IntArrayList();
        }
        int start = open[destination];
        if (start < 0 || openType[destination] != type.code || openFlags[destination] != flags
                || openTable[destination] != table || openRequestId[destination] != requestId
                || openOrigin[destination] != origin || openAux[destination] != aux
                || full(destination, start, entryLength, answerEntryLength)) {
            start = startMessage(destination, buffer, type, flags, table, requestId, origin, aux);
        }
        int at = positions[destination];
        buffer.checkLimit(at + entryLength);
        positions[destination] = at + entryLength;
        openAnswerBytes[destination] += answerEntryLength;
        Message.writeCount(buffer, start, ++openCount[destination]);
        return at;
    }

    /**
     * Reserves an entry in the message {@code destination} has open, for a caller that knows the
     * entry belongs to it (the same header as the open message's: the next entry of one request,
     * or of one answer to it). The fast path of a loop over entries; returns the offset as
     * {@link #entry} does, or -1 if there is no open message or the entry (or its answer) would
     * not fit, and the caller then calls {@link #entry}.
     */
    public int append(int destination, int entryLength, int answerEntryLength) {
        int start = open[destination];
        int at = positions[destination];
        if (start < 0 || full(destination, start, entryLength, answerEntryLength)) {
            return -1;
        }
        MutableDirectBuffer buffer = buffers[destination];
        buffer.checkLimit(at + entryLength);
        positions[destination] = at + entryLength;
        openAnswerBytes[destination] += answerEntryLength;
        Message.writeCount(buffer, start, ++openCount[destination]);
        return at;
    }

    /**
     * Whether the message open at {@code start} for {@code destination} cannot take an entry of
     * {@code entryLength} bytes whose answer takes {@code answerEntryLength}: it would pass the
     * target size with entries already in it, or the maximum.
     */
    private boolean full(int destination, int start, int entryLength, long answerEntryLength) {
        long length = (long) positions[destination] + entryLength - start;
        long answer = openAnswerBytes[destination] + answerEntryLength;
        int limit = openCount[destination] > 0 ? targetMessageBytes : maxMessageBytes;
        return length > limit || answer > limit;
    }

    private int startMessage(int destination, MutableDirectBuffer buffer, MessageType type, int flags, int table,
                             long requestId, int origin, int aux) {
        if (starts[destination].isEmpty()) {
            used.add(destination);
        }
        int start = positions[destination];
        buffer.checkLimit(start + Message.HEADER_LENGTH);
        Message.writeHeader(buffer, start, type, flags, table, 0, requestId, origin, aux);
        starts[destination].add(start);
        open[destination] = start;
        openType[destination] = type.code;
        openFlags[destination] = flags;
        openTable[destination] = table;
        openRequestId[destination] = requestId;
        openOrigin[destination] = origin;
        openAux[destination] = aux;
        openCount[destination] = 0;
        openAnswerBytes[destination] = Message.HEADER_LENGTH;
        positions[destination] = start + Message.HEADER_LENGTH;
        return start;
    }

    /** Entries of the message {@code destination} has open: the last entry's index in it is this minus one. */
    public int openCount(int destination) {
        return openCount[destination];
    }

    /** The buffer that {@link #entry} offsets for {@code destination} point into. */
    public MutableDirectBuffer buffer(int destination) {
        return buffers[destination];
    }

    /** Whether no entry was added since the last {@link #clear}. */
    public boolean isEmpty() {
        return used.isEmpty();
    }

    /** How many destinations have messages. */
    public int used() {
        return used.size();
    }

    /** The {@code u}-th destination with messages, in the order they were first written to. */
    public int destination(int u) {
        return used.getInt(u);
    }

    /** Messages built for {@code destination}. */
    public int messages(int destination) {
        IntArrayList list = starts[destination];
        return list == null ? 0 : list.size();
    }

    /** Where message {@code m} of {@code destination} starts in its {@link #buffer}. */
    public int messageStart(int destination, int m) {
        return starts[destination].getInt(m);
    }

    /** The length of message {@code m} of {@code destination}. */
    public int messageLength(int destination, int m) {
        IntArrayList list = starts[destination];
        int end = m + 1 < list.size() ? list.getInt(m + 1) : positions[destination];
        return end - list.getInt(m);
    }

    /** The entries of message {@code m} of {@code destination}. */
    public int messageCount(int destination, int m) {
        return Message.countAt(buffers[destination], messageStart(destination, m));
    }

    /** Sends every message, each destination's in order, then forgets them (also when a send throws). */
    public void flush(Sender sender) {
        try {
            for (int u = 0; u < used.size(); u++) {
                int destination = used.getInt(u);
                for (int m = 0; m < starts[destination].size(); m++) {
                    sender.send(destination, buffers[destination], messageStart(destination, m),
                            messageLength(destination, m));
                }
            }
        } finally {
            clear();
        }
    }

    /** Forgets every message. */
    public void clear() {
        for (int u = 0; u < used.size(); u++) {
            int destination = used.getInt(u);
            starts[destination].clear();
            positions[destination] = 0;
            open[destination] = -1;
        }
        used.clear();
    }
}
