package io.adaps.placement;

import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import io.adaps.intent.ActionWindow;
import io.adaps.rpc.Requester;

/**
 * The manager's synchronization duty: runs a {@link ReplicaSync} round at once when a worker
 * waits for one or, under an eager model, when the node's workers advanced far enough since the
 * last round, and otherwise while replicas exist (or wait to be dropped), paced by
 * {@link RoundPacing}; each round's duration feeds the {@link ActionWindow}. Under an eager model
 * the workers' clocks set the rhythm, a round per {@link AdaptiveManager#eagerRoundClocks} clocks
 * of the node's slowest worker, and a paced round runs only after
 * {@value AdaptiveManager#EAGER_ROUND_INTERVAL_MILLIS} ms per such clock without one, so that
 * replicas still converge when the clocks stand still: rounds paced in between added a quarter to
 * the rounds of MF on two nodes and 7% to their manager's and transport's time, and bought no
 * quality there. Where clocks are coarse they carry the convergence, though: paced after 1.5 of
 * the workers' clock periods per clock instead (at most 250 ms), 2-node MF ran 40% fewer rounds and
 * 11-20% shorter epochs at the same test RMSE, but 4 nodes sharing 2 processors, whose clocks
 * then come about twice an epoch, diverged in both runs (test RMSE 0.71 and 0.41 against 0.111
 * and 0.1105; issue 13, a twenty-second session). Fewer rounds were not what shortened those epochs:
 * paced after 40 or 80 ms per clock, 2-node MF ran 74-105 rounds per node instead of 129-143, its
 * transport took half the time, and its epochs were no shorter (a twenty-third session).
 *
 * <p>A round that a worker asked for (it waits for it) keeps the next paced round only the
 * minimum interval away, not its share of the round's duration: under {@code bsp} every clock
 * starts with such rounds (its workers wait for fresh replicas), and on a busy cluster, whose
 * owners answer late, they are long; counted against the share, they pushed the next paced round
 * past the whole clock, every node's replicas then followed their own node's steps alone from one
 * clock to the next, and the owners summed the nodes' steps on the hottest parameters: the
 * {@code mf} example's test RMSE swung between 0.12 and 0.22 on 4 and 5 nodes (now within 1.5% of
 * the single node's) and diverged on 6 (issue 13).
 * Manager thread.
 */
final class SyncAgent implements Agent {
    private final ReplicaSync sync;
    private final Requester requester;
    private final ActionWindow window;
    private final NanoClock clock;
    private final LongPredicate wanted;
    private final RoundPacing pacing;

    /** @param wanted whether a replica marked for dropping is wanted again (then it stays) */
    SyncAgent(ReplicaSync sync, Requester requester, ActionWindow window, NanoClock clock, LongPredicate wanted) {
        this.sync = sync;
        this.requester = requester;
        this.window = window;
        this.clock = clock;
        this.wanted = wanted;
        long interval = sync.eager()
                ? TimeUnit.MILLISECONDS.toNanos((long) AdaptiveManager.EAGER_ROUND_INTERVAL_MILLIS * sync.roundClocks())
                : TimeUnit.MICROSECONDS.toNanos(AdaptiveManager.ROUND_INTERVAL_MICROS);
        this.pacing = new RoundPacing(AdaptiveManager.SYNC_SHARE, interval);
    }

    @Override
    public int doWork() {
        if (!sync.due()) {
            sync.idle();
            return 0;
        }
        boolean requested = sync.requestedNow();
        if (!(requested || sync.eagerlyDue() || pacing.due(clock.nanoTime()))) {
            return 0;
        }
        long duration = sync.run(requester, wanted);
        window.onRound(duration);
        if (requested) {
            pacing.ranOnRequest(clock.nanoTime());
        } else {
            pacing.ran(clock.nanoTime(), duration);
        }
        return 1;
    }

    /** Whether a round should start without waiting for its pace. */
    boolean urgent() {
        return sync.requestedNow() || sync.eagerlyDue();
    }

    /** Nanoseconds from {@code now} until the next paced round may start (0 or less: it may now). */
    long untilDue(long now) {
        return pacing.untilDue(now);
    }

    @Override
    public String roleName() {
        return "replica-sync";
    }
}
