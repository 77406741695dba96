/**
 * Requests to other nodes, from the requesting side: a worker's (or the manager's)
 * {@link io.adaps.rpc.Requester} batches an operation's remote rows into messages, tracks them as a
 * {@link io.adaps.rpc.RemoteCall} and applies the answers, which the
 * {@link io.adaps.rpc.CallRegistry} routes to it by request id.
 */
package io.adaps.rpc;
