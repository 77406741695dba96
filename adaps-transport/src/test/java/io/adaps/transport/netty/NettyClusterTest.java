package io.adaps.transport.netty;

import java.util.List;

import io.adaps.cluster.ClusterContract;
import io.adaps.transport.PeerAddress;
import io.adaps.transport.Transport;

/** The distributed parameter server's guarantees with nodes talking Netty over loopback. */
class NettyClusterTest extends ClusterContract {
    @Override
    protected Transport newTransport(int node) {
        return new NettyTransport();
    }

    @Override
    protected List<String> addresses(int nodes) {
        return Ports.loopback(nodes).stream().map(PeerAddress::toString).toList();
    }
}
