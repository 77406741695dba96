package io.adaps.transport.netty;

import java.util.concurrent.ThreadFactory;

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

/** The I/O mechanism: Linux epoll when its native library loads, NIO otherwise. */
enum IoKind {
    EPOLL(EpollServerSocketChannel.class, EpollSocketChannel.class) {
        @Override
        IoHandlerFactory handlers() {
            return EpollIoHandler.newFactory();
        }
    },
    NIO(NioServerSocketChannel.class, NioSocketChannel.class) {
        @Override
        IoHandlerFactory handlers() {
            return NioIoHandler.newFactory();
        }
    };

    private final Class<? extends ServerChannel> serverChannel;
    private final Class<? extends SocketChannel> channel;

    IoKind(Class<? extends ServerChannel> serverChannel, Class<? extends SocketChannel> channel) {
        this.serverChannel = serverChannel;
        this.channel = channel;
    }

    /** Epoll if {@code allowNative} and it is available, else NIO. */
    static IoKind select(boolean allowNative) {
        return allowNative && Epoll.isAvailable() ? EPOLL : NIO;
    }

    abstract IoHandlerFactory handlers();

    /** An event loop group of {@code threads} threads made by {@code threadFactory}. */
    EventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, handlers());
    }

    Class<? extends ServerChannel> serverChannel() {
        return serverChannel;
    }

    Class<? extends SocketChannel> channel() {
        return channel;
    }
}
