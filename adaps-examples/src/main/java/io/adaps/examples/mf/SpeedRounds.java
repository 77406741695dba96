package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

import io.adaps.examples.SpeedShares;

/**
 * The shares of a run's epochs by the nodes' speeds ({@link SpeedShares}), measured over the
 * latest epochs' rounds of {@link ClusterStats}: each node's speed is the units it trained over the
 * seconds it was busy in the newest epochs that add up to {@link #MIN_MEASURED_SECONDS} of every
 * node's time (at most the {@value ClusterStats#ROUNDS_KEPT} the table keeps), the first epoch
 * left out. Until the epochs measured add up to that, the shares stay as they are.
 *
 * <p>Why a second at least: a matrix factorization epoch of 0.2-0.3 s on a processor of its own
 * is often 20-40% longer on one node than on the other for a reason that passes (the JIT
 * compiling, a collection, the manager's burst), while word2vec's epochs of several seconds
 * average such bursts out. Shares that followed single matrix factorization epochs (or two) moved
 * on equal processors as often as not, and every move costs the next epoch: the rows that change
 * nodes are relocated, the new plan's code is cold and the plan takes 50-200 ms to make; the
 * epochs were 10% longer than with even shares (5 pairs in turns). The first epoch, with most of
 * the compilations, tells least of all.
 *
 * <p>Every node sees the same rounds, so every node computes the same shares; a run resumed from a
 * checkpoint taken after epoch {@code e} reads the rounds of the epochs before again
 * ({@link #resume}), which the table still holds.
 */
public final class SpeedRounds {
    /** The least busy time of every node that a measurement of the speeds spans, in seconds. */
    public static final double MIN_MEASURED_SECONDS = 1.0;

    private final ClusterStats stats;
    /** The rounds of the latest epochs but the first, newest first. */
    private final Deque<ClusterStats.Round> measured = new ArrayDeque<>();
    /** The epochs whose rounds this has seen. */
    private int epochs;

    /** The shares of a run whose nodes combine their rounds through {@code stats}. */
    public SpeedRounds(ClusterStats stats) {
        this.stats = checkNotNull(stats, "stats");
    }

    /**
     * The shares of the epoch after the one whose round is {@code round}, called after each epoch
     * in order: {@link SpeedShares#next} from the round's shares at the speeds of the latest epochs,
     * or the round's shares until they span {@link #MIN_MEASURED_SECONDS}.
     */
    public double[] next(ClusterStats.Round round) {
        checkNotNull(round, "round");
        if (++epochs > 1) {
            measured.addFirst(round);
            if (measured.size() > ClusterStats.ROUNDS_KEPT) {
                measured.removeLast();
            }
        }
        double[] shares = round.nodeShares();
        long[] trained = new long[shares.length];
        double[] busy = new double[shares.length];
        for (ClusterStats.Round epoch : measured) {
            long[] epochTrained = epoch.nodeTrained();
            double[] epochBusy = epoch.nodeBusySeconds();
            for (int i = 0; i < shares.length; i++) {
                trained[i] += epochTrained[i];
                busy[i] += epochBusy[i];
            }
            if (Arrays.stream(busy).min().orElse(0) >= MIN_MEASURED_SECONDS) {
                return SpeedShares.next(shares, trained, busy);
            }
        }
        return shares;
    }

    /**
     * The shares of epoch {@code epoch} of a run resumed before it: what {@link #next} gave the run
     * it continues after epoch {@code epoch - 1}, from the rounds of the epochs before read again.
     *
     * @throws IllegalArgumentException if {@code epoch < 2}: before it, no epoch was trained
     */
    public double[] resume(int epoch) {
        if (epoch < 2) {
            throw new IllegalArgumentException("epoch=" + epoch + " (expected >= 2)");
        }
        measured.clear();
        int first = Math.max(1, epoch - ClusterStats.ROUNDS_KEPT);
        epochs = first - 1;
        double[] shares = null;
        for (int round = first; round < epoch; round++) {
            shares = next(stats.read(round));
        }
        return shares;
    }
}
