package io.adaps.transport.netty;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.transport.MessageHandler;
import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportConfig;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;

/**
 * The {@link Transport} between JVMs: Netty over TCP, epoll on Linux, NIO elsewhere.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>Threads</b>: one event loop group per transport with {@code ioThreads} threads (default 1)
 *       named {@code adaps-netty-<node>-<n>}; it accepts, connects, reads, writes, runs heartbeats
 *       and calls the {@link MessageHandler}. {@link #close()} stops them all. (Netty's shared,
 *       self-stopping {@code globalEventExecutor} thread completes the group's termination.)</li>
 *   <li><b>Connections</b>: one per pair of nodes. Node {@code i} dials every node {@code j < i}
 *       ({@link Dialer}, retried until the connect timeout) and accepts the others. The dialing side
 *       sends HANDSHAKE (node id, cluster id, schema; the protocol version is in every frame header)
 *       and the accepting side answers HANDSHAKE_ACK or HANDSHAKE_REFUSED with the difference, which
 *       fails start-up on both sides. A node listens at its bind host if one is set, else at its
 *       own address in the peer list.</li>
 *   <li><b>Security</b>: with {@link io.adaps.api.transport.TlsSettings} every connection is TLS with
 *       client certificates required ({@link TlsContexts}); with a
 *       {@link io.adaps.api.transport.ClusterSecret} the handshake includes a challenge-response
 *       ({@link SecretHandshake}). A peer without TLS, with a certificate that does not chain to the
 *       trusted CAs or is expired, or with no or another secret fails start-up on both sides with
 *       the reason.</li>
 *   <li><b>Frames</b>: length-prefixed binary frames ({@link Frame}); many messages to one peer
 *       travel in one MESSAGES frame and one write+flush ({@link Outbox}).</li>
 *   <li><b>Back-pressure</b>: per peer, bytes queued above {@code maxPendingBytes} hold back senders
 *       that are not I/O threads, up to {@code sendTimeout}; the channel's write buffer water marks
 *       keep Netty from buffering more than {@value #MAX_HIGH_WATER_MARK} bytes besides.</li>
 *   <li><b>Failures</b>: see {@link Connection}: heartbeats, the failure timeout, and closing on any
 *       malformed frame.</li>
 * </ul>
 */
