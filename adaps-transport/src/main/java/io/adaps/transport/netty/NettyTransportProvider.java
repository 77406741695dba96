package io.adaps.transport.netty;

import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportProvider;

/** Provides {@link NettyTransport} (name {@code netty}) to {@link java.util.ServiceLoader}. */
public final class NettyTransportProvider implements TransportProvider {
    /** Used by {@link java.util.ServiceLoader}. */
    public NettyTransportProvider() {
    }

    @Override
    public String name() {
        return "netty";
    }

    /** A transport with one I/O thread. */
    @Override
    public Transport create() {
        return new NettyTransport();
    }
}
