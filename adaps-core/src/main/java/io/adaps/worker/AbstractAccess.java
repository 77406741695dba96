package io.adaps.worker;

import static io.adaps.util.Checks.checkNotNull;

import java.util.Collection;

import io.adaps.api.ParameterAccess;
import io.adaps.api.Table;
import io.adaps.rpc.Operation;

/**
 * The {@link ParameterAccess} operations, written once for both ways of addressing parameters:
 * by global key ({@code table == null}, a {@link NodeWorker}) and by row of one table (a
 * {@link NodeTableView}). Everything runs on the owning worker.
 */
abstract class AbstractAccess implements ParameterAccess {
    /** The table whose rows the ids are, or {@code null} when ids are global keys. */
    final Table table;

    AbstractAccess(Table table) {
        this.table = table;
    }

    /** The worker that executes this handle's operations. */
    abstract NodeWorker owner();

    /** Runs a synchronous operation: executes it, then waits for its remote part. */
    private void executeAndWait(Operation op, long[] ids, int idOffset, int idCount, float[] buffer, int bufferOffset,
                                boolean exactLength) {
        NodeWorker worker = owner();
        worker.awaitCall(worker.execute(op, table, ids, idOffset, idCount, buffer, bufferOffset, exactLength,
                NodeWorker.TICKET_IF_REMOTE));
    }

    static int lengthOf(long[] ids) {
        return ids == null ? 0 : ids.length;
    }

    @Override
    public void pull(long[] ids, float[] dst) {
        executeAndWait(Operation.PULL, ids, 0, lengthOf(ids), dst, 0, true);
    }

    @Override
    public void pull(long[] ids, int idOffset, int idCount, float[] dst, int dstOffset) {
        executeAndWait(Operation.PULL, ids, idOffset, idCount, dst, dstOffset, false);
    }

    @Override
    public void pull(long id, float[] dst, int dstOffset) {
        owner().executeOne(Operation.PULL, table, id, dst, dstOffset);
    }

    @Override
    public void push(long[] ids, float[] updates) {
        executeAndWait(Operation.PUSH, ids, 0, lengthOf(ids), updates, 0, true);
    }

    @Override
    public void push(long[] ids, int idOffset, int idCount, float[] updates, int updatesOffset) {
        executeAndWait(Operation.PUSH, ids, idOffset, idCount, updates, updatesOffset, false);
    }

    @Override
    public void push(long id, float[] update, int updateOffset) {
        owner().executeOne(Operation.PUSH, table, id, update, updateOffset);
    }

    @Override
    public void set(long[] ids, float[] values) {
        executeAndWait(Operation.SET, ids, 0, lengthOf(ids), values, 0, true);
    }

    @Override
    public void set(long[] ids, int idOffset, int idCount, float[] values, int valuesOffset) {
        executeAndWait(Operation.SET, ids, idOffset, idCount, values, valuesOffset, false);
    }

    @Override
    public void set(long id, float[] value, int valueOffset) {
        owner().executeOne(Operation.SET, table, id, value, valueOffset);
    }

    @Override
    public long pullAsync(long[] ids, int idOffset, int idCount, float[] dst, int dstOffset) {
        return owner().execute(Operation.PULL, table, ids, idOffset, idCount, dst, dstOffset, false,
                NodeWorker.TICKET_NOW);
    }

    @Override
    public long pushAsync(long[] ids, int idOffset, int idCount, float[] updates, int updatesOffset) {
        return owner().execute(Operation.PUSH, table, ids, idOffset, idCount, updates, updatesOffset, false,
                NodeWorker.TICKET_NOW);
    }

    @Override
    public long setAsync(long[] ids, int idOffset, int idCount, float[] values, int valuesOffset) {
        return owner().execute(Operation.SET, table, ids, idOffset, idCount, values, valuesOffset, false,
                NodeWorker.TICKET_NOW);
    }

    @Override
    public void localize(long[] ids) {
        owner().localize(table, ids, 0, lengthOf(ids), false);
    }

    @Override
    public void localize(long[] ids, int idOffset, int idCount) {
        owner().localize(table, ids, idOffset, idCount, false);
    }

    @Override
    public long localizeAsync(long[] ids, int idOffset, int idCount) {
        return owner().localize(table, ids, idOffset, idCount, true);
    }

    @Override
    public void intent(long[] ids, long fromClock, long toClock) {
        owner().signalIntent(table, ids, 0, lengthOf(ids), fromClock, toClock);
    }

    @Override
    public void intent(long[] ids, int idOffset, int idCount, long fromClock, long toClock) {
        owner().signalIntent(table, ids, idOffset, idCount, fromClock, toClock);
    }

    @Override
    public void intent(long id, long fromClock, long toClock) {
        owner().signalIntent(table, id, fromClock, toClock);
    }

    @Override
    public void intent(Collection<Long> ids, long fromClock, long toClock) {
        checkNotNull(ids, "ids");
        long[] copy = new long[ids.size()];
        int i = 0;
        for (Long id : ids) {
            if (id == null) {
                throw new NullPointerException("ids[" + i + "]=null (expected an id)");
            }
            copy[i++] = id;
        }
        owner().signalIntent(table, copy, 0, copy.length, fromClock, toClock);
    }
}
