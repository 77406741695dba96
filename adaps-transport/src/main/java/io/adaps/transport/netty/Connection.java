package io.adaps.transport.netty;

import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * One TCP connection of this node, the last handler of its pipeline (after {@link FrameDecoder}).
 *
 * <p>Life cycle: the handshake (subclasses: {@link InboundConnection} on the accepting side,
 * {@link OutboundConnection} on the connecting side), then, bound to its {@link Peer}, it delivers
 * MESSAGES frames to the node's handler and drains the peer's {@link Outbox} into the channel.
 *
 * <p>Liveness: a task on the event loop runs every half heartbeat interval. It sends a HEARTBEAT when
 * nothing was written for that long (so a peer hears something at least every heartbeat interval),
 * and closes the connection when nothing was read for the failure timeout. Before the handshake
 * completes the same bound applies to the handshake itself.
 *
 * <p>Errors: a {@link FrameException}, an I/O error, a failing message handler or the liveness
 * timeout close the connection; once established, closing reports the peer's failure with the reason
 * ({@link Cluster#lost}). Everything here runs on the channel's event loop.
 */
abstract class Connection extends ChannelInboundHandlerAdapter implements FrameListener {
    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    /** The node this connection belongs to. */
    protected final Cluster cluster;
    private final MessagesFrameReader reader = new MessagesFrameReader();
    private final Runnable drainTask = this::drain;
    private final long livenessPeriodNanos;
    private final long failureTimeoutNanos;
    /**
     * How long a connection may wait for the peer's handshake: as long as a node may take to
     * connect, not only the failure timeout, since a peer whose JVM is still starting (several on
     * a small machine) is slow, not dead.
     */
    private final long handshakeTimeoutNanos;
    private ChannelHandlerContext ctx;
    private Peer peer;
    private ScheduledFuture<?> liveness;
    private long lastReadNanos;
    private long lastWriteNanos;
    private String closeReason;
    /** The TLS handshake failed and the subclass was told; the same failure's exception is not news. */
    private boolean tlsFailed;

    Connection(Cluster cluster) {
        this.cluster = cluster;
        this.livenessPeriodNanos = cluster.config().heartbeatInterval().toNanos() / 2;
        this.failureTimeoutNanos = cluster.config().failureTimeout().toNanos();
        this.handshakeTimeoutNanos = Math.max(failureTimeoutNanos, cluster.config().connectTimeout().toNanos());
    }

    /** A frame that arrived before the handshake completed. */
    protected abstract void onHandshakeFrame(int type, ByteBuf buffer, int index, int length);

    /**
     * A frame, I/O or processing error ({@code cause}, described by {@code reason}) before the
     * handshake completed: the subclass closes the connection ({@link #close} or {@link #closeAfter}).
     */
    protected abstract void onHandshakeError(Throwable cause, String reason);

    /** The connection closed before the handshake completed, for {@code reason} (null: by the other side). */
    protected abstract void onClosedBeforeHandshake(String reason);

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        lastReadNanos = System.nanoTime();
        lastWriteNanos = lastReadNanos;
        liveness = ctx.executor().scheduleAtFixedRate(this::checkLiveness, livenessPeriodNanos, livenessPeriodNanos,
                TimeUnit.NANOSECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        lastReadNanos = System.nanoTime();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void onFrame(int type, ByteBuf buffer, int index, int length) {
        if (peer == null) {
            onHandshakeFrame(type, buffer, index, length);
            return;
        }
        switch (type) {
            case Frame.MESSAGES -> reader.wrap(buffer, index, length, cluster.config().maxMessageBytes())
                    .deliver(peer.id(), cluster.handler());
            case Frame.HEARTBEAT -> HandshakeCodec.checkHeartbeat(length);
            default -> throw new FrameException(Frame.typeName(type)
                    + " frame after the handshake (expected MESSAGES or HEARTBEAT)");
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (peer != null && ctx.channel().isWritable()) {
            ctx.executor().execute(drainTask);
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * A failed TLS handshake is reported here before the TLS handler closes the channel, so it is
     * handled as a handshake error (which decides whether to dial again) before the close is seen.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess() && !tlsFailed) {
            tlsFailed = true;
            String reason = reasonFor(completion.cause());
            LOG.error("{}: closing the connection {}: {}", cluster.self(), describe(), reason);
            if (peer == null) {
                onHandshakeError(completion.cause(), reason);
            } else {
                close(reason);
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (tlsFailed && TlsContexts.tlsFailure(cause) != null) {
            return;
        }
        String reason = reasonFor(cause);
        if (cause instanceof IOException) {
            LOG.debug("{}: closing the connection {}: {}", cluster.self(), describe(), reason);
        } else if (cause instanceof FrameException) {
            LOG.error("{}: closing the connection {}: {}", cluster.self(), describe(), reason);
        } else {
            LOG.error("{}: closing the connection {}: {}", cluster.self(), describe(), reason, cause);
        }
        if (peer == null) {
            onHandshakeError(cause, reason);
        } else {
            close(reason);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (liveness != null) {
            liveness.cancel(false);
        }
        if (peer != null) {
            cluster.lost(peer, peer.address() + ": " + (closeReason != null ? closeReason : "connection closed"));
        } else {
            onClosedBeforeHandshake(closeReason);
        }
        ctx.fireChannelInactive();
    }

    /** The handshake succeeded with {@code handshaken}, whose connection this now is. */
    protected final void established(Peer handshaken) {
        this.peer = handshaken;
        cluster.established(handshaken);
        handshaken.outbox().attach(ctx.executor(), drainTask);
    }

    /** Closes the connection for {@code reason} (kept for the failure report). */
    protected final void close(String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        ctx.close();
    }

    /** Writes {@code lastFrame}, then closes the connection for {@code reason}. */
    protected final void closeAfter(ByteBuf lastFrame, String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        ctx.writeAndFlush(lastFrame).addListener(ChannelFutureListener.CLOSE);
    }

    /** The channel's context, for subclasses' handshake frames. */
    protected final ChannelHandlerContext context() {
        return ctx;
    }

    /**
     * Writes what is queued for the peer, then closes once it is written (the node is closing).
     *
     * @return completes when the connection is closed
     */
    ChannelFuture closeGracefully() {
        ctx.executor().execute(() -> {
            if (peer != null && ctx.channel().isActive()) {
                peer.outbox().drainTo(ctx, true);
            }
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        });
        return ctx.channel().closeFuture();
    }

    private void drain() {
        if (ctx.channel().isActive() && peer.outbox().drainTo(ctx, false)) {
            lastWriteNanos = System.nanoTime();
        }
    }

    private void checkLiveness() {
        long now = System.nanoTime();
        long silentNanos = now - lastReadNanos;
        if (silentNanos > (peer == null ? handshakeTimeoutNanos : failureTimeoutNanos)) {
            String reason = (peer == null ? "no handshake for " : "no heartbeat for ")
                    + TimeUnit.NANOSECONDS.toMillis(silentNanos) + " ms";
            LOG.warn("{}: closing the connection {}: {}", cluster.self(), describe(), reason);
            close(reason);
        } else if (peer != null && now - lastWriteNanos >= livenessPeriodNanos) {
            ctx.writeAndFlush(HandshakeCodec.encodeHeartbeat(ctx.alloc()), ctx.voidPromise());
            lastWriteNanos = now;
        }
    }

    private String describe() {
        return peer != null ? "to " + peer.description() : "with " + ctx.channel().remoteAddress();
    }

    /** A short reason for a failure, for logs and the failure report. */
    private static String reasonFor(Throwable cause) {
        Throwable tls = TlsContexts.tlsFailure(cause);
        if (tls instanceof NotSslRecordException) {
            return "the peer does not use TLS (expected TLS, which this node requires)";
        }
        if (tls != null) {
            return "TLS handshake failed: " + tls.getMessage();
        }
        if (cause instanceof FrameException) {
            return "malformed frame: " + cause.getMessage();
        }
        if (cause instanceof DecoderException && cause.getCause() != null) {
            return "message handler failed: " + cause.getCause();
        }
        return cause instanceof IOException ? cause.getMessage() : cause.toString();
    }
}
