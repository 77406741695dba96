package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Orders the entries of each chunk of the intent schedule by column block, keeping their order
 * within each block: a node steps one block of columns after the other, walking the blocks once
 * per {@value #WALK_BATCHES} mini-batches, instead of all columns in random order.
 *
 * <p><b>The blocks.</b> The columns of each home node, in column order, are cut into
 * {@code ceil(}{@value #BLOCKS}{@code  / nodes)} blocks of nearly equal counts. A node walks the
 * homes starting with its own, then the next node's and so on, each home's blocks in order; on one
 * node that is {@value #BLOCKS} contiguous column ranges.
 *
 * <p><b>Why blocks.</b> A node's steps touch every row of its share and, in random order, every
 * column: on the default data more than a core's 2 MiB L2 cache, so a step's two rows mostly come
 * from further away. Within a block a walk touches an eighth of the columns, which stay cached
 * while the block's entries go by, as in the sub-epochs of a blocked schedule (DSGD: Gemulla,
 * Nijkamp, Haas, Sismanis, "Large-scale matrix factorization with distributed stochastic gradient
 * descent", KDD 2011; LIBMF blocks for the cache the same way), but without moving anything. One
 * node, pinned, median epoch of epochs 2-10, runs in turns with the random order (issue 13): one
 * walk per chunk of 256 batches took the default data 0.314-0.315 s against 0.338-0.339 s and the
 * uniform shape (zipf 0) 0.288-0.289 s against 0.316 s, the same test RMSE (2 pairs each; 4 blocks
 * gave 0.321 and 0.295 s, 16 blocks 0.312 and 0.288 s); 4 walks per chunk 0.318 s and 0.299 s.
 * Within a chunk the order of entries is a detail of Hogwild: the entries were shuffled once, and
 * the chunks, their clocks and so the intents stay the same.
 *
 * <p><b>Why walks of {@value #WALK_BATCHES} batches.</b> On a cluster every node holds replicas of
 * the other homes' columns, and what the replicas take between two synchronization rounds (one per
 * 2 chunks under the examples' {@code essp:4}) is added up at the owner. Walked once per chunk, a
 * block's replicas took each chunk's steps in one burst, and the cluster learned a little less: on
 * 2 pinned nodes the test RMSE after 10 epochs was 0.1101-0.1104 (default data) and 0.1109-0.1118
 * (uniform) against 0.1100-0.1102 and 0.1109-0.1112 in random order, in the reports of
 * docs/benchmarks.md 0.1103-0.1104 against 0.1101-0.1102. Walked 4 times per chunk: 0.1101-0.1102
 * over 5 runs and 0.1110 over 2, epochs as long as in random order on the default data (a node's
 * half of the rows and its columns nearly fit the cache anyway) and on the uniform shape 0.202-0.213 s
 * against 0.210-0.220 s (mean of epochs 2-10).
 *
 * <p><b>Why each node starts with its own home.</b> If every node walked the blocks in the same
 * order, all of them would step the same columns at the same time, and a block's replicas would
 * take their steps from every node at once: on 4 nodes (2 to a core, one walk per chunk) the test
 * RMSE was 0.1120, 0.1184 and 0.1296 against 0.1108-0.1111 in random order. Starting from its own
 * home, a node steps a block while each other node steps a block of another home, so a column's
 * steps come from one node at a time: 0.1111-0.1114 (3 runs each).
 *
 * <p><b>Homes apart.</b> Under {@code ADAPTIVE} a node of the Hogwild plan holds its home's
 * columns owned and the others as replicas, and an in-place step takes the store's owned or
 * replica path per row: in random order the processor mispredicts the path about every other step
 * ({@code ReplicaAccessBenchmark}: 62 ns a step for pairs of random kind against 43-45 ns for runs
 * of one kind). Blocks never mix homes, so the kinds come in runs.
 *
 * <p>The trainer passes the homes of {@link io.adaps.api.Partitioning#RANGE}, the partitioning the
 * examples' nodes use (the builder's default).
 */
final class ColumnBlocks {
    /** Column blocks per walk: at least this many, a whole number per home node. */
    static final int BLOCKS = 8;
    /**
     * Mini-batches per walk over the blocks: a chunk of {@value IntentSchedule#BATCHES_PER_CHUNK}
     * batches walks them 4 times.
     */
    static final int WALK_BATCHES = 64;

    private ColumnBlocks() {
    }

    /**
     * The position of each column's block in node {@code node}'s walk, from 0: the homes in turn
     * from {@code node}'s own, each cut into {@code ceil(BLOCKS / nodes)} blocks in column order.
     *
     * @param homeOf the home node of a column, in {@code 0 .. nodes - 1}
     * @throws IllegalArgumentException if a count is not positive, {@code node} is not one of the
     *                                  nodes, or a home is out of range
     */
    static int[] blockRanks(int numCols, int nodes, int node, IntUnaryOperator homeOf) {
        checkPositive(numCols, "numCols");
        checkPositive(nodes, "nodes");
        checkNotNull(homeOf, "homeOf");
        if (node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (nodes - 1) + ")");
        }
        int[] homes = new int[numCols];
        int[] perHome = new int[nodes];
        for (int col = 0; col < numCols; col++) {
            homes[col] = homeOf.applyAsInt(col);
            if (homes[col] < 0 || homes[col] >= nodes) {
                throw new IllegalArgumentException("homeOf(" + col + ")=" + homes[col] + " (expected 0.."
                        + (nodes - 1) + ")");
            }
            perHome[homes[col]]++;
        }
        int blocksPerHome = (BLOCKS + nodes - 1) / nodes;
        int[] seen = new int[nodes];
        int[] ranks = new int[numCols];
        for (int col = 0; col < numCols; col++) {
            int home = homes[col];
            int block = (int) ((long) seen[home]++ * blocksPerHome / perHome[home]);
            ranks[col] = Math.floorMod(home - node, nodes) * blocksPerHome + block;
        }
        return ranks;
    }

    /**
     * The entries of {@code schedule} with those of every walk stably sorted by the rank of their
     * column's block: the walks are the runs of {@code walkEntries} entries from the start of each
     * chunk (the last of a chunk may be shorter). The chunks of the same entries in this order are
     * the same.
     *
     * @param ranks the rank of each column's block, from {@link #blockRanks}
     * @throws IllegalArgumentException if {@code walkEntries} is not positive, or {@code ranks}
     *                                  does not have a non-negative rank for every column
     */
    static MfData ordered(IntentSchedule schedule, int[] ranks, int walkEntries) {
        checkNotNull(schedule, "schedule");
        checkNotNull(ranks, "ranks");
        checkPositive(walkEntries, "walkEntries");
        MfData data = schedule.entries();
        if (ranks.length != data.numCols()) {
            throw new IllegalArgumentException("ranks.length=" + ranks.length + " (expected " + data.numCols()
                    + ", the columns of " + data + ")");
        }
        int blocks = 0;
        for (int col = 0; col < ranks.length; col++) {
            if (ranks[col] < 0) {
                throw new IllegalArgumentException("ranks[" + col + "]=" + ranks[col] + " (expected >= 0)");
            }
            blocks = Math.max(blocks, ranks[col] + 1);
        }
        int size = data.size();
        int[] rows = new int[size];
        int[] cols = new int[size];
        float[] values = new float[size];
        int[] starts = new int[blocks + 1];
        for (int t = 0; t < schedule.threads(); t++) {
            for (int c = 0; c < schedule.chunks(t); c++) {
                int chunkEnd = schedule.chunkTo(t, c);
                for (int from = schedule.chunkFrom(t, c); from < chunkEnd; from += walkEntries) {
                    sort(data, from, (int) Math.min(chunkEnd, (long) from + walkEntries), ranks, starts, rows, cols,
                            values);
                }
            }
        }
        return new MfData(data.numRows(), data.numCols(), rows, cols, values);
    }

    /** Copies entries {@code [from, to)} of {@code data} to the same places of the arrays, stably sorted by rank. */
    private static void sort(MfData data, int from, int to, int[] ranks, int[] starts, int[] rows, int[] cols,
                             float[] values) {
        int[] inRows = data.rows();
        int[] inCols = data.cols();
        float[] inValues = data.values();
        Arrays.fill(starts, 0);
        for (int i = from; i < to; i++) {
            starts[ranks[inCols[i]] + 1]++;
        }
        starts[0] = from;
        for (int rank = 1; rank < starts.length; rank++) {
            starts[rank] += starts[rank - 1];
        }
        for (int i = from; i < to; i++) {
            int at = starts[ranks[inCols[i]]]++;
            rows[at] = inRows[i];
            cols[at] = inCols[i];
            values[at] = inValues[i];
        }
    }
}
