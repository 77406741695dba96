package io.adaps.worker;

import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Table;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/** A worker's row-addressed view of one table. */
final class NodeTableView extends AbstractAccess implements TableView {
    private final NodeWorker worker;

    NodeTableView(NodeWorker worker, Table table) {
        super(table);
        this.worker = worker;
    }

    @Override
    NodeWorker owner() {
        return worker;
    }

    @Override
    public Table table() {
        return table;
    }

    @Override
    public Worker worker() {
        return worker;
    }

    @Override
    public long prepareSample(int n, long fromClock, long toClock) {
        return worker.prepareSample(table, n, fromClock, toClock);
    }

    @Override
    public void pullSample(long handle, long[] keysOut, float[] valuesOut) {
        worker.pullSample(table, handle, keysOut, 0, valuesOut, 0, true);
    }

    @Override
    public void pullSample(long handle, long[] keysOut, int keysOffset, float[] valuesOut, int valuesOffset) {
        worker.pullSample(table, handle, keysOut, keysOffset, valuesOut, valuesOffset, false);
    }

    @Override
    public int takeSample(long handle, long[] keysOut, int keysOffset) {
        return worker.takeSample(table, handle, keysOut, keysOffset);
    }

    @Override
    public boolean updateInPlace(long row, TableView other, long otherRow, InPlaceUpdate update) {
        return worker.updateInPlace(table, row, other, otherRow, update);
    }

    @Override
    public int updateInPlace(long[] rows, int rowsOffset, TableView other, long[] otherRows, int otherRowsOffset,
                             int count, InPlacePairUpdate update, int[] notDone) {
        return worker.updateInPlace(table, rows, rowsOffset, other, otherRows, otherRowsOffset, count, update,
                notDone);
    }

    @Override
    public String toString() {
        return "TableView[" + table.name() + ", worker=" + worker.id() + "]";
    }
}
