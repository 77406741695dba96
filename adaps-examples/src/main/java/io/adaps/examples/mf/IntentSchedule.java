package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;

/**
 * How the threads of one node walk its entries in an epoch of the intent-signalling Hogwild plan
 * ({@link EpochPlan.IntentHogwild}): thread {@code t} takes the contiguous share {@code t} of the
 * entries ({@link ShardPool#shareStart}) and cuts it into chunks of {@link #chunkEntries()}
 * entries ({@value #BATCHES_PER_CHUNK} mini-batches, or fewer so that a share of at least
 * {@value #MIN_CHUNKS} entries has at least {@value #MIN_CHUNKS} chunks; the last chunk of a
 * share may be shorter). A
 * chunk is one tick of the thread's worker clock, and the worker advances its clock after each.
 * At the start of an epoch the worker signals intent for the distinct rows of its share
 * ({@link #shareRows}) for the whole epoch and the next; column intents go in groups of
 * {@value #CHUNKS_PER_INTENT} chunks ({@link #intentEnd}): while it trains the last chunk before a
 * group, the worker signals intent for the columns of the whole group, for the group's clocks.
 *
 * <p>Why the rows once per epoch: the plan deals each row to one node (the hottest to all, every
 * epoch the same way), so a thread uses its share's rows all epoch long, and naming them group
 * after group told the library nothing new. On the tall shape of docs/benchmarks-shapes.md
 * (100,000 x 2,000, whose intents are mostly rows) the managers then tracked 2.4 times fewer
 * keys and took 0.25-0.34 s over epochs 2-10 instead of 0.42-0.48 s, and epochs were 7% shorter
 * (median of 6 pairs, 2 nodes pinned); the default data and the uniform shape ran as before, at
 * the same test RMSE. Columns are shared by the nodes, and which of them a group uses decides
 * whether the library relocates or replicates them, so they stay per group.
 *
 * <p>Why through the next epoch: an intent that ended with its epoch made every row of the share
 * inactive there and active again when the next epoch signalled it, and the evaluation and the
 * barrier between two epochs can outlast the time the library lets an inactive key linger, so
 * some rows were let go and fetched back. Each epoch's intent now still holds the rows when the
 * next one is signalled: on the tall shape the managers took 0.010-0.013 s per epoch instead of
 * 0.021-0.022 s, the training threads 0.22 s instead of 0.23-0.24 s, and epochs 6-14% less (2
 * pairs, 2 nodes pinned, test RMSE 0.1363 against 0.1367); on the default data 2-6% less (6
 * pairs, the same test RMSE), on 4 nodes sharing 2 cores the same (2 pairs). The intent of the
 * last epoch outlasts the run, which costs nothing.
 *
 * <p>The schedule depends only on the entries' order (the shuffled training entries, so on the
 * seed), the number of threads and the batch size: it is the same every epoch and every run.
 */
