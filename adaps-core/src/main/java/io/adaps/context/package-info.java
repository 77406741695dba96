/**
 * What the parts of a running node share: its {@link io.adaps.context.NodeConfig settings}, tables,
 * stores and key space in the {@link io.adaps.context.NodeContext}, and the other nodes as
 * {@link io.adaps.context.Peers} (sending, failures, traffic counters).
 */
package io.adaps.context;
