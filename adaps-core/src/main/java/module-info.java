/**
 * AdaPS core: the public API ({@code io.adaps.api}) and the transport SPI
 * ({@code io.adaps.api.transport}, with an in-JVM transport for tests); everything else is the
 * node runtime, which applications reach only through the API ({@code AdaPS.builder().build()}
 * finds it as the {@link io.adaps.api.NodeFactory} service).
 */
module io.adaps.core {
    // The transport SPI hands messages over as Agrona buffers.
    requires transitive org.agrona;
    requires it.unimi.dsi.fastutil.core;
    requires HdrHistogram;
    requires org.slf4j;

    exports io.adaps.api;
    exports io.adaps.api.transport;

    uses io.adaps.api.NodeFactory;
    uses io.adaps.api.transport.TransportProvider;
    provides io.adaps.api.NodeFactory with io.adaps.node.NodeBootstrap;
}
