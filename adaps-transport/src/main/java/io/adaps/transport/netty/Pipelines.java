package io.adaps.transport.netty;

import io.netty.channel.Channel;

/**
 * The pipeline of every connection: with TLS its TLS handler ({@link TlsContexts}), then
 * {@link FrameDecoder}, then the {@link Connection}.
 */
final class Pipelines {
    private Pipelines() {
    }

    /** The pipeline of a connection this node accepted. */
    static void installAccepted(Channel channel, Cluster cluster, Connection connection) {
        if (cluster.tls() != null) {
            channel.pipeline().addLast(cluster.tls().acceptingHandler());
        }
        channel.pipeline().addLast(new FrameDecoder(cluster.maxFrameLength(), connection), connection);
    }

    /** The pipeline of a connection this node dialed. */
    static void installDialed(Channel channel, Cluster cluster, Connection connection) {
        if (cluster.tls() != null) {
            channel.pipeline().addLast(cluster.tls().dialingHandler(channel.alloc()));
        }
        channel.pipeline().addLast(new FrameDecoder(cluster.maxFrameLength(), connection), connection);
    }
}
