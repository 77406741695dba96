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
 * <p>Until the first {@value #FIRST_TICKS} ticks have been measured (reads before the first tick,
 * such as an evaluation of the initial model, do not count) keys are placed as intended. The
 * rate is measured again every {@value #CHECK_MILLIS} ms, over {@value #MEASURED_TICKS} ticks or
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

    private final NodeContext context;
    private final ClusterClocks clocks;
    private final long[] lastReads;
    private final long[] counts = new long[WorkerClock.BUCKETS + 1];
    private final boolean[] batched;
    private volatile long keysLeftInPlace;
    private long lastTicks;
    private boolean measured;
    private long nextCheck;

    ReadBatching(NodeContext context, ClusterClocks clocks) {
        this.context = context;
        this.clocks = clocks;
        this.lastReads = new long[context.tables().size()];
        this.batched = new boolean[context.tables().size()];
    }

    /**
     * Whether the keys of an intent, {@code count} row keys at {@code keys[offset..]}, are all of
     * tables read in batches: then the intent is left alone, and counted.
     */
    boolean leavesInPlace(DirectBuffer keys, int offset, int count) {
        for (int i = 0, at = offset; i < count; i++, at += Long.BYTES) {
            if (!batched[RowKey.table(keys.getLong(at))]) {
                return false;
            }
        }
        keysLeftInPlace += count; // only the manager thread writes
        return true;
    }

    /** Keys of intents left alone because their tables are read in batches (any thread). */
    long keysLeftInPlace() {
        return keysLeftInPlace;
    }

    /** Measures the rates again if {@value #CHECK_MILLIS} ms have passed since the last time at {@code now}. */
    void update(long now) {
        if (now - nextCheck < 0) {
            return;
        }
        nextCheck = now + CHECK_MILLIS * 1_000_000L;
        long ticks = clocks.ticks();
        if (ticks == 0) {
            for (int t = 0; t < batched.length; t++) {
                lastReads[t] = reads(t); // reads before the first tick (an initial evaluation) do not count
            }
            return;
        }
        long elapsed = ticks - lastTicks;
        if (elapsed < (measured ? MEASURED_TICKS : FIRST_TICKS)) {
            return;
        }
        measured = true;
        for (int t = 0; t < batched.length; t++) {
            long reads = reads(t);
            double perClock = (double) (reads - lastReads[t]) / elapsed;
            boolean inBatches = perClock <= BATCHED_READS_PER_CLOCK;
            if (inBatches != batched[t]) {
                batched[t] = inBatches;
                if (reads > lastReads[t]) {
                    LOG.info("node {}: table '{}' is read in {} pull calls per worker clock: its keys {}",
                            context.nodeId(), context.table(t).name(), String.format("%.1f", perClock),
                            inBatches ? "stay where they are (read in batches)" : "are placed where intended");
                }
            }
            lastReads[t] = reads;
        }
        lastTicks = ticks;
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