final class IntentSchedule {
    /**
     * Mini-batches per chunk, i.e. per clock tick. An intent names the distinct rows and columns of
     * its chunks once, however often their entries use them: on the default data a chunk of 256
     * batches (262,144 entries) has a few thousand distinct keys, so intents cost a few percent of
     * the pulls and pushes of the chunk, which name each key once per batch. Much smaller chunks
     * would signal nearly every key of every batch (the keys of one batch are mostly distinct), much
     * larger ones would ask the library to place keys long before they are used and to keep them
     * there after. The clock is also what the consistency model counts: under the examples'
     * {@code essp:4} a node synchronizes its replicas every 2 clocks of its slowest worker, and a
     * worker 4 clocks ahead of the cluster's slowest waits. When this rule was each rise of the
     * cluster's slowest clock: with chunks of 64 batches (a clock every 8 ms on 2 pinned
     * nodes) the rounds came faster than they completed: 306-329 rounds per node in 10 epochs and
     * 0.20-0.39 s of waits for the slowest worker; with 128, 211-222 rounds and 0.09-0.15 s, epochs
     * 9% shorter in the median of 4 pairs (issue 13). With 256, once a key that nodes use one after
     * the other is replicated rather than handed on, epochs were another 7-8% shorter on the
     * uniform, skewed and sparse shapes of docs/benchmarks-shapes.md (2 pairs each), the same on
     * the default data (median ratio 0.98 over 7 pairs) and the tall shape, and first epochs about
     * 10% shorter, at the same test RMSE and the single node as fast as before. Not a flag:
     * ADAPTIVE needs no tuning.
     */
    static final int BATCHES_PER_CHUNK = 256;
    /**
     * The fewest chunks a thread's share is cut into, however few batches it has: the shared hot
     * parameters train on each node's replica between two synchronization rounds, and the rounds
     * follow the clocks. On a small matrix a share of {@value #BATCHES_PER_CHUNK} batches or less
     * was one chunk, so one clock per epoch and a round every other epoch (or every 40 ms): the
     * replicas nearly fitted their node's entries in between, the round added both trajectories
     * (see {@link StepScales}), and the test RMSE of the cluster tests' 400 x 300 matrix on 2 nodes
     * oscillated or stalled in 3 of 9 runs (0.17-0.18 after 9 epochs against the floor's 0.105;
     * 2 of 16 before the rounds followed the workers' clocks, when they came every 20 ms). With at
     * least 4 chunks, 26 runs of 26 ended at 0.105-0.108; with 8, 20 of 20 at 0.105-0.107; with 16,
     * 8 of 8 at 0.105, but the default data's shares (7 chunks of 256 batches per node) became 16
     * chunks and their epochs 6% longer for the extra rounds. At least 4 leaves them as they were.
     */
    static final int MIN_CHUNKS = 4;
    /**
     * Chunks per column intent signal: one signal names the distinct columns of this many chunks,
     * for their clocks (measured when it named their rows too). Signals per chunk (of 64 batches)
     * had each node's manager track about 230,000 keys per epoch of the default data on 2 nodes
     * (most of them the same hot keys chunk after chunk), half of what the manager thread did, on
     * the processor the training thread shares; in groups of 8 such chunks the manager takes
     * 0.026 s of a node's processor per epoch against 0.039 s (medians of 5 runs in turns, 2 pinned
     * nodes), the test RMSE is the same and nearly every access still local (the library's keys
     * linger a second or more after their intents end, so a key used in one chunk of a group was
     * held that long anyway). Groups of 2 chunks of 256 batches name the same 512 batches.
     * Not a flag: ADAPTIVE needs no tuning.
     */
    static final int CHUNKS_PER_INTENT = 2;

    private final MfData entries;
    private final int threads;
    private final int chunkEntries;

    /**
     * The schedule of {@code threads} threads over {@code entries}, in batches of
     * {@code batchSize} entries, whose chunks follow the rule of {@link #chunkEntries()}.
     *
     * @throws IllegalArgumentException if {@code threads} or {@code batchSize} is not positive
     */
    IntentSchedule(MfData entries, int threads, int batchSize) {
        this(entries, threads, batchSize, 0);
    }

    /**
     * The schedule of {@code threads} threads over {@code entries}, in batches of
     * {@code batchSize} entries, whose largest share is cut into {@code chunks} chunks of equal
     * entries (the last maybe shorter), or, if {@code chunks} is 0, into chunks by the rule of
     * {@link #chunkEntries()}. The nodes of a cluster whose shares of the entries follow their
     * speeds ({@link io.adaps.examples.SpeedShares}) cut them into the same number of chunks, the
     * clocks they agreed on ({@link io.adaps.examples.EpochClocks}), so that each node's clock
     * runs through an epoch at the pace of its share and none waits in the clock bound for a node
     * with a smaller share; at even shares the chunks are within a chunk's rounding of the rule's.
     *
     * @throws IllegalArgumentException if {@code threads} or {@code batchSize} is not positive or
     *                                  {@code chunks} is negative
     */
    IntentSchedule(MfData entries, int threads, int batchSize, int chunks) {
        this.entries = checkNotNull(entries, "entries");
        this.threads = checkPositive(threads, "threads");
        checkPositive(batchSize, "batchSize");
        if (chunks < 0) {
            throw new IllegalArgumentException("chunks=" + chunks + " (expected >= 0)");
        }
        long largestShare = shareEnd(0) - shareStart(0);
        for (int thread = 1; thread < threads; thread++) {
            largestShare = Math.max(largestShare, shareEnd(thread) - shareStart(thread));
        }
        this.chunkEntries = chunks > 0
                ? (int) Math.max(1, (largestShare + chunks - 1) / chunks)
                : (int) Math.min((long) BATCHES_PER_CHUNK * batchSize, Math.max(1, largestShare / MIN_CHUNKS));
    }

