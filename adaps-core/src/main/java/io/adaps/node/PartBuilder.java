package io.adaps.node;

import org.agrona.ExpandableArrayBuffer;

import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Collects the rows of one operation that go to one (peer, table) into request messages of at
 * most the maximum message size (and whose answers fit it too), remembering where each row's value
 * is in the caller's buffer. Owned by one worker and reused for every operation.
 */
final class PartBuilder {
    final int peer;
    final int table;
    private final int valueLength;
    private final int maxMessageBytes;
    final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1024);
    /** Buffer positions of every row added, in order. */
    final IntArrayList positions = new IntArrayList();
    /** Every row added, in order. */
    final LongArrayList rows = new LongArrayList();
    /** Where each message starts in {@link #buffer}, and its row count. */
    final IntArrayList messageStarts = new IntArrayList();
    final IntArrayList messageCounts = new IntArrayList();
    private MessageType type;
    private int position;
    private int messageStart;
    private int count;
    private long answerBytes;

    PartBuilder(int peer, int table, int valueLength, int maxMessageBytes) {
        this.peer = peer;
        this.table = table;
        this.valueLength = valueLength;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Whether rows were added since the last {@link #clear()}. */
    boolean isEmpty() {
        return positions.isEmpty();
    }

    /** Starts a new operation of {@code operation}'s type. */
    void begin(Operation operation) {
        type = switch (operation) {
            case PULL -> MessageType.PULL;
            case PUSH -> MessageType.PUSH;
            case SET -> MessageType.SET;
            case LOCALIZE -> MessageType.LOCALIZE;
            case SYNC -> MessageType.SYNC;
            case REFRESH -> MessageType.REFRESH;
        };
        positions.clear();
        rows.clear();
        messageStarts.clear();
        messageCounts.clear();
        position = 0;
        count = 0;
    }

    /**
     * Adds {@code row}; its value is (for a pull: will be) at {@code values[valueOffset ..]} (no
     * value for a localize). Each row's index in its message is its position there.
     */
    void add(long row, float[] values, int valueOffset, long version) {
        boolean carriesValue = type == MessageType.PUSH || type == MessageType.SET || type == MessageType.SYNC;
        int requestEntry = type.entryLength(valueLength, 0);
        int answerEntry = type == MessageType.PULL ? MessageType.PULL_REPLY.entryLength(valueLength, 0)
                : type == MessageType.SYNC || type == MessageType.REFRESH
                ? MessageType.REFRESHED.entryLength(valueLength, 0)
                : Message.INDEX_LENGTH;
        if (count == 0 || position + requestEntry > messageStart + maxMessageBytes
                || answerBytes + answerEntry > maxMessageBytes) {
            startMessage();
        }
        position = Message.writeRow(buffer, position, row);
        position = Message.writeInt(buffer, position, count);
        if (carriesValue) {
            position = Message.writeFloats(buffer, position, values, valueOffset, valueLength);
        } else if (type == MessageType.REFRESH) {
            position = Message.writeVersion(buffer, position, version);
        }
        answerBytes += answerEntry;
        positions.add(valueOffset);
        rows.add(row);
        count++;
    }

    private void startMessage() {
        finishMessage();
        messageStart = position;
        position += Message.HEADER_LENGTH;
        answerBytes = Message.HEADER_LENGTH;
        count = 0;
    }

    private void finishMessage() {
        if (count > 0) {
            messageStarts.add(messageStart);
            messageCounts.add(count);
        }
    }

    /**
     * Closes the last message, adds each message to {@code call} as one part (consecutive part
     * indexes) and writes its header with request id {@code requestIdBase | part << 32} and this
     * node as the origin.
     *
     * @return the part index of the first message
     */
    int finish(RemoteCall call, long requestIdBase, int origin) {
        finishMessage();
        count = 0;
        int firstPart = call.parts;
        int first = 0;
        for (int m = 0; m < messageStarts.size(); m++) {
            int entries = messageCounts.getInt(m);
            call.positions.addElements(call.positions.size(), positions.elements(), first, entries);
            call.rows.addElements(call.rows.size(), rows.elements(), first, entries);
            first += entries;
            int part = call.addPart(peer, table, entries);
            Message.writeHeader(buffer, messageStarts.getInt(m), type, 0, table, entries,
                    requestIdBase | ((long) part << 32), origin, 0);
        }
        return firstPart;
    }

    /** Messages of the finished operation. */
    int messages() {
        return messageStarts.size();
    }

    /** Where message {@code m} starts in {@link #buffer}. */
    int messageStart(int m) {
        return messageStarts.getInt(m);
    }

    /** The length of message {@code m}. */
    int messageLength(int m) {
        int end = m + 1 < messageStarts.size() ? messageStarts.getInt(m + 1) : position;
        return end - messageStarts.getInt(m);
    }

    /** Forgets the operation. */
    void clear() {
        positions.clear();
        rows.clear();
        messageStarts.clear();
        messageCounts.clear();
        count = 0;
        position = 0;
    }
}
