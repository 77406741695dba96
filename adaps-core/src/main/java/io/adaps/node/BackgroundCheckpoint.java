package io.adaps.node;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaps.api.CheckpointException;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;

/** The ticket of a checkpoint whose files a background thread writes and publishes. */
final class BackgroundCheckpoint implements CheckpointTicket {
    private final CompletableFuture<CheckpointResult> result = new CompletableFuture<>();
    private final Duration pause;
    /** How long {@link #await} waits at most: the background's own bound, and a margin. */
    private final Duration bound;
    private final String what;

    BackgroundCheckpoint(Duration pause, Duration bound, String what) {
        this.pause = pause;
        this.bound = bound;
        this.what = what;
    }

    void complete(CheckpointResult done) {
        result.complete(done);
    }

    void fail(CheckpointException failure) {
        result.completeExceptionally(failure);
    }

    @Override
    public Duration pause() {
        return pause;
    }

    @Override
    public boolean isDone() {
        return result.isDone();
    }

    @Override
    public CheckpointResult await() {
        try {
            return result.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            CheckpointException failure = (CheckpointException) e.getCause();
            throw new CheckpointException(failure.getMessage(), failure);
        } catch (TimeoutException e) {
            throw new CheckpointException(what + " not complete within " + bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CheckpointException(what + ": interrupted while waiting for it", e);
        }
    }

    @Override
    public String toString() {
        return what + (isDone() ? " (done)" : " (being written)");
    }
}
