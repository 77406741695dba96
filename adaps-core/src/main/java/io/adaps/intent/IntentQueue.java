package io.adaps.intent;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;
import static io.adaps.util.Checks.checkRange;
import static org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The intents of one worker on their way to the node's manager: a bounded, lock-free queue with
 * one producer (the worker thread, {@link #offer}) and one consumer (the manager thread,
 * {@link #drain}), over an Agrona {@link OneToOneRingBuffer}. Offering writes keys straight into
 * the ring (claim, write in place, commit), so it allocates nothing.
 *
 * <h2>Records</h2>
 * <pre>
 *   0: fromClock (i64)   8: toClock (i64)   16: count (i32)   20: unused (keeps keys 8-aligned)
 *   24: count keys (i64, native byte order)
 * </pre>
 * A record holds at most {@link #keysPerRecord()} keys (Agrona limits a message to an eighth of
 * the ring), so a larger call is split into several records with the same clocks; the consumer
 * sees one {@link IntentSink#onIntents} per record.
 *
 * <h2>All or nothing</h2>
 * An offer either writes all of its records or none: before claiming, the producer replays the
 * ring's placement rule (a record that does not fit before the end of the ring is preceded by a
 * padding record and placed at the start) from the current tail and checks that the last record,
 * plus the header Agrona keeps free behind it, fits within the space the consumer has released.
 * Only the consumer changes the head, and only forward, so space found free stays free and every
 * claim that follows succeeds. A refused offer leaves the queue unchanged and may simply be
 * retried. An offer of more than {@link #maxKeysPerOffer()} keys, which might never fit, is an
 * error rather than a {@code false}.
 */
public final class IntentQueue {
    /** The smallest ring capacity in bytes: a record then holds at least 13 keys. */
    public static final int MIN_CAPACITY = 1024;
    /** The largest ring capacity in bytes. */
    public static final int MAX_CAPACITY = 1 << 30;

    static final int FROM_OFFSET = 0;
    static final int TO_OFFSET = 8;
    static final int COUNT_OFFSET = 16;
    static final int KEYS_OFFSET = 24;
    private static final int INTENT_MSG_TYPE = 1;
    private static final long ROW_BITS = 0xFFFF_FFFFL;

    private final OneToOneRingBuffer ring;
    private final AtomicBuffer buffer;
    private final int capacity;
    private final int keysPerRecord;
    private final int maxKeysPerOffer;
    private final MessageHandler handler = this::onRecord;
    // The sink of the drain in progress; a field, so that a drain allocates no capturing lambda.
    private IntentSink sink;

    /**
     * An empty queue whose ring holds {@code capacityBytes} bytes of records (a power of two from
     * {@link #MIN_CAPACITY} to {@link #MAX_CAPACITY}; the ring's trailer comes on top).
     */
    public IntentQueue(int capacityBytes) {
        if (capacityBytes < MIN_CAPACITY || capacityBytes > MAX_CAPACITY || !BitUtil.isPowerOfTwo(capacityBytes)) {
            throw new IllegalArgumentException("capacityBytes=" + capacityBytes + " (expected a power of two in ["
                    + MIN_CAPACITY + ", " + MAX_CAPACITY + "])");
        }
        buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                capacityBytes + RingBufferDescriptor.TRAILER_LENGTH, BitUtil.CACHE_LINE_LENGTH));
        ring = new OneToOneRingBuffer(buffer);
        capacity = capacityBytes;
        keysPerRecord = (ring.maxMsgLength() - KEYS_OFFSET) / Long.BYTES;
        maxKeysPerOffer = computeMaxKeysPerOffer();
    }

    /** The most keys one record holds; larger offers are split. */
    public int keysPerRecord() {
        return keysPerRecord;
    }

    /** The most keys one offer may carry: an offer of this many always fits into an empty queue. */
    public int maxKeysPerOffer() {
        return maxKeysPerOffer;
    }

    /**
     * Offers the intent to access keys {@code table << 32 | rows[i]} for {@code i} in
     * {@code [offset, offset + count)} during clocks {@code [fromClock, toClock)}. Producer thread only.
     *
     * @return {@code true} if all keys were queued, {@code false} (and nothing queued) if the queue
     *         lacks the space for now
     * @throws IllegalArgumentException if the range, the clocks, the table or a row is invalid, or
     *                                  {@code count > maxKeysPerOffer()}
     */
    public boolean offer(int table, long[] rows, int offset, int count, long fromClock, long toClock) {
        if (table < 0) {
            throw new IllegalArgumentException("table=" + table + " (expected >= 0)");
        }
        checkOffer(rows, "rows", offset, count, fromClock, toClock);
        // One OR over the rows finds whether any row spills into the table bits, without a branch per row.
        long bits = 0;
        for (int i = offset, end = offset + count; i < end; i++) {
            bits |= rows[i];
        }
        if ((bits & ~ROW_BITS) != 0) {
            throw rowOutOfRange(rows, offset, count);
        }
        return write((long) table << 32, rows, offset, count, fromClock, toClock);
    }

    /**
     * Offers the intent to access {@code keys[offset .. offset + count)} during clocks
     * {@code [fromClock, toClock)}. Producer thread only.
     *
     * @return {@code true} if all keys were queued, {@code false} (and nothing queued) if the queue
     *         lacks the space for now
     * @throws IllegalArgumentException if the range or the clocks are invalid, or
     *                                  {@code count > maxKeysPerOffer()}
     */
    public boolean offer(long[] keys, int offset, int count, long fromClock, long toClock) {
        checkOffer(keys, "keys", offset, count, fromClock, toClock);
        return write(0, keys, offset, count, fromClock, toClock);
    }

    /**
     * Passes up to {@code limit} records, oldest first, to {@code sink}: all that wait, if fewer.
     * Consumer thread only. If the sink throws, the record it was given counts as consumed.
     *
     * @return the number of records passed
     */
    public int drain(IntentSink sink, int limit) {
        checkNotNull(sink, "sink");
        checkPositive(limit, "limit");
        this.sink = sink;
        try {
            // Agrona reads up to the end of the ring at most; a second read continues from its start.
            int read = ring.read(handler, limit);
            return read < limit ? read + ring.read(handler, limit - read) : read;
        } finally {
            this.sink = null;
        }
    }

    /** Whether no record waits; exact on the consumer thread while the producer is idle. */
    public boolean isEmpty() {
        return ring.producerPosition() == ring.consumerPosition();
    }

    private void checkOffer(long[] values, String name, int offset, int count, long fromClock, long toClock) {
        checkNotNull(values, name);
        checkRange(offset, count, values.length, "offset", "count", name);
        if (count > maxKeysPerOffer) {
            throw new IllegalArgumentException("count=" + count + " (expected <= maxKeysPerOffer=" + maxKeysPerOffer
                    + ")");
        }
        checkClocks(fromClock, toClock);
    }

    static void checkClocks(long fromClock, long toClock) {
        if (toClock <= fromClock) {
            throw new IllegalArgumentException("toClock=" + toClock + " (expected > fromClock=" + fromClock + ")");
        }
    }

    private static IllegalArgumentException rowOutOfRange(long[] rows, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            if ((rows[i] & ~ROW_BITS) != 0) {
                return new IllegalArgumentException("rows[" + i + "]=" + rows[i] + " (expected 0 <= row < 2^32)");
            }
        }
        throw new AssertionError("no row out of range");
    }

    // Writes keys high | values[i]: high is the table's bits, or 0 for ready-made keys.
    private boolean write(long high, long[] values, int offset, int count, long fromClock, long toClock) {
        if (!fits(count)) {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        int next = offset;
        int remaining = count;
        while (remaining > 0) {
            int n = Math.min(remaining, keysPerRecord);
            int index = ring.tryClaim(INTENT_MSG_TYPE, KEYS_OFFSET + n * Long.BYTES);
            if (index == RingBuffer.INSUFFICIENT_CAPACITY) {
                throw new IllegalStateException("claim failed after its space was checked (Agrona changed its "
                        + "placement rule?): capacity=" + capacity + ", keys=" + n);
            }
            buffer.putLong(index + FROM_OFFSET, fromClock);
            buffer.putLong(index + TO_OFFSET, toClock);
            buffer.putInt(index + COUNT_OFFSET, n);
            int at = index + KEYS_OFFSET;
            for (int i = next, end = next + n; i < end; i++, at += Long.BYTES) {
                buffer.putLong(at, high | values[i]);
            }
            ring.commit(index);
            next += n;
            remaining -= n;
        }
        return true;
    }

    // Replays OneToOneRingBuffer.claimCapacity for the records of count keys: see the class comment.
    private boolean fits(int count) {
        long head = ring.consumerPosition();
        long end = ring.producerPosition();
        int mask = capacity - 1;
        for (int remaining = count; remaining > 0; remaining -= keysPerRecord) {
            int recordLength = recordLength(Math.min(remaining, keysPerRecord));
            int toBufferEnd = capacity - ((int) end & mask);
            if (recordLength > toBufferEnd) {
                end += toBufferEnd; // padding to the end of the ring; the record starts at 0
            }
            end += recordLength;
        }
        return end - head + HEADER_LENGTH <= capacity;
    }

    // Agrona's record for n keys: its header and our payload, already a multiple of its 8-byte alignment.
    private static int recordLength(int keys) {
        return HEADER_LENGTH + KEYS_OFFSET + keys * Long.BYTES;
    }

    // The largest n whose records, plus the worst padding (a record that just misses the end of the
    // ring) and the header kept free, fit into an empty ring wherever its tail stands.
    private int computeMaxKeysPerOffer() {
        int low = 0;
        int high = capacity / Long.BYTES;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (worstCaseBytes(mid) <= capacity) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    private long worstCaseBytes(int keys) {
        long records = (keys + keysPerRecord - 1) / keysPerRecord;
        long largest = recordLength(Math.min(keys, keysPerRecord));
        long padding = largest - HEADER_LENGTH;
        return records * (HEADER_LENGTH + KEYS_OFFSET) + (long) keys * Long.BYTES + padding + HEADER_LENGTH;
    }

    private void onRecord(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
        sink.onIntents(buffer, index + KEYS_OFFSET, buffer.getInt(index + COUNT_OFFSET),
                buffer.getLong(index + FROM_OFFSET), buffer.getLong(index + TO_OFFSET));
    }
}
