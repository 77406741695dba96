package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.SplittableRandom;

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
 * schedule, but then a row trains against one block for a long stretch (half an epoch on two
 * nodes) and drifts towards fitting it; on zipf-skewed data, where a single row can hold 15% of the
 * entries, the model then stays well above the noise level. More passes shorten the stretches, at
 * the cost of a barrier and a move of every block per sub-epoch. Test RMSE on two nodes (the
 * {@code mf} command's default data after 5 epochs; the cluster test's after 9), where Hogwild
 * reaches 0.116 (0.109): with 1 pass 0.130 (0.118), 2 passes 0.126 (0.115), 4 passes 0.123
 * (0.113), 8 passes 0.121 (0.111).
 *
 * <p>Each sub-epoch is cut into {@code chunks} chunks, so that moving columns overlaps with
 * training ({@link MfTrainer}): the column chunks up to {@code t} are here when chunk {@code t}
 * trains, and column chunk {@code t + 1} moves meanwhile. A block's columns (those with entries of
 * this node) are ordered by their entries, most first, and cut into column chunks of about equal
 * entries: the first holds the few hottest columns, so the one move that nothing overlaps is
 * short, and the last the long tail of cold columns. An entry whose column is in column chunk
 * {@code k} trains in chunk {@code max(k, r)}, {@code r} uniformly random: each chunk trains on all
 * the columns that have arrived, the last on the whole block, and the chunks grow (of 4, they hold
 * about 1/16, 3/16, 5/16 and 7/16 of the sub-epoch's entries). Training each entry in its column's
 * chunk instead would have rows train against a quarter of the block for a stretch, which costs as
 * much convergence as too few passes. A column with more than a chunk's share of the entries makes
 * its column chunk larger and leaves a following one empty. A block has the same column chunks in
 * every pass.
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
     * @param seed   of the random part of the entries' chunks
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
        int[] used = usedColumnsByBlock(partition, colEntries, node);
        long[] blockEntries = new long[nodes];
        for (int col : used) {
            blockEntries[blockSubEpoch(partition.blockOfCol(col), node, nodes)] += colEntries[col];
        }
        // Walking a block's columns in order, a column's chunk is where the entries before it
        // reach; the column chunks then have about equal entries and ascend along the order.
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
        MfData grouped = groupEntries(shard, chunkOfCol, passes, nodes, chunks,
                new SplittableRandom(seed), entryStart);
        return new BlockSchedule(nodes, passes * nodes, chunks, grouped, entryStart, columns, columnStart,
                partition.rowsOf(node));
    }

    /**
     * The columns with entries in this node's shard, by the sub-epoch of their block within a pass,
     * then most entries first, then by id.
     */
    private static int[] usedColumnsByBlock(BlockPartition partition, int[] colEntries, int node) {
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
        IntArrays.quickSort(used, (a, b) -> {
            int byBlock = Integer.compare(blockSubEpoch(partition.blockOfCol(a), node, nodes),
                    blockSubEpoch(partition.blockOfCol(b), node, nodes));
            if (byBlock != 0) {
                return byBlock;
            }
            return colEntries[a] != colEntries[b] ? Integer.compare(colEntries[b], colEntries[a])
                    : Integer.compare(a, b);
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
     * random share), to the sub-epoch of its column's block in that pass, and to chunk
     * {@code max(k, r)} for its column's chunk {@code k} and a random {@code r}. Fills
     * {@code start} with where each group starts (and, last, the end).
     *
     * @param chunkOfCol the column chunk of each column: block sub-epoch * chunks + chunk
     */
    private static MfData groupEntries(MfData shard, int[] chunkOfCol, int passes, int nodes, int chunks,
                                       SplittableRandom random, int[] start) {
        int n = shard.size();
        int[] cols = shard.cols();
        int[] groupOf = new int[n];
        for (int i = 0; i < n; i++) {
            int pass = (int) ((long) i * passes / n);
            int columnChunk = chunkOfCol[cols[i]];
            int chunk = Math.max(columnChunk % chunks, random.nextInt(chunks));
            groupOf[i] = (pass * nodes + columnChunk / chunks) * chunks + chunk;
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
     * The first of the columns of column chunk {@code chunk} of sub-epoch {@code subEpoch} in
     * {@link #columns()}: those to be here before the sub-epoch's chunk {@code chunk} trains, with
     * those of the earlier chunks. They are all the block's columns that fall into the chunk, also
     * those without entries in this sub-epoch's pass.
     */
    int columnsFrom(int subEpoch, int chunk) {
        return columnStart[group(subEpoch, chunk) % (nodes * chunks)];
    }

    /** The end (exclusive) of the columns of column chunk {@code chunk} of sub-epoch {@code subEpoch}. */
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
