/**
 * The transport SPI between nodes ({@link io.adaps.api.transport.Transport}, no network library in
 * it) and {@link io.adaps.api.transport.InJvmTransport}, a transport between nodes of one JVM for
 * tests. The Netty implementation lives in the {@code adaps-transport} module.
 */
package io.adaps.api.transport;
