/**
 * The node: the {@link io.adaps.node.NodeBootstrap} that wires a node's parts together (and is
 * the runtime behind {@link io.adaps.api.AdaPS.Builder#build()}), the {@link io.adaps.node.LocalNode}
 * facade the application holds, the dispatch table, and the cluster barrier. Nothing else
 * depends on this package.
 */
package io.adaps.node;
