package io.adaps.checkpoint;

import java.util.List;

import it.unimi.dsi.fastutil.ints.Int2IntMap;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

/**
 * Where a checkpoint's rows were owned at its cut: for each table, the rows that had moved away
 * from their home, with the node that owned them. Every other row was at its home. A restore onto
 * a cluster of as many nodes with the same partitioning puts the rows back there, so that the
 * cluster starts as warm as it stopped. Read-only once made.
 */
public final class Placement {
    private final Int2IntOpenHashMap[] owners;

    private Placement(Int2IntOpenHashMap[] owners) {
        this.owners = owners;
    }

    /** The placement saved in the nodes' state files, for {@code tables} tables. */
    static Placement of(List<NodeState> nodes, int tables) {
        Int2IntOpenHashMap[] owners = new Int2IntOpenHashMap[tables];
        for (int table = 0; table < tables; table++) {
            owners[table] = new Int2IntOpenHashMap();
        }
        for (NodeState node : nodes) {
            int[][] placed = node.placed();
            for (int table = 0; table < Math.min(placed.length, tables); table++) {
                for (int row : placed[table]) {
                    owners[table].put(row, node.node());
                }
            }
        }
        return new Placement(owners);
    }

    /** The node that owned {@code row} of table {@code table} at the cut, given its home. */
    public int owner(int table, long row, int home) {
        return owners[table].getOrDefault((int) row, home);
    }

    /** Calls {@code action} with every row of table {@code table} owned away from its home, and its owner. */
    public void forEachMoved(int table, MovedRow action) {
        for (Int2IntMap.Entry entry : owners[table].int2IntEntrySet()) {
            action.accept(entry.getIntKey(), entry.getIntValue());
        }
    }

    /** Rows of every table owned away from their home. */
    public long movedRows() {
        long rows = 0;
        for (Int2IntOpenHashMap table : owners) {
            rows += table.size();
        }
        return rows;
    }

    /** A row owned away from its home. */
    @FunctionalInterface
    public interface MovedRow {
        void accept(int row, int owner);
    }
}
