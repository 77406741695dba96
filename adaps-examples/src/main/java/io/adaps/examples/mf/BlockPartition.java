package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import it.unimi.dsi.fastutil.ints.IntArrays;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

import io.adaps.examples.ShareDeal;
import io.adaps.examples.SpeedShares;

/**
 * How a matrix is laid out over a cluster of {@code nodes} nodes: each row belongs to the node that
 * trains its entries (and holds its factor), and each column to one of {@code nodes} column blocks
 * (used by the blocked schedule, {@link BlockSchedule}).
 *
 * <p>The schedules with intents ({@link #sharingHotRows}) share the hottest rows instead: the
 * entries of a row that holds more than {@link #HOT_ROW_SHARE} of the training entries are dealt to
 * every node ({@link ShareDeal}, in the nodes' shares of the entries), and its factor is then
 * used by all of them (replicated under
 * {@link io.adaps.api.Technique#ADAPTIVE}). A node that trained every entry of a hot row pulled the
 * columns that row shares with the other nodes' rows towards it between two synchronizations, and
 * the model settled above the single node's error: on zipf 1.5 data, whose hottest row holds 39% of
 * the entries, 2-node {@code ADAPTIVE} ended 10 epochs at test RMSE 0.1536 with rows kept whole and
 * 0.1138 with the rows above 1/128 shared (one node: 0.1150), at the same epoch times; see
 * docs/benchmarks.md for the other data. The blocked schedule cannot share a row (no two nodes may
 * use a parameter in one sub-epoch), so its partition ({@link #balanced}) keeps every row whole.
 *
 * <p>With shared hot rows ({@link #sharingHotRows}) each other row starts at its home node, the
 * node the library keeps its factor on before anything moves ({@link io.adaps.api.Partitioning}),
 * and only as many rows move away from home as give each node its share of the entries (even,
 * or by the nodes' speeds: {@link SpeedShares}; {@link #nearHomes}): a row
 * trained away from home is a row the library relocates in the first epoch, and reads remotely
 * until then (the initial evaluation's pulls among them). On the default generated data the two
 * homes' rows (the hottest, shared, left out) hold 964,044 and 1,038,101 entries, and 3 rows move
 * to even them; on 4 nodes 10 rows, on the tall shape of docs/benchmarks-shapes.md (100,000 x
 * 2,000) 3. Dealt by entry counts alone, half of the rows were trained away from home (4,991 of
 * 10,000 on 2 nodes, 7,513 on 4; tall: 50,074 of 100,000), and moving them cost the 2-node
 * {@code ADAPTIVE} example 2.04-2.56 s instead of 1.66-1.75 s of initial evaluation and 10.3-11.2
 * s instead of 9.6-9.9 s of whole run, its later epochs as fast (3 pairs in turns, 2 pinned nodes;
 * tall: first epoch 2.41-2.91 s instead of 1.37-1.92 s).
 *
 * <p>The blocked schedule's partition ({@link #balanced}) deals rows by entry counts alone, as
 * it deals columns to blocks: the greedy assignment of {@link #balance} (heaviest id first, to the
 * lightest part), within a few entries of even on skewed data. With its rows at home the blocked
 * schedule's first epoch was shorter too, but its test RMSE after 10 epochs rose from 0.1108 to
 * 0.1153 on the large shape (16,000,000 entries) and from 0.1105 to 0.1111 on the default data
 * (0.1381 to 0.1376 on tall): its sub-epochs pair each node's rows with one column block at a
 * time, and which rows go together changes what a sub-epoch learns.
 *
 * <p>Both balance entry counts instead of cutting contiguous id ranges: on zipf-skewed data a
 * single row or column can hold 15% of the entries, and since every sub-epoch ends at a barrier,
 * the heavier node sets the pace. Both are deterministic, so every node computes the same
 * partition from the same training entries.
 */
final class BlockPartition {
    /** The share of the training entries above which a row is shared by {@link #sharingHotRows}. */
    static final double HOT_ROW_SHARE = 1.0 / 128;
    /** The node of a shared row ({@link #nodeOfRow}). */
    static final int SHARED = -1;

