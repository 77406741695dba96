package io.adaps.consistency;

/**
 * One worker's place in its node's {@link ClusterClocks}: its clock, the clock through which its
 * updates have reached their owners, and what its reads saw. Written by the worker's thread only;
 * the fields others read are volatile, the counters are plain (read racily by metrics, exact once
 * the worker is quiet).
 *
 * <p>"Flushed through {@code f}" means: every update the worker pushed during its clocks
 * {@code < f} has been applied by the row's owner, except those to replicas on this node, which
 * the node's synchronization rounds account for ({@link ClusterClocks#replicasFlushed}).
 */
public final class WorkerClock {
    /** Staleness values counted one by one; larger ones share the last bucket. */
    public static final int BUCKETS = io.adaps.api.StalenessMetrics.BUCKETS;

    volatile long clock;
    volatile long flushed;
    /**
     * The watermark when the worker opened: until its clock passes it, the worker counts as being
     * there, so that a worker opened late (an evaluation's, a new thread's) holds nobody back.
     */
    final long base;
    /** Per table: reads by observed staleness, {@code [0, BUCKETS)} and one bucket for more. */
    private final long[][] reads;
    /** Per table: nanoseconds spent waiting for a fresh enough replica; and waits in advanceClock. */
    private final long[] replicaWaitNanos;
    private long clockWaitNanos;

    WorkerClock(int tables, long base) {
        this.base = base;
        this.flushed = base;
        this.reads = new long[tables][BUCKETS + 1];
        this.replicaWaitNanos = new long[tables];
    }

    /** The worker's clock (any thread). */
    public long clock() {
        return clock;
    }

    /** The clock that counts for the watermark: the worker's, or its {@link #base} while that is later. */
    long effectiveClock() {
        return Math.max(clock, base);
    }

    /** Advances the clock to {@code clock}. Worker thread. */
    public void advanceTo(long clock) {
        this.clock = clock;
    }

    /** Every update of clocks before {@code clock} has been applied by its owner. Worker thread. */
    public void flushedThrough(long clock) {
        if (clock > flushed) {
            flushed = clock;
        }
    }

    /** Counts a read of {@code table} whose value reflects the clocks before {@code reflects}. Worker thread. */
    public void countRead(int table, long reflects) {
        countReads(table, reflects, 1);
    }

    /** Counts {@code reads} reads of {@code table} whose values reflect the clocks before {@code reflects}. Worker thread. */
    public void countReads(int table, long reflects, long reads) {
        long staleness = Math.max(0, clock - reflects);
        this.reads[table][(int) Math.min(staleness, BUCKETS)] += reads;
    }

    /** Adds a wait for a fresh replica of {@code table}. Worker thread. */
    public void addReplicaWait(int table, long nanos) {
        replicaWaitNanos[table] += nanos;
    }

    /** Adds a wait in advanceClock for the slowest worker. Worker thread. */
    public void addClockWait(long nanos) {
        clockWaitNanos += nanos;
    }

    /** Adds this worker's reads of {@code table} by staleness to {@code into} ({@link #BUCKETS} + 1 entries). */
    public void addReads(int table, long[] into) {
        long[] counts = reads[table];
        for (int i = 0; i <= BUCKETS; i++) {
            into[i] += counts[i];
        }
    }

    /** This worker's reads of {@code table}, of any staleness. */
    public long readCount(int table) {
        long sum = 0;
        for (long count : reads[table]) {
            sum += count;
        }
        return sum;
    }

    public long replicaWaitNanos(int table) {
        return replicaWaitNanos[table];
    }

    public long clockWaitNanos() {
        return clockWaitNanos;
    }
}
