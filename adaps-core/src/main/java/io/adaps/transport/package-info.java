/**
 * The transport SPI between nodes ({@link io.adaps.transport.Transport}, no network library in
 * it) and {@link io.adaps.transport.InJvmTransport}, a transport between nodes of one JVM for
 * tests. The Netty implementation lives in the {@code adaps-transport} module.
 */
package io.adaps.transport;
