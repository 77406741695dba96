package io.adaps.transport.netty;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.DirectBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.EventExecutor;

/**
 * The messages queued for one peer, already framed.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>One copy, no per-message object</b>: a sender copies its message straight into the
 *       MESSAGES frame being filled (a pooled {@link ByteBuf} of {@link Frame#BATCH_BYTES}), under a
 *       lock held only for that copy. A full frame is sealed and queued; the next message opens a new
 *       one.</li>
 *   <li><b>Coalescing without added latency</b>: the first message after a drain schedules one drain
 *       task on the peer's event loop (a wake-up only when the loop is idle); messages arriving before
 *       it runs join the same frames. The drain writes every queued frame and flushes once, so an idle
 *       link sends a message at once and a busy link sends large frames with few system calls.
 *       Messages sent from the event loop itself (answers from handlers) are written after the current
 *       read batch, together, unless {@link #EAGER_DRAIN_BYTES} of them pile up: those are written at
 *       once, so that the first parts of a large answer travel (and the requester copies them out)
 *       while the loop serves the rest. This beats {@code FlushConsolidationHandler}, which still
 *       costs a pipeline write, a promise and a buffer per message.</li>
 *   <li><b>Back-pressure</b>: {@code pendingBytes} counts the bytes queued here. Above
 *       {@code maxPendingBytes} a sender that may block waits (bounded by its timeout) until a drain
 *       makes room; an empty outbox always admits one message. The drain moves frames into the channel
 *       only while it is writable (its high water mark bounds what Netty buffers) and resumes when it
 *       becomes writable again, so memory per peer stays below {@code maxPendingBytes} plus the high
 *       water mark plus one frame. Senders that must not block (event-loop threads) are admitted
 *       regardless: what they send is bounded by what they were asked.</li>
 * </ul>
 */
final class Outbox {
    /** What became of an {@link #append}. */
    enum Append {
        /** The message is queued. */
        APPENDED,
        /** The outbox was closed: the peer failed or the transport closed. */
        CLOSED,
        /** No room within the timeout. */
        BACK_PRESSURED,
        /** The sender was interrupted while waiting for room (its interrupt flag is set again). */
        INTERRUPTED
    }

    /**
     * Queued bytes at which a message appended on the event loop drains the outbox at once instead
     * of after the read batch: two frames' worth, so small answers still go out together.
     */
    static final int EAGER_DRAIN_BYTES = 2 * Frame.BATCH_BYTES;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition drained = lock.newCondition();
    private final ArrayDeque<ByteBuf> sealed = new ArrayDeque<>();
    private final MessagesFrameWriter writer = new MessagesFrameWriter();
    private final ByteBufAllocator allocator;
    private final long maxPendingBytes;
    private long pendingBytes;
    private int waiters;
    private boolean closed;
    private boolean drainPending;
    private EventExecutor drainExecutor;
    private Runnable drainTask;

    /**
     * @param allocator       where frames come from
     * @param maxPendingBytes queued bytes above which senders that may block wait
     */
    Outbox(ByteBufAllocator allocator, long maxPendingBytes) {
        this.allocator = allocator;
        this.maxPendingBytes = maxPendingBytes;
    }

    /**
     * Copies {@code src[offset, offset + length)} into the outbox. Waits up to {@code timeoutNanos}
     * for room when the outbox is full; with {@code timeoutNanos == 0} it never waits.
     */
    Append append(DirectBuffer src, int offset, int length, long timeoutNanos) {
        boolean scheduleDrain;
        boolean drainNow;
        lock.lock();
        try {
            if (timeoutNanos > 0 && isFullFor(length)) {
                Append waited = awaitRoom(length, timeoutNanos);
                if (waited != Append.APPENDED) {
                    return waited;
                }
            }
            if (closed) {
                return Append.CLOSED;
            }
            if (writer.isOpen() && !writer.hasRoomFor(length)) {
                sealed.add(writer.seal());
            }
            if (!writer.isOpen()) {
                writer.open(allocator.ioBuffer(MessagesFrameWriter.frameCapacity(length)));
                pendingBytes += Frame.HEADER_LENGTH;
            }
            pendingBytes += writer.append(src, offset, length);
            drainNow = pendingBytes >= EAGER_DRAIN_BYTES && drainExecutor != null && drainExecutor.inEventLoop();
            scheduleDrain = !drainNow && !drainPending && drainExecutor != null;
            drainPending |= scheduleDrain;
        } finally {
            lock.unlock();
        }
        if (drainNow) {
            drainTask.run();
        } else if (scheduleDrain) {
            try {
                drainExecutor.execute(drainTask);
            } catch (RejectedExecutionException e) {
                return Append.CLOSED; // the transport closed since the check above
            }
        }
        return Append.APPENDED;
    }

    private boolean isFullFor(int length) {
        return pendingBytes > 0 && pendingBytes + length > maxPendingBytes;
    }

    private Append awaitRoom(int length, long timeoutNanos) {
        long left = timeoutNanos;
        waiters++;
        try {
            while (!closed && isFullFor(length)) {
                if (left <= 0) {
                    return Append.BACK_PRESSURED;
                }
                left = drained.awaitNanos(left);
            }
            return Append.APPENDED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Append.INTERRUPTED;
        } finally {
            waiters--;
        }
    }

    /**
     * From now on, appends schedule {@code drainTask} on {@code executor} (the connection's event
     * loop); schedules it at once if messages are already queued.
     */
    void attach(EventExecutor executor, Runnable drainTask) {
        boolean scheduleDrain;
        lock.lock();
        try {
            this.drainExecutor = executor;
            this.drainTask = drainTask;
            scheduleDrain = !drainPending && (writer.isOpen() || !sealed.isEmpty());
            drainPending |= scheduleDrain;
        } finally {
            lock.unlock();
        }
        if (scheduleDrain) {
            executor.execute(drainTask);
        }
    }

    /**
     * Writes queued frames to {@code ctx} while its channel is writable (or, with
     * {@code ignoreWritability}, all of them) and flushes once. Runs on the channel's event loop.
     *
     * @return whether anything was written
     */
    boolean drainTo(ChannelHandlerContext ctx, boolean ignoreWritability) {
        Channel channel = ctx.channel();
        boolean wrote = false;
        while (ignoreWritability || channel.isWritable()) {
            ByteBuf frame = take();
            if (frame == null) {
                break;
            }
            ctx.write(frame, ctx.voidPromise());
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
        return wrote;
    }

    /** The oldest queued frame, or null (and no drain pending any more) when there is none. */
    private ByteBuf take() {
        lock.lock();
        try {
            ByteBuf frame = sealed.poll();
            if (frame == null && writer.isOpen()) {
                frame = writer.seal();
            }
            if (frame == null) {
                drainPending = false;
                return null;
            }
            pendingBytes -= frame.readableBytes();
            if (waiters > 0) {
                drained.signalAll();
            }
            return frame;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses appends from now on and wakes waiting senders; what is queued stays for a last drain. */
    void close() {
        lock.lock();
        try {
            closed = true;
            drained.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Releases every queued frame; call after {@link #close}. */
    void release() {
        lock.lock();
        try {
            writer.discard();
            ByteBuf frame;
            while ((frame = sealed.poll()) != null) {
                frame.release();
            }
            pendingBytes = 0;
        } finally {
            lock.unlock();
        }
    }
}
