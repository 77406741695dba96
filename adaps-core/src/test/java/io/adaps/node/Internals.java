package io.adaps.node;

import io.adaps.api.AdaPS;
import io.adaps.api.Table;
import io.adaps.store.SlotKind;

/**
 * What tests ask about the inside of a running node (where rows are, what its directory says),
 * answered from its parts through the facade, so that production classes carry no test hooks.
 */
final class Internals {
    private Internals() {
    }

    /** How {@code node} holds {@code row} of {@code table} now, or {@code null}. */
    static SlotKind kindOf(AdaPS node, Table table, long row) {
        return local(node).context().store(table.id()).kind(row);
    }

    /** Whether {@code node} holds {@code row} of {@code table} now. */
    static boolean holdsRow(AdaPS node, Table table, long row) {
        return local(node).context().store(table.id()).holds(row);
    }

    /** The home node of {@code row} of {@code table}. */
    static int home(AdaPS node, Table table, long row) {
        return local(node).context().home(table, row);
    }

    /** The owner of {@code row} by {@code node}'s directory, or -1 if the node is not the row's home. */
    static int directoryOwner(AdaPS node, Table table, long row) {
        LocalNode local = local(node);
        if (home(node, table, row) != node.nodeId()) {
            return -1;
        }
        return local.relocator() == null ? node.nodeId() : local.relocator().directoryOwner(table.id(), row);
    }

    /** The most slots the store of {@code table} has used at once on {@code node}. */
    static int slotHighWaterMark(AdaPS node, Table table) {
        return local(node).context().store(table.id()).slotHighWaterMark();
    }

    /**
     * Copies the value and rule state of {@code row} of {@code table} into {@code dst} if
     * {@code node} owns it now; {@code false} if it does not.
     */
    static boolean copyOwned(AdaPS node, Table table, long row, float[] dst) {
        return local(node).context().store(table.id()).copyOwned(row, dst, 0) >= 0;
    }

    /** Floats per owned row of {@code table}: its value and rule state. */
    static int stride(AdaPS node, Table table) {
        return local(node).context().store(table.id()).stride();
    }

    private static LocalNode local(AdaPS node) {
        return (LocalNode) node;
    }
}
