package io.adaps.api;

import java.util.Optional;

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
 *
 * <h2>Lifetime</h2>
 * Close a worker when its thread is done with it ({@link #close()}, or try-with-resources): it
 * waits for the worker's operations, drops its intents and frees its id, so that a node can serve
 * any number of worker lifetimes (a thread pool per epoch, one worker per task). A node has at
 * most 65,535 workers open at once, and at most 256 of them signalling intent.
 */
public interface Worker extends ParameterAccess, AutoCloseable {
    /**
     * This worker's id within its node, from 0: the lowest ids go to the first workers, and the id
     * of a closed worker goes to a later one.
     */
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

    /**
     * Whether the operation with {@code ticket} is complete, without waiting. A complete operation
     * may still have failed: {@link #waitFor} reports that.
     *
     * @throws IllegalArgumentException if this worker issued no such ticket
     */
    boolean isDone(long ticket);

    /** Blocks until every operation this worker started is complete. */
    void waitAll();

    /** This worker's logical clock: 0 at the start, advanced only by {@link #advanceClock()}. */
    long clock();

    /**
     * Advances this worker's clock by one and returns the new clock. If a table of the node has a
     * bounded {@link Consistency} model, the strictest bound {@code s} applies: the call waits until
     * every worker of the cluster has advanced to at least the new clock minus {@code s} and its
     * updates of the clocks before have reached their owners (first for this worker's own
     * operations). Every open worker takes part, counted from the cluster's watermark when it
     * opened; open training workers before any of them advances (before a barrier) and keep them
     * open across epochs. Bounded by the barrier timeout.
     *
     * @throws PeerFailedException if a peer failed while this worker waited
     * @throws ClusterException    if the slowest worker did not catch up within the barrier timeout
     */
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

    /**
     * Sets what the next checkpoints save for this worker (a copy of {@code state}: the position
     * of its data reader and the epoch, for example), replacing what was set before; it stays
     * with the worker's id after the worker closes. A restored node gives it back through
     * {@link #restoredState()} and {@link AdaPS#restoredFrom()}.
     */
    void checkpointState(byte[] state);

    /**
     * What the worker with this worker's id on this node id saved in the checkpoint this node was
     * restored from (a copy), or empty: a node that started fresh, or a worker that saved nothing.
     * After a restore onto another number of nodes, {@link AdaPS#restoredFrom()} has every
     * worker's.
     */
    Optional<byte[]> restoredState();

    /**
     * Waits for every operation this worker started, drops its intents (the keys they held are let
     * go as when intents end) and frees its id for a later worker; every later call on it throws
     * {@link IllegalStateException}. Idempotent. Call it from the worker's thread, or from any
     * thread once that thread has ended.
     *
     * @throws ClusterException      if an operation failed that was not reported yet (the worker
     *                               is closed all the same)
     * @throws IllegalStateException if another thread, still alive, owns the worker
     */
    @Override
    void close();
}