    private final double[] shares;
    private final int[] nodeOfRow;
    private final int[] blockOfCol;

    private BlockPartition(double[] shares, int[] nodeOfRow, int[] blockOfCol) {
        this.shares = shares;
        this.nodeOfRow = nodeOfRow;
        this.blockOfCol = blockOfCol;
    }

    /**
     * The partition of {@code train}'s rows over {@code nodes} nodes and of its columns into
     * {@code nodes} blocks, each balanced by the entries of {@code train} ({@link #balance}).
     *
     * @throws IllegalArgumentException if {@code nodes <= 0}
     */
    static BlockPartition balanced(MfData train, int nodes) {
        return partition(train, SpeedShares.even(nodes), Long.MAX_VALUE, rowEntries -> balance(rowEntries, nodes));
    }

    /**
     * The partition of {@code train}'s rows over {@code shares.length} nodes that gives node
     * {@code i} about {@code shares[i]} of the entries, and of its columns into as many blocks
     * balanced by entries; every row with more than {@link #HOT_ROW_SHARE} of {@code train}'s
     * entries is {@link #SHARED}: the other rows are dealt near their homes ({@link #nearHomes}), and
     * {@link #shard} deals a shared row's entries to every node by the shares ({@link ShareDeal}).
     *
     * @param shares    each node's share of the entries ({@link ShareDeal#check})
     * @param homeOfRow the home node of each row's factor in a cluster of {@code shares.length} nodes
     * @throws IllegalArgumentException if {@code shares} are not shares of a cluster or a home is not
     *                                  one of its nodes
     */
    static BlockPartition sharingHotRows(MfData train, double[] shares, IntUnaryOperator homeOfRow) {
        checkNotNull(train, "train");
        checkNotNull(homeOfRow, "homeOfRow");
        ShareDeal.check(shares, 0);
        return partition(train, shares.clone(), (long) (HOT_ROW_SHARE * train.size()),
                rowEntries -> nearHomes(rowEntries, shares, homeOfRow));
    }

    /**
     * The partition whose rows with more than {@code hotEntries} entries are shared, the others
     * dealt to nodes by {@code rowsToNodes} from their entry counts.
     */
    private static BlockPartition partition(MfData train, double[] shares, long hotEntries,
                                            Function<long[], int[]> rowsToNodes) {
        checkNotNull(train, "train");
        long[] rowEntries = new long[train.numRows()];
        long[] colEntries = new long[train.numCols()];
        int[] rows = train.rows();
        int[] cols = train.cols();
        for (int i = 0; i < train.size(); i++) {
            rowEntries[rows[i]]++;
            colEntries[cols[i]]++;
        }
        boolean[] shared = new boolean[rowEntries.length];
        for (int row = 0; row < shared.length; row++) {
            if (rowEntries[row] > hotEntries) {
                shared[row] = true;
                rowEntries[row] = 0; // balanced with the rows without entries, then marked
            }
        }
        int[] nodeOfRow = rowsToNodes.apply(rowEntries);
        for (int row = 0; row < shared.length; row++) {
            if (shared[row]) {
                nodeOfRow[row] = SHARED;
            }
        }
        return new BlockPartition(shares, nodeOfRow, balance(colEntries, shares.length));
    }

