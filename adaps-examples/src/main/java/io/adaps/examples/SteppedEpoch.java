package io.adaps.examples;

import java.util.function.LongConsumer;

/**
 * An epoch of training in steps that every training thread of every node takes alike, so that
 * the boundary between two steps is a point where the whole cluster can stand still and be
 * checkpointed ({@link EpochCuts}): the chunks of {@code mf}'s intent plan and of {@code w2v} (one
 * clock each; a thread with fewer chunks ticks empty steps), the sub-epochs of {@code mf}'s
 * blocked plan, or parts of the shares of its Hogwild plan. What a step trains depends only on
 * the run's options, the epoch and the step, so a run resumed after step {@code k} trains exactly
 * the steps, and the data, that an uninterrupted run would have.
 */
public interface SteppedEpoch {
    /** Steps per epoch: the same on every node. */
    int steps();

    /**
     * Whether the schedule needs a barrier of the cluster after every step, checkpoints or not
     * (the blocked plan's sub-epochs): then every step boundary is a cut.
     */
    default boolean barrierEveryStep() {
        return false;
    }

    /**
     * Starts epoch {@code epoch} (from 1) at step {@code from}: 0, or the step that a resumed run
     * continues with. {@link #train} then follows from there, in order, up to the last step.
     */
    default void begin(int epoch, int from) {
    }

    /**
     * Trains steps {@code [from, to)} on every training thread and returns once each has waited
     * for its updates; after the epoch's last step, also for those its node's replicas hold
     * ({@link io.adaps.api.Worker#waitSync()}).
     *
     * @param progress receives, from the training threads, the entries or words they trained; it
     *                 must be thread-safe
     */
    void train(int from, int to, LongConsumer progress);
}
