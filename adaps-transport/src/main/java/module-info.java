/** The Netty implementation of the AdaPS transport SPI, found by the core as a {@code TransportProvider}. */
module io.adaps.transport {
    requires io.adaps.core;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.handler;
    requires io.netty.transport.classes.epoll;
    requires org.slf4j;

    provides io.adaps.api.transport.TransportProvider with io.adaps.transport.netty.NettyTransportProvider;
}
