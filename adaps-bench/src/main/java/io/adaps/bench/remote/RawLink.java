package io.adaps.bench.remote;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The baseline of the remote benchmarks: synchronous request/response over plain Netty on loopback,
 * with nothing of AdaPS. A server and a client in this JVM, each with its own event loop group of
 * one thread (as each AdaPS node's transport has by default), epoll where the AdaPS transport would
 * use it and NIO otherwise, {@code TCP_NODELAY}, direct buffers from Netty's default allocator (as
 * the AdaPS transport) and frames of a 4-byte length prefix cut by
 * {@link LengthFieldBasedFrameDecoder}.
 *
 * <p>A request's bytes are opaque except one field: the little-endian int at offset 4 (where an
 * AdaPS message header has its count) is the length of the answer the server sends. The server
 * copies each request into a scratch array (the least it could do to serve it) and answers with
 * that many bytes copied from a prepared array (the least it could do to produce values); the
 * client copies the answer into the caller's array. The calling thread waits as an AdaPS worker
 * does ({@code RemoteOperations}): {@value #SPINS} spins, then yielding for up to 50 us, then parking
 * until the event loop unparks it, so that both pay the same waiting cost and the difference is
 * what lies between the waits.
 */
final class RawLink implements AutoCloseable {
    /** Offset of the answer length in a request. */
    private static final int ANSWER_LENGTH_OFFSET = 4;
    private static final int LENGTH_PREFIX = 4;
    private static final int MAX_FRAME = 64 << 20;
    private static final int SPINS = 100;
    private static final long YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final EventLoopGroup serverGroup;
    private final EventLoopGroup clientGroup;
    private final Channel server;
    private final Channel client;
    private final Requester requester;

    private RawLink(EventLoopGroup serverGroup, EventLoopGroup clientGroup, Channel server, Channel client,
                    Requester requester) {
        this.serverGroup = serverGroup;
        this.clientGroup = clientGroup;
        this.server = server;
        this.client = client;
        this.requester = requester;
    }

    /** Starts a server on a free loopback port and connects a client to it. */
    static RawLink start() {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup serverGroup = group(epoll, "raw-netty-server");
        EventLoopGroup clientGroup = group(epoll, "raw-netty-client");
        try {
            Channel server = new ServerBootstrap()
                    .group(serverGroup)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(pipeline(Responder::new))
                    .bind(new InetSocketAddress("127.0.0.1", 0))
                    .syncUninterruptibly()
                    .channel();
            Requester requester = new Requester();
            Channel client = new Bootstrap()
                    .group(clientGroup)
                    .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(pipeline(() -> requester))
                    .connect(server.localAddress())
                    .syncUninterruptibly()
                    .channel();
            return new RawLink(serverGroup, clientGroup, server, client, requester);
        } catch (RuntimeException e) {
            shutdown(serverGroup);
            shutdown(clientGroup);
            throw e;
        }
    }

    private static EventLoopGroup group(boolean epoll, String name) {
        IoHandlerFactory handlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name, true), handlers);
    }

    private static ChannelInitializer<SocketChannel> pipeline(Supplier<ChannelInboundHandlerAdapter> handler) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel channel) {
                channel.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, LENGTH_PREFIX, 0, LENGTH_PREFIX),
                        handler.get());
            }
        };
    }

    /**
     * A request of {@code length} bytes (at least 8) that asks for an answer of
     * {@code answerLength} bytes.
     */
    static byte[] request(int length, int answerLength) {
        byte[] request = new byte[length];
        for (int i = 0; i < length; i++) {
            request[i] = (byte) i;
        }
        for (int i = 0; i < Integer.BYTES; i++) {
            request[ANSWER_LENGTH_OFFSET + i] = (byte) (answerLength >>> (8 * i));
        }
        return request;
    }

    /**
     * Sends {@code request} and waits for the answer, which is copied into {@code answer} (as long
     * as the answer the request asks for). One call at a time.
     */
    byte[] call(byte[] request, byte[] answer) {
        requester.expect(answer);
        ByteBuf frame = client.alloc().ioBuffer(LENGTH_PREFIX + request.length);
        frame.writeInt(request.length).writeBytes(request);
        client.writeAndFlush(frame, client.voidPromise());
        requester.await();
        return answer;
    }

    /** Closes the connection and the server and stops both event loops. */
    @Override
    public void close() {
        client.close().awaitUninterruptibly();
        server.close().awaitUninterruptibly();
        shutdown(clientGroup);
        shutdown(serverGroup);
    }

    private static void shutdown(EventLoopGroup group) {
        group.shutdownGracefully(10, 2_000, TimeUnit.MILLISECONDS).awaitUninterruptibly();
    }

    /** The server side: answers each request with as many bytes as it asks for. */
    private static final class Responder extends ChannelInboundHandlerAdapter {
        private byte[] scratch = new byte[0];
        private byte[] values = new byte[0];

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf request = (ByteBuf) msg;
            int answerLength;
            try {
                answerLength = request.getIntLE(request.readerIndex() + ANSWER_LENGTH_OFFSET);
                int length = request.readableBytes();
                if (scratch.length < length) {
                    scratch = new byte[length];
                }
                request.readBytes(scratch, 0, length);
            } finally {
                request.release();
            }
            if (values.length < answerLength) {
                values = new byte[answerLength];
            }
            ByteBuf answer = ctx.alloc().ioBuffer(LENGTH_PREFIX + answerLength);
            answer.writeInt(answerLength).writeBytes(values, 0, answerLength);
            ctx.writeAndFlush(answer, ctx.voidPromise());
        }
    }

    /** The client side: hands the one outstanding answer to the waiting caller. */
    private static final class Requester extends ChannelInboundHandlerAdapter {
        private Thread waiter;
        private byte[] answer;
        private volatile boolean answered;

        void expect(byte[] into) {
            waiter = Thread.currentThread();
            answer = into;
            answered = false;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                frame.readBytes(answer, 0, frame.readableBytes());
            } finally {
                frame.release();
            }
            answered = true;
            LockSupport.unpark(waiter);
        }

        void await() {
            for (int spin = 0; spin < SPINS && !answered; spin++) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            while (!answered && System.nanoTime() - start < YIELD_NANOS) {
                Thread.yield();
            }
            long deadline = start + TIMEOUT_NANOS;
            while (!answered) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no answer within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s");
                }
                LockSupport.parkNanos(this, TIMEOUT_NANOS);
            }
        }
    }
}
