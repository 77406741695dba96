package io.adaps.api;

/**
 * One training thread's handle on a node: the {@link ParameterAccess} operations by global key,
 * plus the thread's logical clock and the tickets of its asynchronous operations.
 *
 * <h2>Threading contract</h2>
 * A worker belongs to one thread: the first thread that calls an operation on it (any method but
 * {@link #id()} and {@link #table}, which are lookups any thread may call). Operations from any
 * other thread fail with {@link IllegalStateException} and change nothing. Create one worker per
 * training thread with {@link AdaPS#worker()}; creating it and its {@link TableView}s on another
 * thread is fine. A worker's table views belong to the same thread.
 */
public interface Worker extends ParameterAccess {
    /** This worker's id within its node, from 0 in creation order. */
    int id();

    /**
     * This worker's view of {@code table}, addressing it by row id.
     *
     * @throws IllegalArgumentException if the table is not one of this node's
     */
    TableView table(Table table);

    /**
     * This worker's view of the table called {@code name}.
     *
     * @throws IllegalArgumentException if no such table is declared
     */
    TableView table(String name);

    /**
     * Blocks until the operation with {@code ticket} is complete.
     *
     * @throws IllegalArgumentException if this worker issued no such ticket
     */
    void waitFor(long ticket);

    /** Blocks until every operation this worker started is complete. */
    void waitAll();

    /** This worker's logical clock: 0 at the start, advanced only by {@link #advanceClock()}. */
    long clock();

    /** Advances this worker's clock by one and returns the new clock. */
    long advanceClock();

    /**
     * Waits for every operation this worker started ({@link #waitAll()}), then until every update
     * made on this node before the call has reached its parameter's owner and this node's replicas
     * have been refreshed from their owners at least once. Together with {@link AdaPS#barrier()},
     * after every node's workers called it, every owner holds all updates and every replica its
     * owner's value. Bounded by the operation timeout.
     *
     * @throws ClusterException if a synchronization failed (a peer failed or did not answer)
     */
    void waitSync();
}
