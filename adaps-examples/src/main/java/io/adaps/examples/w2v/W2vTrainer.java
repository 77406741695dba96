package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;
import io.adaps.examples.DataPart;
import io.adaps.examples.Seeds;
import io.adaps.examples.SteppedEpoch;
import io.adaps.examples.mf.ShardPool;

/**
 * Skip-gram training on one AdaPS node: one {@link W2vWorker} per thread of a {@link ShardPool},
 * each training its share of the node's {@link ChunkSchedule}, in steps of one chunk
 * ({@link SteppedEpoch}). The same code trains on a single node or on one node of a cluster
 * (there, on the node's share of the sentences); the node must declare the tables of
 * {@link W2vTables}.
 */
final class W2vTrainer implements SteppedEpoch, AutoCloseable {
    private ChunkSchedule schedule;
    private final W2vWorker[] workers;
    private final ShardPool pool;
    /** Clocks every worker ticks per epoch ({@link io.adaps.examples.EpochClocks}); 0: its most chunks. */
    private int clocksPerEpoch;

    /**
     * A trainer with one thread per thread of {@code schedule}.
     *
     * @param seed seeds what is random in training: each thread's stream is derived from it and
     *             the node and thread numbers
     */
    W2vTrainer(AdaPS node, ChunkSchedule schedule, Subsampler subsampler, SgnsSettings settings, long seed) {
        this(node, DataPart.of(node), schedule, subsampler, settings, seed);
    }

    /**
     * A trainer of {@code part} of the data ({@code schedule} holds its sentences): each thread's
     * stream is derived from {@code seed} and the part's and thread's numbers, so that a part
     * trained alone draws what the cluster's node of that number would.
     */
    W2vTrainer(AdaPS node, DataPart part, ChunkSchedule schedule, Subsampler subsampler, SgnsSettings settings,
               long seed) {
        checkNotNull(node, "node");
        checkNotNull(part, "part");
        this.schedule = checkNotNull(schedule, "schedule");
        checkNotNull(subsampler, "subsampler");
        checkNotNull(settings, "settings");
        this.workers = new W2vWorker[schedule.threads()];
        for (int t = 0; t < workers.length; t++) {
            workers[t] = new W2vWorker(node, schedule, t, subsampler, settings, Seeds.derive(seed, part.index(), t));
        }
        this.pool = new ShardPool(workers.length, "adaps-w2v");
    }

    /** The chunks of the node's most loaded thread, or the clocks of {@link #alignClocks}. */
    @Override
    public int steps() {
        return Math.max(clocksPerEpoch, schedule.mostChunks());
    }

    /**
     * Trains by {@code next} from the next {@link #begin} on: the node's share of the sentences for
     * the coming epochs, cut into as many chunks as before. Between epochs only.
     *
     * @throws IllegalArgumentException if {@code next} has other threads or more chunks than the
     *                                  epoch's steps
     */
    void reschedule(ChunkSchedule next) {
        checkNotNull(next, "next");
        if (next.threads() != schedule.threads() || next.mostChunks() > steps()) {
            throw new IllegalArgumentException("next=" + next.threads() + " threads of up to " + next.mostChunks()
                    + " chunks (expected " + schedule.threads() + " threads of up to " + steps() + " chunks)");
        }
        pool.onEveryThread(thread -> {
            workers[thread].reschedule(next);
            return 0;
        });
        this.schedule = next;
    }

    @Override
    public void begin(int epoch, int from) {
        pool.onEveryThread(thread -> {
            workers[thread].begin(epoch, from);
            return 0;
        });
    }

    /**
     * Trains steps {@code [from, to)} on every thread; after the epoch's last step each thread's
     * updates are synchronized ({@link io.adaps.api.Worker#waitSync()}), and before evaluating, a
     * cluster must also pass a {@link AdaPS#barrier()}, so that every node's updates are in.
     *
     * @param progress receives, from the training threads, the words (before sub-sampling) of each
     *                 chunk once it is trained; it must be thread-safe
     */
    @Override
    public void train(int from, int to, LongConsumer progress) {
        checkNotNull(progress, "progress");
        int steps = steps();
        pool.onEveryThread(thread -> {
            workers[thread].train(from, to, steps, progress);
            return 0;
        });
    }

    /** What the threads trained since the epoch's {@link #begin}. */
    Epoch trained() {
        double loss = 0;
        long pairs = 0;
        for (W2vWorker worker : workers) {
            loss += worker.lossSum();
            pairs += worker.pairs();
        }
        return new Epoch(loss, pairs);
    }

    /**
     * Makes every worker tick {@code clocks} clocks per epoch, the cluster's most chunks of a thread
     * (see {@link io.adaps.examples.EpochClocks}).
     */
    void alignClocks(int clocks) {
        this.clocksPerEpoch = clocks;
    }

    /** The training threads. */
    int threads() {
        return workers.length;
    }

    /** The node's training words per epoch (before sub-sampling). */
    long words() {
        long words = 0;
        for (int t = 0; t < schedule.threads(); t++) {
            words += schedule.threadWords(t);
        }
        return words;
    }

    @Override
    public void close() {
        pool.close();
    }

    /**
     * What an epoch of this node trained.
     *
     * @param lossSum the sum over its pairs of the loss before each pair's step
     * @param pairs   its (center, context) pairs
     */
    record Epoch(double lossSum, long pairs) {
    }
}
