package io.adaps.transport.netty;

import io.netty.channel.Channel;

/** The pipeline of every connection: {@link FrameDecoder}, then the {@link Connection}. */
final class Pipelines {
    private Pipelines() {
    }

    static void install(Channel channel, Cluster cluster, Connection connection) {
        channel.pipeline().addLast(new FrameDecoder(cluster.maxFrameLength(), connection), connection);
    }
}
