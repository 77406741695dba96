package io.adaps.transport.netty;

import java.util.concurrent.atomic.AtomicInteger;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * Makes the I/O threads of one transport, daemon threads named {@code adaps-netty-<node>-<n>}, and
 * tells whether the calling thread is such a thread (of any transport in this JVM): those threads
 * must never block in {@link NettyTransport#send}.
 */
final class TransportThreads extends DefaultThreadFactory {
    private final String prefix;
    private final AtomicInteger next = new AtomicInteger();

    /** Threads for node {@code nodeId}. */
    TransportThreads(int nodeId) {
        super("adaps-netty-" + nodeId, true);
        this.prefix = "adaps-netty-" + nodeId + "-";
    }

    @Override
    protected Thread newThread(Runnable task, String ignoredName) {
        return new TransportThread(threadGroup, task, prefix + next.incrementAndGet());
    }

    /** Whether the caller runs on a transport's I/O thread. */
    static boolean isTransportThread() {
        return Thread.currentThread() instanceof TransportThread;
    }

    private static final class TransportThread extends FastThreadLocalThread {
        TransportThread(ThreadGroup group, Runnable task, String name) {
            super(group, task, name);
        }
    }
}
