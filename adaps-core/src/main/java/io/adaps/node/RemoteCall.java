package io.adaps.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import io.adaps.api.ClusterException;

/**
 * One operation of a worker that has parts at other nodes: which message went where, where each
 * answered value goes in the caller's buffer, and how many parts are still open.
 *
 * <h2>Concurrency</h2>
 * The worker thread fills a call, publishes it with a volatile write of {@code remaining}, then
 * sends the parts. Transport threads close parts as answers arrive; the worker itself closes the
 * parts still open when their peer failed or the operation timed out (only the worker, so that
 * nothing but answers races with it). Each part is closed exactly once: whoever wins the CAS of
 * its state from {@code OPEN} does the work (copies an answer into the caller's buffer, or records
 * a failure) and then decrements {@code remaining}. So when {@code remaining} reaches 0 every write
 * into the caller's buffer has happened, and the waiting worker (unparked by the last closer)
 * sees them through the volatile read of {@code remaining}. A call is reused only after that.
 */
final class RemoteCall {
    static final byte OPEN = 0;
    static final byte ANSWERED = 1;
    static final byte FAILED = 2;
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

    final Thread waiter;
    long ticket;
    Operation operation;
    float[] buffer;
    int parts;
    int[] partPeer = new int[4];
    int[] partTable = new int[4];
    int[] partFirst = new int[4];
    int[] partCount = new int[4];
    long[] partSentNanos = new long[4];
    byte[] partState = new byte[4];
    /** Buffer offsets of the values of each part's rows, part after part. */
    final IntArrayList positions = new IntArrayList();
    private volatile int remaining;
    private volatile ClusterException failure;
    /** Whether the worker has seen this call's outcome (its failure, if any, is reported once). */
    boolean observed = true;

    RemoteCall(Thread waiter) {
        this.waiter = waiter;
    }

    /** Starts filling this call for a new operation; the previous one must be complete. */
    void reset(long ticket, Operation operation, float[] buffer) {
        this.ticket = ticket;
        this.operation = operation;
        this.buffer = buffer;
        this.parts = 0;
        this.positions.clear();
        this.failure = null;
        this.observed = false;
    }

    /** Adds a part of {@code count} rows whose positions were appended last; returns its index. */
    int addPart(int peer, int table, int count) {
        if (parts == partPeer.length) {
            int grown = parts * 2;
            partPeer = Arrays.copyOf(partPeer, grown);
            partTable = Arrays.copyOf(partTable, grown);
            partFirst = Arrays.copyOf(partFirst, grown);
            partCount = Arrays.copyOf(partCount, grown);
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
        // Release: a transport thread that claims this part also sees the ticket and part fields.
        STATE.setRelease(partState, part, OPEN);
        return part;
    }

    /** Publishes the filled call: from now on transport threads may close its parts. */
    void open() {
        REMAINING.setVolatile(this, parts);
    }

    /** Whether every part is closed. */
    boolean complete() {
        return remaining == 0;
    }

    /** Claims an open part for closing; only the winner may touch the part's data. */
    boolean claim(int part, byte outcome) {
        return STATE.compareAndSet(partState, part, OPEN, outcome);
    }

    /** Gives back a part claimed by mistake (an answer that turned out to be for an earlier call). */
    void unclaim(int part, byte outcome) {
        STATE.compareAndSet(partState, part, outcome, OPEN);
    }

    /** Closes a claimed part; the last one wakes the worker. */
    void close() {
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
            if (claim(part, FAILED)) {
                fail(cause);
                close();
            }
        }
    }

    /** The recorded failure, or {@code null}. */
    ClusterException failure() {
        return failure;
    }
}
