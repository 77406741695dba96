package io.adaps.protocol;

import java.util.ArrayDeque;

/**
 * Free {@link MessageBatcher}s per thread, for the parts of the node that build messages on
 * whatever thread delivers a message to them. A handler may be re-entered on the same thread (a
 * message to this node itself is handled while the outer one is being sent), so each nesting
 * level takes its own batcher from the pool and returns it once its messages are sent.
 */
public final class BatcherPool {
    private final int destinations;
    private final int maxMessageBytes;
    private final ThreadLocal<ArrayDeque<MessageBatcher>> free = ThreadLocal.withInitial(ArrayDeque::new);

    /** Batchers for {@code destinations} destinations and messages of at most {@code maxMessageBytes}. */
    public BatcherPool(int destinations, int maxMessageBytes) {
        this.destinations = destinations;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** An empty batcher for the calling thread; give it back with {@link #sendAndRelease}. */
    public MessageBatcher acquire() {
        MessageBatcher batcher = free.get().poll();
        return batcher != null ? batcher : new MessageBatcher(destinations, maxMessageBytes);
    }

    /** Sends what {@code batcher} holds through {@code sender} and returns it to this thread's pool, whatever happens. */
    public void sendAndRelease(MessageBatcher batcher, MessageBatcher.Sender sender) {
        try {
            batcher.flush(sender);
        } finally {
            free.get().push(batcher);
        }
    }
}
