package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNotNull;
import static io.adaps.util.Checks.checkPositive;

import it.unimi.dsi.fastutil.ints.IntArrays;

/**
 * One node's epoch under the blocked schedule of distributed SGD (DSGD: Gemulla et al.,
 * "Large-scale matrix factorization with distributed stochastic gradient descent", KDD 2011), as
 * Lapse runs it with relocation (Renz-Wieland et al., "Dynamic Parameter Allocation in Parameter
 * Servers", PVLDB 2020).
 *
 * <p>On {@code N} nodes, an epoch makes {@code passes} passes over the {@code N} column blocks,
 * each in {@code N} sub-epochs: sub-epoch {@code u} (of {@code passes * N}) belongs to pass
 * {@code u / N}, and in it node {@code i} trains those of its entries (the entries of its rows, see
 * {@link BlockPartition}) that belong to the pass and whose column is in block
 * {@code (i + u) mod N}. So in every sub-epoch each block is used by exactly one node, and over an
 * epoch every node trains each of its entries once. A node only touches its own rows and one block
 * that no other node uses at the same time: with the block's columns moved to it, all its accesses
 * are local.
 *
 * <p>Each pass takes a random {@code 1 / passes} of the node's entries. One pass is the classic
 * schedule, but then a row trains on one block for half an epoch (on two nodes) and drifts towards
 * fitting it, and the model stalls above the noise level: on the data of the cluster test
 * ({@code MfClusterIT}), test RMSE 0.119 after 9 epochs where Hogwild reaches 0.109; with 4 passes
 * 0.113, with 8 passes 0.111. More passes cost more barriers and block moves per epoch.
 *
 * <p>Each sub-epoch is cut into {@code chunks} chunks, so that moving the columns of the next chunk
 * overlaps with training the current one ({@link MfTrainer}). A block's columns (those with entries
 * of this node) are taken in a seeded random order and cut where the entries reach each chunk's
 * equal share, so the chunks have about equal entries and a mix of hot and cold columns. (Taking
 * the hot columns first would make the first chunk, whose move is not overlapped, the smallest, but
 * a row then trains on few columns for a long stretch, which slows convergence as above.) A column
 * with more than a chunk's share of the entries makes its chunk larger and can leave a following
 * chunk empty. A block has the same chunks in every pass.
 *
 * <p>The entries are grouped by (sub-epoch, chunk) once, here, with a stable counting sort: within
 * a chunk they keep the random order of the shuffled training entries.
 */
final class BlockSchedule {
    private final int nodes;
    private final int subEpochs;
    private final int chunks;
    private final MfData entries;
    /** Group {@code g = subEpoch * chunks + chunk} has entries {@code [entryStart[g], entryStart[g + 1])}. */
    private final int[] entryStart;
    private final long[] columns;
    /** Chunk {@code g = block sub-epoch * chunks + chunk} has columns {@code [columnStart[g], columnStart[g + 1])}. */
    private final int[] columnStart;
    private final long[] rows;

    private BlockSchedule(int nodes, int subEpochs, int chunks, MfData entries, int[] entryStart, long[] columns,
                          int[] columnStart, long[] rows) {
        this.nodes = nodes;
        this.subEpochs = subEpochs;
        this.chunks = chunks;
        this.entries = entries;
        this.entryStart = entryStart;
        this.columns = columns;
        this.columnStart = columnStart;
        this.rows = rows;
    }

    /**
     * The schedule of node {@code node} for training on {@code train} (all nodes' entries, in random
     * order) laid out by {@code partition}.
     *
     * @param passes passes over the blocks per epoch, > 0
     * @param chunks chunks per sub-epoch, > 0
     * @param seed   of the order in which columns are cut into chunks
     * @throws IllegalArgumentException if {@code node}, {@code passes} or {@code chunks} is out of
     *                                  range, or the data does not fit the partition
     */
    static BlockSchedule of(BlockPartition partition, MfData train, int node, int passes, int chunks, long seed) {
        checkNotNull(partition, "partition");
        checkPositive(passes, "passes");
        checkPositive(chunks, "chunks");
        MfData shard = partition.shard(train, node);
        int nodes = partition.parts();
        int[] colEntries = new int[shard.numCols()];
        for (int col : shard.cols()) {
            colEntries[col]++;
        }
        int[] used = usedColumnsByBlock(partition, colEntries, node, seed);
        long[] blockEntries = new long[nodes];
        for (int col : used) {
            blockEntries[blockSubEpoch(partition.blockOfCol(col), node, nodes)] += colEntries[col];
        }
        // Walking a block's columns in order, a column's chunk is where the entries before it
        // reach; the chunks then have about equal entries and ascend along the order.
        int[] chunkOfCol = new int[shard.numCols()];
        int[] columnStart = new int[nodes * chunks + 1];
        long[] entriesBefore = new long[nodes];
        long[] columns = new long[used.length];
        for (int i = 0; i < used.length; i++) {
            int col = used[i];
            int block = blockSubEpoch(partition.blockOfCol(col), node, nodes);
            int chunk = block * chunks + (int) (entriesBefore[block] * chunks / blockEntries[block]);
            chunkOfCol[col] = chunk;
            columnStart[chunk + 1]++;
            entriesBefore[block] += colEntries[col];
            columns[i] = col;
        }
        prefixSums(columnStart);
        int[] entryStart = new int[passes * nodes * chunks + 1];
        MfData grouped = groupEntries(shard, chunkOfCol, passes, nodes * chunks, entryStart);
        return new BlockSchedule(nodes, passes * nodes, chunks, grouped, entryStart, columns, columnStart,
                partition.rowsOf(node));
    }

