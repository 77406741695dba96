package io.adaps.rpc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

import io.adaps.api.ClusterException;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * One operation of a worker that has parts at other nodes: which message went where, where each
 * answered value goes in the caller's buffer, and how many parts are still open.
 *
 * <h2>Concurrency</h2>
 * The worker thread fills a call, publishes it with a volatile write of {@code remaining}, then
 * sends the parts. A part's rows may be answered in pieces, by different nodes (rows that moved
 * are forwarded, and their holders answer directly), on transport threads. An answer first locks
 * its part ({@code OPEN -> BUSY}), copies its values into the caller's buffer, subtracts its rows
 * and unlocks: back to {@code OPEN}, or to {@code ANSWERED} when no rows remain, which closes the
 * part. The worker itself closes the parts still open when their peer failed or the operation
 * timed out ({@code OPEN -> FAILED}; only the worker, so that nothing but answers races with it,
 * and it waits out a {@code BUSY} part). Each part is closed exactly once, and closing decrements
 * {@code remaining}. So when {@code remaining} reaches 0 no thread writes into the caller's buffer
 * any more, and the waiting worker (unparked by the last closer) sees every write through the
 * volatile read of {@code remaining}. A call is reused only after that.
 */
public final class RemoteCall {
    static final byte OPEN = 0;
    static final byte BUSY = 1;
    static final byte ANSWERED = 2;
    static final byte FAILED = 3;
    /** Part indexes travel in 16 bits of the request id. */
    static final int MAX_PARTS = 1 << 16;
    private static final VarHandle REMAINING;
    private static final VarHandle FAILURE;
    private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(byte[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            REMAINING = lookup.findVarHandle(RemoteCall.class, "remaining", int.class);
            FAILURE = lookup.findVarHandle(RemoteCall.class, "failure", ClusterException.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread that waits for this call: the one that sent it. */
    private Thread waiter;
    long ticket;
    Operation operation;
    float[] buffer;
    int parts;
    int[] partPeer = new int[4];
    int[] partTable = new int[4];
    int[] partFirst = new int[4];
    int[] partCount = new int[4];
    /** Rows of each part not answered yet; touched only by whoever holds the part. */
    int[] partRemaining = new int[4];
    long[] partSentNanos = new long[4];
    byte[] partState = new byte[4];
    /** Buffer offsets of the values of each part's rows, part after part. */
    final IntArrayList positions = new IntArrayList();
    /** The row ids, in the order of {@link #positions}. */
    final LongArrayList rows = new LongArrayList();
    private volatile int remaining;
    private volatile ClusterException failure;
    /**
     * Marks an entry of {@link #versions} whose row did not change (the rest is its version);
     * {@code UNCHANGED} alone (version 0, which no row has) marks a row not answered.
     */
    public static final long UNCHANGED = Long.MIN_VALUE;
    /**
     * For SYNC and REFRESH: per row, in the order of {@link #rows}, the version its answer carried
     * (or'ed with {@link #UNCHANGED} if only the version came back); {@code UNCHANGED} until then.
     */
    long[] versions = new long[0];
    /** Counts this call's pushes while they are on their way; {@code null} if nothing counts them. */
    InFlightPushes inFlight;
    /** Whether the worker has seen this call's outcome (its failure, if any, is reported once). */
    boolean observed = true;

    RemoteCall() {
    }

    /** Starts filling this call for a new operation; the previous one must be complete. */
    void reset(long ticket, Operation operation, float[] buffer, InFlightPushes inFlight) {
        // Published to answering threads with the call (open()'s volatile write).
        this.waiter = Thread.currentThread();
        this.ticket = ticket;
        this.inFlight = inFlight;
        this.operation = operation;
        this.buffer = buffer;
        this.parts = 0;
        this.positions.clear();
        this.rows.clear();
        this.failure = null;
        this.observed = false;
    }

    /** Adds a part of {@code count} rows whose positions and rows were appended last; returns its index. */
    int addPart(int peer, int table, int count) {
        if (parts == partPeer.length) {
            int grown = parts * 2;
            partPeer = Arrays.copyOf(partPeer, grown);
            partTable = Arrays.copyOf(partTable, grown);
            partFirst = Arrays.copyOf(partFirst, grown);
            partCount = Arrays.copyOf(partCount, grown);
            partRemaining = Arrays.copyOf(partRemaining, grown);
            partSentNanos = Arrays.copyOf(partSentNanos, grown);
            partState = Arrays.copyOf(partState, grown);
        }
        if (parts == MAX_PARTS) {
            throw new IllegalArgumentException("parts=" + parts + " (expected an operation that fits " + MAX_PARTS
                    + " messages; split it)");
        }
        int part = parts++;
        partPeer[part] = peer;
        partTable[part] = table;
        partFirst[part] = positions.size() - count;
        partCount[part] = count;
        partRemaining[part] = count;
        // Release: a transport thread that locks this part also sees the ticket and part fields.
        STATE.setRelease(partState, part, OPEN);
        return part;
    }

    /** Marks the versions of the first {@code rows} rows not answered (SYNC and REFRESH calls). */
    void clearVersions(int rows) {
        if (versions.length < rows) {
            versions = new long[Math.max(rows, versions.length * 2)];
        }
        Arrays.fill(versions, 0, rows, UNCHANGED);
    }

    /** Publishes the filled call: from now on transport threads may close its parts. */
    void open() {
        REMAINING.setVolatile(this, parts);
    }

    /** Whether every part is closed. */
    boolean complete() {
        return remaining == 0;
    }

    /** Locks an open part for an answer, waiting out another answer; {@code false} if it is closed. */
    boolean lockPart(int part) {
        while (true) {
            byte state = (byte) STATE.getVolatile(partState, part);
            if (state == OPEN && STATE.compareAndSet(partState, part, OPEN, BUSY)) {
                return true;
            }
            if (state != OPEN && state != BUSY) {
                return false;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Unlocks a part locked by {@link #lockPart}: {@code OPEN} leaves it open, {@code ANSWERED} or
     * {@code FAILED} closes it.
     */
    void unlockPart(int part, byte state) {
        if (state != OPEN && inFlight != null) {
            // Before the close: once every part is closed the worker may reuse this call.
            inFlight.remove(partTable[part], rows, partFirst[part], partCount[part]);
        }
        STATE.setRelease(partState, part, state);
        if (state != OPEN) {
            close();
        }
    }

    /** Closes a part as failed with {@code cause} unless it is closed already. */
    void failPart(int part, ClusterException cause) {
        if (lockPart(part)) {
            fail(cause);
            unlockPart(part, FAILED);
        }
    }

    /** Whether a part is still open (unlocked or being answered). */
    boolean isOpen(int part) {
        byte state = (byte) STATE.getVolatile(partState, part);
        return state == OPEN || state == BUSY;
    }

    /** Closes a part; the last one wakes the worker. */
    private void close() {
        if ((int) REMAINING.getAndAdd(this, -1) == 1) {
            LockSupport.unpark(waiter);
        }
    }

    /** Records {@code cause} as this call's failure unless one is recorded already. */
    void fail(ClusterException cause) {
        FAILURE.compareAndSet(this, null, cause);
    }

    /** Closes every open part as failed with {@code cause}. Worker thread only. */
    void failAll(ClusterException cause) {
        for (int part = 0; part < parts; part++) {
            failPart(part, cause);
        }
    }

    /** The recorded failure, or {@code null}. */
    public ClusterException failure() {
        return failure;
    }

    // What the caller of a completed call reads (the manager's synchronization rounds).

    /** The parts (messages) of this call. */
    public int parts() {
        return parts;
    }

    /** The table of part {@code part}. */
    public int partTable(int part) {
        return partTable[part];
    }

    /** The index of the first row of part {@code part} among the call's rows. */
    public int partFirst(int part) {
        return partFirst[part];
    }

    /** The rows of part {@code part}. */
    public int partCount(int part) {
        return partCount[part];
    }

    /** The {@code k}-th row of the call. */
    public long row(int k) {
        return rows.getLong(k);
    }

    /** Where the {@code k}-th row's value is in the call's buffer. */
    public int position(int k) {
        return positions.getInt(k);
    }

    /**
     * For SYNC and REFRESH: the version the {@code k}-th row's answer carried, or'ed with
     * {@link #UNCHANGED} if only the version came back; {@code UNCHANGED} alone if it was not answered.
     */
    public long version(int k) {
        return versions[k];
    }
}
