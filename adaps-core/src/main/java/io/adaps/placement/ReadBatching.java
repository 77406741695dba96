package io.adaps.placement;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.consistency.ClusterClocks;
import io.adaps.consistency.WorkerClock;
import io.adaps.context.NodeContext;
import io.adaps.keys.RowKey;

/**
 * Which tables this node's workers read in batches: in at most {@value #BATCHED_READS_PER_CLOCK}
 * pull calls per worker clock, measured over the last {@value #MEASURED_TICKS} or more clock ticks.
 * The adaptive manager leaves the keys of such tables where they are: it does not track their
 * intents ({@link IntentAgent}), so their homes hear nothing of them.
 *
 * <h2>Why</h2>
 * Placing a key on the node that intends it (relocating it there, or replicating it) saves the
 * remote round trips of the reads that would fetch it; it costs, per key, a relocation (and
 * another when the next node wants it), or a replica's fetch, its share of every
 * synchronization round while it is held, and its drop. A worker that reads a table in one call per
 * clock (a word2vec chunk pulls all the rows it will train at once, as the intents announced)
 * waits for one round trip per clock for all its remote rows together: placing them saves at
 * most that round trip, and the rows' bytes are sent either way. With a thousand or more keys
 * per clock, the placements cost more than they save (word2vec on 2 nodes: 10.1-10.7 s per epoch
 * placing its keys, 7.0-7.5 s leaving them; see docs/benchmarks.md). A worker that reads a
 * table in many small calls per clock (MF: one per mini-batch, 64 per clock) waits for a round
 * trip in each call that touches a remote key; there placement is what makes a cluster fast.
 * Reads are what count: pushes are not waited for.
 *
 * <p>Once workers with a clock have begun to read a table, its intents are held ({@link #HOLD},
 * kept by {@link HeldIntents}) until its rate is known, not placed: a table's first measurement
 * comes after the first {@value #FIRST_TICKS} ticks (reads before the first tick, such as an
 * evaluation of the initial model, do not count), and placements made before it for a table then
 * found read in batches were all undone again (word2vec on 2 nodes: 13,000-16,000 rows relocated and
 * as many replicas created and dropped per node in the first epoch, which took 1.3-1.5x as long as
 * {@code STATIC}'s). A table whose workers have already read it more often than the limit allows,
 * counting each worker's tick in progress as a whole one ({@code reads >}
 * {@value #BATCHED_READS_PER_CLOCK}{@code  * (ticks + workers)}, reads by workers with a clock only,
 * so that no evaluation counts), is known not to be read in batches at once: MF's tables after
 * {@value #BATCHED_READS_PER_CLOCK} + 1 mini-batches. Intents of a table nobody has read yet are
 * placed as intended: a worker may signal intent and wait for its keys before it reads any.
 * The rate is measured again every {@value #CHECK_MILLIS} ms, over {@value #MEASURED_TICKS} ticks or
 * more, so a run whose access pattern changes is followed; a key placed before its table counted
 * as read in batches stays placed until its intent ends and its linger runs out.
 *
 * <p>Manager thread only, except {@link #keysLeftInPlace()} (any thread).
 */
final class ReadBatching {
    private static final Logger LOG = LoggerFactory.getLogger(ReadBatching.class);
    /**
     * The most pull calls per worker clock of a table read in batches: a few (a call per table and
     * clock, one for a sample, an evaluation's between epochs), where a loop over mini-batches
     * makes dozens (MF: over a hundred).
     */
    static final int BATCHED_READS_PER_CLOCK = 8;
    /**
     * The least clock ticks of the node's workers a rate is measured over: enough that the reads
     * of an evaluation between epochs do not tip a table read in batches over the limit.
     */
    static final int MEASURED_TICKS = 16;
    /** The clock ticks of the first measurement: it decides early how a run's first epoch places keys. */
    static final int FIRST_TICKS = 4;
    static final int CHECK_MILLIS = 100;
    /** {@link #placement}: the intent is tracked, its keys placed as intended. */
    static final int TRACK = 0;
    /** {@link #placement}: the intent is left alone, its keys stay where they are. */
    static final int LEAVE = 1;
    /** {@link #placement}: the intent waits until its tables' rates are known. */
    static final int HOLD = 2;

