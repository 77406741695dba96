package io.adaps.transport.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;

/**
 * Connects to the peers this node dials (those with lower ids) during start-up, again and again with
 * a short back-off until the handshake succeeds, start-up fails, or the connect timeout passes: peers
 * start at different times. The back-off grows with the time spent waiting, from
 * {@value #MIN_BACKOFF_MILLIS} to {@value #MAX_BACKOFF_MILLIS} ms.
 */
final class Dialer {
    private static final Logger LOG = LoggerFactory.getLogger(Dialer.class);
    private static final long MIN_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 200;

    private final Bootstrap bootstrap;
    private final Cluster cluster;
    private final long startNanos;
    private final long deadlineNanos;

    /**
     * @param bootstrap     configured with group, channel type and options
     * @param cluster       the dialing node
     * @param deadlineNanos when to stop ({@link System#nanoTime()})
     */
    Dialer(Bootstrap bootstrap, Cluster cluster, long deadlineNanos) {
        this.bootstrap = bootstrap;
        this.cluster = cluster;
        this.startNanos = System.nanoTime();
        this.deadlineNanos = deadlineNanos;
    }

    /** Starts connecting to {@code peer}. */
    void dial(Peer peer) {
        if (cluster.isClosing() || cluster.hasStartFailed()) {
            return;
        }
        int port = cluster.config().peers().get(peer.id()).port();
        String host = cluster.config().peers().get(peer.id()).host();
        Bootstrap attempt = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                Pipelines.installDialed(channel, cluster, new OutboundConnection(cluster, peer, Dialer.this));
            }
        });
        attempt.connect(InetSocketAddress.createUnresolved(host, port)).addListener((ChannelFuture connected) -> {
            if (!connected.isSuccess()) {
                redial(peer, String.valueOf(connected.cause()));
            }
        });
    }

    /** The last attempt to reach {@code peer} failed for {@code reason}: tries again after a back-off. */
    void redial(Peer peer, String reason) {
        long now = System.nanoTime();
        if (now >= deadlineNanos || cluster.isClosing() || cluster.hasStartFailed()) {
            return;
        }
        long backoff = Math.min(MAX_BACKOFF_MILLIS,
                Math.max(MIN_BACKOFF_MILLIS, TimeUnit.NANOSECONDS.toMillis(now - startNanos) / 8));
        LOG.debug("{}: {} not reached ({}), trying again in {} ms", cluster.self(), peer.description(), reason, backoff);
        bootstrap.config().group().schedule(() -> dial(peer), backoff, TimeUnit.MILLISECONDS);
    }
}
