/**
 * Training threads' handles: a {@link io.adaps.worker.NodeWorker} (the {@link io.adaps.api.Worker})
 * and its table views validate every call and run it on the calling thread, against the store
 * for rows held here and through the worker's {@link io.adaps.rpc.Requester} for the others;
 * {@link io.adaps.worker.Workers} hands out and takes back worker ids.
 */
package io.adaps.worker;