    private final NodeContext context;
    private final ClusterClocks clocks;
    private final long[] lastReads;
    private final long[] counts = new long[WorkerClock.BUCKETS + 1];
    private final boolean[] batched;
    /** Whether a table's rate is known: measured, or beyond the limit before the first measurement. */
    private final boolean[] known;
    /** Whether workers with a clock have read a table (before the first measurement). */
    private final boolean[] reading;
    private volatile long keysLeftInPlace;
    private long lastTicks;
    private boolean measured;
    private long nextCheck;

    ReadBatching(NodeContext context, ClusterClocks clocks) {
        this.context = context;
        this.clocks = clocks;
        this.lastReads = new long[context.tables().size()];
        this.batched = new boolean[context.tables().size()];
        this.known = new boolean[context.tables().size()];
        this.reading = new boolean[context.tables().size()];
    }

    /**
     * What to do with an intent, {@code count} row keys at {@code keys[offset..]}: {@link #TRACK} it
     * if a key's table is known not to be read in batches or not read yet, else {@link #HOLD} it if
     * a key's table's rate is not known yet, else (every table read in batches) {@link #LEAVE} it
     * alone, counted.
     */
    int placement(DirectBuffer keys, int offset, int count) {
        boolean unknown = false;
        for (int i = 0, at = offset; i < count; i++, at += Long.BYTES) {
            int table = RowKey.table(keys.getLong(at));
            if (!batched[table]) {
                if (known[table] || !reading(table)) {
                    return TRACK;
                }
                unknown = true;
            }
        }
        if (unknown) {
            return HOLD;
        }
        keysLeftInPlace += count; // only the manager thread writes
        return LEAVE;
    }

    /** Whether workers with a clock have read {@code table}; seen at once, so that an intent after a read is held. */
    private boolean reading(int table) {
        if (!reading[table]) {
            reading[table] = clocks.clockedReads(table) > 0;
        }
        return reading[table];
    }

    /** Keys of intents left alone because their tables are read in batches (any thread). */
    long keysLeftInPlace() {
        return keysLeftInPlace;
    }

    /**
     * Measures the rates again if {@value #CHECK_MILLIS} ms have passed since the last time at
     * {@code now} (until the first measurement, at every call, marks the tables read beyond the
     * limit already); returns whether a table's rate became known.
     */
    boolean update(long now) {
        boolean learned = !measured && checkEarly();
        if (now - nextCheck < 0) {
            return learned;
        }
        nextCheck = now + CHECK_MILLIS * 1_000_000L;
        long ticks = clocks.ticks();
        if (ticks == 0) {
            for (int t = 0; t < batched.length; t++) {
                lastReads[t] = reads(t); // reads before the first tick (an initial evaluation) do not count
            }
            return learned;
        }
        long elapsed = ticks - lastTicks;
        if (elapsed < (measured ? MEASURED_TICKS : FIRST_TICKS)) {
            return learned;
        }
        for (int t = 0; t < batched.length; t++) {
            long reads = reads(t);
            double perClock = (double) (reads - lastReads[t]) / elapsed;
            boolean inBatches = perClock <= BATCHED_READS_PER_CLOCK;
            if (inBatches != batched[t] || !measured && !known[t]) {
                batched[t] = inBatches;
                if (reads > lastReads[t]) {
                    log(t, String.format("%.1f", perClock), inBatches);
                }
            }
            learned |= !known[t];
            known[t] = true;
            lastReads[t] = reads;
        }
        measured = true;
        lastTicks = ticks;
        return learned;
    }

    /** Before the first measurement: marks the tables read beyond the limit already as not read in batches. */
    private boolean checkEarly() {
        // Each open worker's tick in progress counts as a whole one.
        long limit = BATCHED_READS_PER_CLOCK * (clocks.ticks() + clocks.clockedWorkers());
        boolean learned = false;
        for (int t = 0; t < batched.length; t++) {
            if (known[t]) {
                continue;
            }
            if (clocks.clockedReads(t) > limit) {
                known[t] = true;
                learned = true;
                log(t, "more than " + BATCHED_READS_PER_CLOCK, false);
            }
        }
        return learned;
    }

    private void log(int table, String perClock, boolean inBatches) {
        LOG.info("node {}: table '{}' is read in {} pull calls per worker clock: its keys {}", context.nodeId(),
                context.table(table).name(), perClock,
                inBatches ? "stay where they are (read in batches)" : "are placed where intended");
    }

    private long reads(int table) {
        Arrays.fill(counts, 0);
        clocks.addReads(table, counts);
        long sum = 0;
        for (long count : counts) {
            sum += count;
        }
        return sum;
    }
}