public final class NettyTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);
    /** The most a channel buffers beyond the outbox before it stops being writable. */
    private static final int MAX_HIGH_WATER_MARK = 1 << 20;
    /** A connection attempt that hangs (a host not up yet) is given up and retried after this long. */
    private static final long MAX_CONNECT_ATTEMPT_MILLIS = 2_000;
    private static final long SHUTDOWN_QUIET_MILLIS = 10;
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 2_000;

    private final int ioThreads;
    private final boolean allowNative;
    private final Object lifecycle = new Object();
    private volatile Cluster cluster;
    private volatile boolean closed;
    private EventLoopGroup group;
    private Channel server;

    /** A transport with one I/O thread. */
    public NettyTransport() {
        this(1);
    }

    /**
     * A transport with {@code ioThreads} I/O threads.
     *
     * @param ioThreads event loop threads; connections are spread over them (1 suits most nodes:
     *                  the handler's work, not I/O, is what takes time)
     * @throws IllegalArgumentException if {@code ioThreads} is not positive
     */
    public NettyTransport(int ioThreads) {
        this(ioThreads, true);
    }

    /** As {@link #NettyTransport(int)}; with {@code allowNative == false} NIO even where epoll works. */
    NettyTransport(int ioThreads, boolean allowNative) {
        if (ioThreads <= 0) {
            throw new IllegalArgumentException("ioThreads=" + ioThreads + " (expected > 0)");
        }
        this.ioThreads = ioThreads;
        this.allowNative = allowNative;
    }

    @Override
    public void start(TransportConfig config, MessageHandler handler) {
        Objects.requireNonNull(config, "config=null (expected a value)");
        Objects.requireNonNull(handler, "handler=null (expected a value)");
        int helloLength = HandshakeCodec.helloLength(new Hello(config.nodeId(), config.clusterId(), config.schema(),
                SecretHandshake.nonce(config.secret())));
        if (helloLength > Frame.maxLength(config.maxMessageBytes())) {
            throw new IllegalArgumentException("schema.length()=" + config.schema().length() + " (expected a handshake of <= "
                    + Frame.maxLength(config.maxMessageBytes()) + " bytes, raise maxMessageBytes)");
        }
        long deadline = System.nanoTime() + config.connectTimeout().toNanos();
        TlsContexts tls = config.tls() == null ? null : TlsContexts.load(config.tls(), config.describe(config.nodeId()));
        Cluster starting = register(config, handler, tls);
        try {
            synchronized (lifecycle) {
                if (closed) {
                    throw new ClusterException(starting.self() + ": closed while starting");
                }
                IoKind io = IoKind.select(allowNative);
                group = io.newGroup(ioThreads, new TransportThreads(config.nodeId()));
                listen(starting, io);
                LOG.info("{}: listening at {} ({}, {} I/O thread{}{}{})", starting.self(), config.listenAddress(), io,
                        ioThreads, ioThreads == 1 ? "" : "s", config.tls() != null ? ", TLS" : "",
                        config.secret() != null ? ", cluster secret" : "");
                Dialer dialer = new Dialer(clientBootstrap(starting, io), starting, deadline);
                for (int peer = 0; peer < config.nodeId(); peer++) {
                    dialer.dial(starting.peer(peer));
                }
            }
            starting.awaitStarted(deadline);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("{}: connected to all {} peers", starting.self(), config.clusterSize() - 1);
    }

    private Cluster register(TransportConfig config, MessageHandler handler, TlsContexts tls) {
        synchronized (lifecycle) {
            if (closed || cluster != null) {
                throw new IllegalStateException("transport of " + config.describe(config.nodeId()) + " is "
                        + (closed ? "closed" : "started already") + " (expected a new transport)");
            }
            cluster = new Cluster(config, handler, ByteBufAllocator.DEFAULT, tls);
            return cluster;
        }
    }

    private void listen(Cluster starting, IoKind io) {
        TransportConfig config = starting.config();
        ChannelFuture bound = new ServerBootstrap()
                .group(group)
                .channel(io.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark(config))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        Pipelines.installAccepted(channel, starting, new InboundConnection(starting));
                    }
                })
                .bind(new InetSocketAddress(config.listenAddress().host(), config.listenAddress().port()))
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new ClusterException(starting.self() + ": cannot listen at " + config.listenAddress() + ": " + bound.cause(),
                    bound.cause());
        }
        server = bound.channel();
    }

    private Bootstrap clientBootstrap(Cluster starting, IoKind io) {
        return new Bootstrap()
                .group(group)
                .channel(io.channel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark(starting.config()))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.min(MAX_CONNECT_ATTEMPT_MILLIS, starting.config().connectTimeout().toMillis()));
    }

    private static WriteBufferWaterMark waterMark(TransportConfig config) {
        int high = (int) Math.min(MAX_HIGH_WATER_MARK, config.maxPendingBytes());
        return new WriteBufferWaterMark(high / 2, high);
    }

    @Override
    public void send(int peer, DirectBuffer buffer, int offset, int length) {
        Cluster current = cluster;
        if (closed || current == null) {
            throw new IllegalStateException("transport is " + (closed ? "closed" : "not started")
                    + " (expected a started transport)");
        }
        TransportConfig config = current.config();
        if (peer < 0 || peer >= config.clusterSize() || peer == config.nodeId()) {
            throw new IllegalArgumentException("peer=" + peer + " (expected another node of 0.." + (config.clusterSize() - 1) + ")");
        }
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("length=" + length + " (expected <= maxMessageBytes=" + config.maxMessageBytes() + ")");
        }
        Objects.requireNonNull(buffer, "buffer=null (expected a value)");
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length) {
            throw new IllegalArgumentException("offset=" + offset + ", length=" + length
                    + " (expected a range within buffer.capacity()=" + buffer.capacity() + ")");
        }
        Peer target = current.peer(peer);
        String failure = target.failure();
        if (failure != null) {
            throw new PeerFailedException(peer, failure);
        }
        long timeout = TransportThreads.isTransportThread() ? 0 : config.sendTimeout().toNanos();
        switch (target.outbox().append(buffer, offset, length, timeout)) {
            case APPENDED -> {
            }
            case CLOSED -> {
                failure = target.failure();
                if (failure != null) {
                    throw new PeerFailedException(peer, failure);
                }
                throw new IllegalStateException("transport is closed (expected a started transport)");
            }
            case BACK_PRESSURED -> throw new ClusterException(current.self() + ": sending to " + target.description()
                    + " held back for " + config.sendTimeout() + " (peer not keeping up)");
            case INTERRUPTED -> throw new ClusterException(current.self() + ": interrupted while sending to "
                    + target.description());
        }
    }

    /**
     * Closes every connection (after writing what is queued for it, bounded by the send timeout),
     * releases every buffer and stops the I/O threads. Idempotent. Called on an I/O thread (from a
     * handler) it starts all that without waiting for it.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            Cluster current = cluster;
            if (current == null) {
                return;
            }
            current.close();
            boolean mayWait = !TransportThreads.isTransportThread();
            List<ChannelFuture> closing = new ArrayList<>();
            for (Peer peer : current.peers()) {
                if (peer != null) {
                    peer.outbox().close();
                    Connection connection = peer.connection();
                    if (connection != null) {
                        closing.add(connection.closeGracefully());
                    }
                }
            }
            if (server != null) {
                closing.add(server.close());
            }
            long deadline = System.nanoTime() + current.config().sendTimeout().toNanos();
            for (ChannelFuture future : closing) {
                if (mayWait && !future.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    LOG.warn("{}: {} not closed within {}, closing it", current.self(), future.channel(),
                            current.config().sendTimeout());
                }
                future.channel().close();
            }
            if (group != null) {
                var shutdown = group.shutdownGracefully(SHUTDOWN_QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                if (mayWait && !shutdown.awaitUninterruptibly(2 * SHUTDOWN_TIMEOUT_MILLIS)) {
                    LOG.warn("{}: I/O threads did not stop within {} ms", current.self(), 2 * SHUTDOWN_TIMEOUT_MILLIS);
                }
            }
            for (Peer peer : current.peers()) {
                if (peer != null) {
                    peer.outbox().release();
                }
            }
            LOG.debug("{}: closed", current.self());
        }
    }
}