    /**
     * Assigns each id to one of {@code parts} parts, heaviest id first to the currently lightest
     * part: the part of least load, then of fewest ids (so that ids without load, such as rows
     * without training entries, spread evenly too), then the lowest. Ids of equal load go in id
     * order, so the result depends only on the loads.
     */
    static int[] balance(long[] loads, int parts) {
        long[] partLoads = new long[parts];
        int[] partIds = new int[parts];
        int[] partOf = new int[loads.length];
        for (int id : heaviestFirst(loads)) {
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

    /**
     * Assigns each id to its home part, then moves ids away from home until each part's load is its
     * share of the total, its target ({@link #targets}). Heaviest id
     * first, an id moves from its part to the part with the most room below its target (the lowest
     * of equal room) if its part is over its target by at least the id's load and the other part
     * stays within its target with it. So no part gives away more than its excess or takes more
     * than its room, the fewest and heaviest ids move, and where ids of load 1 are left to fill the
     * gaps every part ends within {@code parts - 1} of its target. Ids without load stay home.
     *
     * @param shares each part's share ({@link ShareDeal#check})
     * @param home   the home part of each id
     * @throws IllegalArgumentException if a home is not in {@code 0 .. shares.length - 1}
     */
    static int[] nearHomes(long[] loads, double[] shares, IntUnaryOperator home) {
        int parts = ShareDeal.check(shares, 0).length;
        int[] partOf = new int[loads.length];
        long[] homeLoads = new long[parts];
        long total = 0;
        for (int id = 0; id < loads.length; id++) {
            int part = home.applyAsInt(id);
            if (part < 0 || part >= parts) {
                throw new IllegalArgumentException("home(" + id + ")=" + part + " (expected 0.." + (parts - 1) + ")");
            }
            partOf[id] = part;
            homeLoads[part] += loads[id];
            total += loads[id];
        }
        long[] room = targets(total, shares);
        for (int part = 0; part < parts; part++) {
            room[part] -= homeLoads[part];
        }
        for (int id : heaviestFirst(loads)) {
            long load = loads[id];
            int from = partOf[id];
            if (load == 0 || -room[from] < load) {
                continue;
            }
            int to = 0;
            for (int part = 1; part < parts; part++) {
                if (room[part] > room[to]) {
                    to = part;
                }
            }
            if (room[to] < load) {
                continue;
            }
            partOf[id] = to;
            room[from] += load;
            room[to] -= load;
        }
        return partOf;
    }

    /**
     * The parts' shares of {@code total} in whole units, summing to {@code total}: each part gets
     * {@code floor(total * share)}, and the units left over go to the parts of the largest
     * remainders (the lowest part first among equal ones), the method of largest remainders. Even
     * shares get {@code floor(total / parts)} or one more, however {@link SpeedShares} rounded them.
     */
    static long[] targets(long total, double[] shares) {
        int parts = shares.length;
        long[] targets = new long[parts];
        double[] remainders = new double[parts];
        long left = total;
        for (int part = 0; part < parts; part++) {
            double exact = total * shares[part];
            targets[part] = Math.min(left, (long) Math.floor(exact));
            remainders[part] = exact - targets[part];
            left -= targets[part];
        }
        for (; left > 0; left--) {
            int largest = 0;
            for (int part = 1; part < parts; part++) {
                if (remainders[part] > remainders[largest]) {
                    largest = part;
                }
            }
            targets[largest]++;
            remainders[largest] = Double.NEGATIVE_INFINITY;
        }
        return targets;
    }

    /** The ids of {@code loads}, heaviest first, ids of equal load in id order. */
    private static int[] heaviestFirst(long[] loads) {
        int[] order = new int[loads.length];
        for (int id = 0; id < order.length; id++) {
            order[id] = id;
        }
        IntArrays.quickSort(order, (a, b) -> loads[a] != loads[b] ? Long.compare(loads[b], loads[a])
                : Integer.compare(a, b));
        return order;
    }

    /** The number of nodes, which is also the number of column blocks. */
    int parts() {
        return shares.length;
    }

    /** The node that trains the entries of {@code row}, or {@link #SHARED} if every node trains some. */
    int nodeOfRow(int row) {
        return nodeOfRow[row];
    }

    /** The column block of {@code col}. */
    int blockOfCol(int col) {
        return blockOfCol[col];
    }

    /** The rows of {@code node}, ascending, shared rows not included: the row factors it should hold. */
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
     * The entries of {@code data} whose rows belong to {@code node}, and of the entries of shared
     * rows those whose index in {@code data} {@link ShareDeal} deals to {@code node} by the
     * partition's shares, in their order.
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
        int[] taken = new int[data.size()];
        int count = 0;
        for (int i = 0; i < taken.length; i++) {
            int owner = nodeOfRow[rows[i]];
            if (owner == node || owner == SHARED && ShareDeal.nodeOf(i, shares) == node) {
                taken[count++] = i;
            }
        }
        return data.select(taken, 0, count);
    }

    private void checkPart(int node) {
        if (node < 0 || node >= shares.length) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (shares.length - 1) + ")");
        }
    }
}
