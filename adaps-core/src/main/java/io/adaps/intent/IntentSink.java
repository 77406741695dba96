package io.adaps.intent;

import org.agrona.DirectBuffer;

/**
 * Receives the intents drained from an {@link IntentQueue}, a batch of keys at a time, so that a
 * drain costs one call per record rather than one per key.
 */
@FunctionalInterface
public interface IntentSink {
    /**
     * One batch: the worker will access keys {@code buffer.getLong(keysOffset + 8 * i)} for
     * {@code i < count} during its clocks {@code [fromClock, toClock)}. The buffer is the queue's
     * own memory and is reused once this call returns: copy what must be kept.
     */
    void onIntents(DirectBuffer buffer, int keysOffset, int count, long fromClock, long toClock);
}
