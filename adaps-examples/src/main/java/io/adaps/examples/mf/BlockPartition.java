package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import it.unimi.dsi.fastutil.ints.IntArrays;

/**
 * How the blocked schedule ({@link BlockSchedule}) lays a matrix out over a cluster of
 * {@code nodes} nodes: each row belongs to the node that trains its entries (and holds its factor),
 * and each column to one of {@code nodes} column blocks.
 *
 * <p>Both assignments balance entry counts instead of cutting contiguous id ranges: on zipf-skewed
 * data a single row or column can hold 15% of the entries, and whichever range it falls into is
 * heavier. On the default generated data, rows cut into two ranges give the nodes 1.84 M and
 * 2.16 M entries, and since every sub-epoch ends at a barrier, the heavier node sets the pace. The
 * balanced assignment is the greedy one (heaviest id first, to the lightest part), within a few
 * entries of even on such data. It is deterministic, so every node computes the same partition from
 * the same training entries.
 */
final class BlockPartition {
    private final int parts;
    private final int[] nodeOfRow;
    private final int[] blockOfCol;

    private BlockPartition(int parts, int[] nodeOfRow, int[] blockOfCol) {
        this.parts = parts;
        this.nodeOfRow = nodeOfRow;
        this.blockOfCol = blockOfCol;
    }

    /**
     * The partition of {@code train}'s rows over {@code nodes} nodes and of its columns into
     * {@code nodes} blocks, each balanced by the entries of {@code train}.
     *
     * @throws IllegalArgumentException if {@code nodes <= 0}
     */
    static BlockPartition balanced(MfData train, int nodes) {
        checkNotNull(train, "train");
        checkPositive(nodes, "nodes");
        long[] rowEntries = new long[train.numRows()];
        long[] colEntries = new long[train.numCols()];
        int[] rows = train.rows();
        int[] cols = train.cols();
        for (int i = 0; i < train.size(); i++) {
            rowEntries[rows[i]]++;
            colEntries[cols[i]]++;
        }
        return new BlockPartition(nodes, balance(rowEntries, nodes), balance(colEntries, nodes));
    }

    /**
     * Assigns each id to one of {@code parts} parts, heaviest id first to the currently lightest
     * part: the part of least load, then of fewest ids (so that ids without load, such as rows
     * without training entries, spread evenly too), then the lowest. Ids of equal load go in id
     * order, so the result depends only on the loads.
     */
    static int[] balance(long[] loads, int parts) {
        int[] order = new int[loads.length];
        for (int id = 0; id < order.length; id++) {
            order[id] = id;
        }
        IntArrays.quickSort(order, (a, b) -> loads[a] != loads[b] ? Long.compare(loads[b], loads[a])
                : Integer.compare(a, b));
        long[] partLoads = new long[parts];
        int[] partIds = new int[parts];
        int[] partOf = new int[loads.length];
        for (int id : order) {
            int lightest = 0;
            for (int part = 1; part < parts; part++) {
                if (partLoads[part] < partLoads[lightest]
                        || partLoads[part] == partLoads[lightest] && partIds[part] < partIds[lightest]) {
                    lightest = part;
                }
            }
            partOf[id] = lightest;
            partLoads[lightest] += loads[id];
            partIds[lightest]++;
        }
        return partOf;
    }

    /** The number of nodes, which is also the number of column blocks. */
    int parts() {
        return parts;
    }

    /** The node that trains the entries of {@code row}. */
    int nodeOfRow(int row) {
        return nodeOfRow[row];
    }

    /** The column block of {@code col}. */
    int blockOfCol(int col) {
        return blockOfCol[col];
    }

    /** The rows of {@code node}, ascending: the row factors it should hold. */
    long[] rowsOf(int node) {
        checkPart(node);
        int count = 0;
        for (int owner : nodeOfRow) {
            count += owner == node ? 1 : 0;
        }
        long[] rows = new long[count];
        int next = 0;
        for (int row = 0; row < nodeOfRow.length; row++) {
            if (nodeOfRow[row] == node) {
                rows[next++] = row;
            }
        }
        return rows;
    }

    /**
     * The entries of {@code data} whose rows belong to {@code node}, in their order.
     *
     * @throws IllegalArgumentException if {@code data} is not of the partitioned matrix's size or
     *                                  {@code node} is out of range
     */
    MfData shard(MfData data, int node) {
        checkNotNull(data, "data");
        checkPart(node);
        if (data.numRows() != nodeOfRow.length || data.numCols() != blockOfCol.length) {
            throw new IllegalArgumentException("data=" + data + " (expected a " + nodeOfRow.length + " x "
                    + blockOfCol.length + " matrix, the size of the partitioned one)");
        }
        int[] rows = data.rows();
        int count = 0;
        for (int i = 0; i < data.size(); i++) {
            count += nodeOfRow[rows[i]] == node ? 1 : 0;
        }
        int[] shardRows = new int[count];
        int[] shardCols = new int[count];
        float[] shardValues = new float[count];
        int next = 0;
        for (int i = 0; i < data.size(); i++) {
            if (nodeOfRow[rows[i]] == node) {
                shardRows[next] = rows[i];
                shardCols[next] = data.cols()[i];
                shardValues[next] = data.values()[i];
                next++;
            }
        }
        return new MfData(data.numRows(), data.numCols(), shardRows, shardCols, shardValues);
    }

    private void checkPart(int node) {
        if (node < 0 || node >= parts) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (parts - 1) + ")");
        }
    }
}
