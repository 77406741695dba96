package io.adaps.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A {@link SteppedEpoch} that trains nothing: step {@code s} reports {@code 100 + s} entries, and
 * it records the steps it was asked to train; it fails at step {@code failAt}, as a node that dies.
 */
final class RecordingEpoch implements SteppedEpoch {
    private final int steps;
    private final boolean barrierEveryStep;
    private final int failAt;
    /** The {@code [from, to)} of every call of {@link #train}, in order. */
    final List<List<Integer>> segments = new ArrayList<>();
    final List<List<Integer>> begins = new ArrayList<>();

    RecordingEpoch(int steps, boolean barrierEveryStep, int failAt) {
        this.steps = steps;
        this.barrierEveryStep = barrierEveryStep;
        this.failAt = failAt;
    }

    /** The entries of steps {@code [from, to)}. */
    static long entries(int from, int to) {
        long sum = 0;
        for (int step = from; step < to; step++) {
            sum += 100 + step;
        }
        return sum;
    }

    @Override
    public int steps() {
        return steps;
    }

    @Override
    public boolean barrierEveryStep() {
        return barrierEveryStep;
    }

    @Override
    public void begin(int epoch, int from) {
        begins.add(List.of(epoch, from));
    }

    @Override
    public void train(int from, int to, LongConsumer progress) {
        for (int step = from; step < to; step++) {
            if (step == failAt) {
                throw new IllegalStateException("the node died in step " + step);
            }
            progress.accept(100 + step);
        }
        segments.add(List.of(from, to));
    }
}
