/**
 * A local multi-process launcher: {@link io.adaps.examples.launch.LocalCluster} starts the nodes of
 * a cluster as JVMs on this machine and watches them, {@link io.adaps.examples.launch.LaunchCommand}
 * is its {@code launch} subcommand, and {@link io.adaps.examples.launch.PrefixedConsole} merges the
 * nodes' output into readable, prefixed lines.
 */
package io.adaps.examples.launch;
