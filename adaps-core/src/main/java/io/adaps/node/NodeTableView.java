package io.adaps.node;

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
    public String toString() {
        return "TableView[" + table.name() + ", worker=" + worker.id() + "]";
    }
}