    /** The node's training entries. */
    MfData entries() {
        return entries;
    }

    /** The threads. */
    int threads() {
        return threads;
    }

    /**
     * Entries per chunk (except for the last of a share): by the rule, {@value #BATCHES_PER_CHUNK}
     * batches, or the largest share's {@value #MIN_CHUNKS}th (rounded down, at least 1) if that is
     * less; with a number of chunks given, the largest share's over that number (rounded up).
     */
    int chunkEntries() {
        return chunkEntries;
    }

    /** The chunks of thread {@code thread}'s share; 0 for an empty share. */
    int chunks(int thread) {
        long size = (long) shareEnd(thread) - shareStart(thread);
        return (int) ((size + chunkEntries - 1) / chunkEntries);
    }

    /**
     * The chunk after the last of the intent group that chunk {@code chunk} of thread
     * {@code thread} is in: the next multiple of {@value #CHUNKS_PER_INTENT}, or the share's end.
     */
    int intentEnd(int thread, int chunk) {
        checkChunk(thread, chunk);
        return Math.min(chunks(thread), (chunk / CHUNKS_PER_INTENT + 1) * CHUNKS_PER_INTENT);
    }

    /**
     * The distinct rows of thread {@code thread}'s share, each once, in the order of their first
     * entry; a new array on every call (the trainer keeps one per thread).
     */
    long[] shareRows(int thread) {
        checkThread(thread);
        boolean[] seen = new boolean[entries.numRows()];
        long[] rows = new long[Math.min(entries.numRows(), shareEnd(thread) - shareStart(thread))];
        int count = 0;
        int[] entryRows = entries.rows();
        for (int i = shareStart(thread); i < shareEnd(thread); i++) {
            int row = entryRows[i];
            if (!seen[row]) {
                seen[row] = true;
                rows[count++] = row;
            }
        }
        return Arrays.copyOf(rows, count);
    }

    /** The first entry of chunk {@code chunk} of thread {@code thread}. */
    int chunkFrom(int thread, int chunk) {
        checkChunk(thread, chunk);
        return shareStart(thread) + chunk * chunkEntries;
    }

    /** The end (exclusive) of the entries of chunk {@code chunk} of thread {@code thread}. */
    int chunkTo(int thread, int chunk) {
        checkChunk(thread, chunk);
        return (int) Math.min(shareEnd(thread), (long) shareStart(thread) + (long) (chunk + 1) * chunkEntries);
    }

    private int shareStart(int thread) {
        return ShardPool.shareStart(thread, entries.size(), threads);
    }

    private int shareEnd(int thread) {
        return ShardPool.shareStart(thread + 1, entries.size(), threads);
    }

    private void checkThread(int thread) {
        if (thread < 0 || thread >= threads) {
            throw new IllegalArgumentException("thread=" + thread + " (expected 0.." + (threads - 1) + ")");
        }
    }

    private void checkChunk(int thread, int chunk) {
        checkThread(thread);
        if (chunk < 0 || chunk >= chunks(thread)) {
            throw new IllegalArgumentException("chunk=" + chunk + " (expected 0.." + (chunks(thread) - 1)
                    + ", the chunks of thread " + thread + ")");
        }
    }
}
