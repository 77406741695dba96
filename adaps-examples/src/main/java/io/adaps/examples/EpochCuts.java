package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;

/**
 * Runs an epoch ({@link SteppedEpoch}) and cuts it where a checkpoint may be taken mid-epoch.
 *
 * <p>The cuts are the step boundaries at multiples of {@code ceil(steps / }{@value #PER_EPOCH}{@code )},
 * the same on every thread of every node, since they all agree on the steps. At a cut every
 * thread of the node has finished its steps and waited for its updates ({@link SteppedEpoch#train}
 * returns then, so the threads have met), the node saves its {@link EpochProgress}, and the
 * caller, the node's one barrier thread, calls {@link AdaPS#barrier()}: a barrier with every
 * worker between operations, which is a checkpoint's cut.
 * {@link AdaPS.Builder#checkpointEvery} takes its periodic checkpoints at the first barrier after
 * the period, so at a cut, and a run resumed from one continues with the step after it.
 *
 * <p>A cut costs a barrier, a few per epoch, so cuts are made only when checkpoints are taken
 * mid-epoch ({@link Checkpointing#midEpoch()}), and after every step of a schedule that has a
 * barrier there anyway. The progress is saved at those too, and after the last step: periodic
 * checkpoints are taken at any barrier of the node, and each must say where training stands.
 */
public final class EpochCuts {
    /** Cuts per epoch, at most: enough that a checkpoint comes soon after its period, few barriers. */
    public static final int PER_EPOCH = 8;

    private final AdaPS node;
    private final Checkpointing checkpoints;

    /** Cuts of epochs on {@code node}, which save their progress with {@code checkpoints}. */
    public EpochCuts(AdaPS node, Checkpointing checkpoints) {
        this.node = checkNotNull(node, "node");
        this.checkpoints = checkNotNull(checkpoints, "checkpoints");
    }

    /**
     * Trains {@code epoch} from {@code at} to its end, cutting it as above. Collective: every
     * node runs the same epoch from the same step at once.
     *
     * @param progress receives the entries or words trained (see {@link SteppedEpoch#train})
     * @return the entries or words this node trained
     * @throws IllegalArgumentException if {@code at} has other steps than {@code epoch}
     */
    public long train(SteppedEpoch epoch, EpochProgress at, LongConsumer progress) {
        checkNotNull(progress, "progress");
        int steps = epoch.steps();
        if (at.steps() != steps) {
            throw new IllegalArgumentException("at=" + at + " (expected " + steps + " steps, the epoch's)");
        }
        int every = epoch.barrierEveryStep() ? 1 : checkpoints.midEpoch() ? ceilDiv(steps, PER_EPOCH) : steps;
        LongAdder trained = new LongAdder();
        LongConsumer counted = units -> {
            trained.add(units);
            progress.accept(units);
        };
        epoch.begin(at.epoch(), at.step());
        for (int from = at.step(); from < steps; ) {
            int to = Math.min(steps, (from / every + 1) * every);
            epoch.train(from, to, counted);
            checkpoints.save(at.after(to, at.done() + trained.sum()));
            if (to < steps) {
                node.barrier();
            }
            from = to;
        }
        return trained.sum();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