    /**
     * The columns with entries in this node's shard, by the sub-epoch of their block within a pass,
     * and within a block in a random order drawn from {@code seed}.
     */
    private static int[] usedColumnsByBlock(BlockPartition partition, int[] colEntries, int node, long seed) {
        int count = 0;
        for (int entries : colEntries) {
            count += entries > 0 ? 1 : 0;
        }
        int[] used = new int[count];
        int next = 0;
        for (int col = 0; col < colEntries.length; col++) {
            if (colEntries[col] > 0) {
                used[next++] = col;
            }
        }
        int nodes = partition.parts();
        int[] rank = MfData.permutation(colEntries.length, seed);
        IntArrays.quickSort(used, (a, b) -> {
            int byBlock = Integer.compare(blockSubEpoch(partition.blockOfCol(a), node, nodes),
                    blockSubEpoch(partition.blockOfCol(b), node, nodes));
            return byBlock != 0 ? byBlock : Integer.compare(rank[a], rank[b]);
        });
        return used;
    }

    /** The sub-epoch of each pass in which {@code node} trains on column block {@code block}. */
    private static int blockSubEpoch(int block, int node, int nodes) {
        return Math.floorMod(block - node, nodes);
    }

    /**
     * {@code shard}'s entries grouped stably by sub-epoch and chunk: entry {@code i} of {@code n}
     * belongs to pass {@code i * passes / n} (the shard is in random order, so each pass gets a
     * random share) and to the chunk of its column. Fills {@code start} with where each group starts
     * (and, last, the end).
     */
    private static MfData groupEntries(MfData shard, int[] chunkOfCol, int passes, int chunksPerPass, int[] start) {
        int n = shard.size();
        int[] cols = shard.cols();
        int[] groupOf = new int[n];
        for (int i = 0; i < n; i++) {
            groupOf[i] = (int) ((long) i * passes / n) * chunksPerPass + chunkOfCol[cols[i]];
            start[groupOf[i] + 1]++;
        }
        prefixSums(start);
        int[] next = start.clone();
        int[] rowIds = new int[n];
        int[] colIds = new int[n];
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            int to = next[groupOf[i]]++;
            rowIds[to] = shard.rows()[i];
            colIds[to] = cols[i];
            values[to] = shard.values()[i];
        }
        return new MfData(shard.numRows(), shard.numCols(), rowIds, colIds, values);
    }

    private static void prefixSums(int[] counts) {
        for (int i = 1; i < counts.length; i++) {
            counts[i] += counts[i - 1];
        }
    }

    /** Sub-epochs per epoch: passes times nodes. */
    int subEpochs() {
        return subEpochs;
    }

    /** Chunks per sub-epoch. */
    int chunks() {
        return chunks;
    }

    /** This node's training entries, grouped by sub-epoch and chunk. */
    MfData entries() {
        return entries;
    }

    /** The first entry of chunk {@code chunk} of sub-epoch {@code subEpoch}. */
    int entriesFrom(int subEpoch, int chunk) {
        return entryStart[group(subEpoch, chunk)];
    }

    /** The end (exclusive) of the entries of chunk {@code chunk} of sub-epoch {@code subEpoch}. */
    int entriesTo(int subEpoch, int chunk) {
        return entryStart[group(subEpoch, chunk) + 1];
    }

    /** The columns of all chunks, grouped by chunk; shared, do not modify. */
    long[] columns() {
        return columns;
    }

    /**
     * The first of the columns of chunk {@code chunk} of sub-epoch {@code subEpoch} in
     * {@link #columns()}: all columns of the chunk's block that fall into it, also those without
     * entries in this sub-epoch's pass.
     */
    int columnsFrom(int subEpoch, int chunk) {
        return columnStart[group(subEpoch, chunk) % (nodes * chunks)];
    }

    /** The end (exclusive) of the columns of chunk {@code chunk} of sub-epoch {@code subEpoch}. */
    int columnsTo(int subEpoch, int chunk) {
        return columnStart[group(subEpoch, chunk) % (nodes * chunks) + 1];
    }

    /** The rows of this node, whose factors it holds for good; shared, do not modify. */
    long[] rows() {
        return rows;
    }

    private int group(int subEpoch, int chunk) {
        if (subEpoch < 0 || subEpoch >= subEpochs || chunk < 0 || chunk >= chunks) {
            throw new IllegalArgumentException("subEpoch=" + subEpoch + ", chunk=" + chunk + " (expected 0.."
                    + (subEpochs - 1) + " and 0.." + (chunks - 1) + ")");
        }
        return subEpoch * chunks + chunk;
    }
}
