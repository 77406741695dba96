package io.adaps.examples.mf;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.DataPart;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.examples.SetupGarbage;
import io.adaps.examples.SpeedShares;
import io.adaps.examples.SteppedEpoch;
import io.adaps.examples.ThreadCpu;
import io.adaps.examples.mf.RunOutput.Accesses;
import me.tongfei.progressbar.ProgressBar;

/**
 * One node's share of a training run, on a cluster of one or more nodes: every node holds the same
 * data, trains on its part of the training entries each epoch as its {@link EpochPlan} says, and
 * evaluates its part of the test entries; the nodes combine their sums into the cluster's RMSEs
 * and local-access fraction ({@link ClusterStats}). The training RMSE of an epoch is that of its
 * steps, each entry's error taken before its step (as word2vec's training loss is); the initial
 * model's is evaluated on the training entries.
 *
 * <p>Per epoch: {@link AdaPS#barrier()} (every node starts at once), train in steps, with a barrier
 * at each cut ({@link EpochCuts}; each thread waits for its updates), {@link AdaPS#barrier()},
 * evaluate and combine. Node 0 reports the epoch (its time
 * includes waiting for the slowest node, so it is the cluster's; the local fraction is that of all
 * nodes' training accesses in the epoch) and draws the progress bar on stderr, and prints one
 * machine-readable line per epoch ({@link #resultLine}) for scripts such as the technique
 * comparison of {@code adaps-bench}. After the last epoch every node reports its metrics.
 *
 * <p><b>Shares by speed</b> (on a cluster whose plan deals by shares, unless turned off): each
 * node adds to the epoch's round its share and how long it was busy training
 * ({@link SpeedShares#busySeconds}), and every node then trains the next epoch in the shares of the
 * entries that {@link SpeedRounds} gives for the nodes' speeds ({@link EpochPlan#byShares}) when
 * they change: rows move between the nodes' shares (and the library moves their factors after the
 * intents), each node's chunks grow or shrink with its share and their number per epoch stays the
 * one the clocks agreed on. A run resumed from a checkpoint reads the rounds before its epoch again
 * ({@link SpeedRounds#resume}) and trains that epoch in the same shares as the run it continues.
 */
final class MfRun {
    /**
     * Batches whose pulls the initial model's evaluation keeps in flight at once (the later ones,
     * on keys mostly placed, pull one batch at a time). Before any key is placed most of its pulls
     * are remote: waiting for each batch's round trips took node 0 of the default 2-node example
     * 4.8-5.8 s in a slow sitting, 16 batches at once 3.2-3.5 s, and the whole run was 10% shorter
     * (4 pairs). Those thousands of pulls are also what gets C2 to compile the message path, which
     * an epoch's few hundred messages reach only slowly ({@code docs/architecture.md}); in flight
     * together they travel in fewer frames: with 256 batches at once the evaluation took 1.2-1.8
     * s, but 4 nodes sharing 2 cores then trained 12% slower per epoch (docs/benchmarks.md).
     */
    static final int INITIAL_BATCHES_IN_FLIGHT = MfSgdKernel.MAX_BATCHES_IN_FLIGHT;

    private final AdaPS node;
    private final DataPart part;
    private final MfTrainer trainer;
    private final Function<double[], EpochPlan> plans;
    private final boolean balances;
    /** The plan of the next epoch: at even shares, then by the shares of the nodes' speeds. */
    private EpochPlan plan;
    /** The shares of the next epoch's entries: even, or following the nodes' speeds. */
    private double[] shares;
    private final ClusterStats stats;
    private final SpeedRounds speeds;
    private final PrintWriter out;
    private final Checkpointing checkpoints;

    /**
     * A run of {@code trainer} on {@code node} as the plans say.
     *
     * @param part        the share of the data the plans train, which the run's reports name
     * @param plans       the node's plans by the shares of {@code part.count()} nodes
     *                    ({@link EpochPlan#byShares})
     * @param out         where the reports go
     * @param checkpoints when to checkpoint, and whether the run resumed from one
     * @param balance     whether a cluster's nodes train shares by speed (a single node has all)
     */
    MfRun(AdaPS node, DataPart part, MfTrainer trainer, Function<double[], EpochPlan> plans, PrintWriter out,
          Checkpointing checkpoints, boolean balance) {
        this.node = node;
        this.part = part;
        this.trainer = trainer;
        this.plans = plans;
        this.shares = SpeedShares.even(part.count());
        this.plan = plans.apply(shares);
        this.balances = balance && node.clusterSize() > 1 && plan.dealsByShares();
        this.stats = new ClusterStats(node);
        this.speeds = new SpeedRounds(stats);
        this.out = out;
        this.checkpoints = checkpoints;
    }

    /** The plan of the next epoch: before the run, the plan at even shares. */
    EpochPlan plan() {
        return plan;
    }

    /**
     * Evaluates the initial model, then trains and evaluates {@code epochs} epochs; a run resumed
     * from a checkpoint continues where it was taken: with the epoch after the one it saved, or
     * within an epoch, with the steps after its cut.
     */
    void run(int epochs) {
        if (part.isShare()) {
            out.printf(Locale.ROOT, "%s: trains on %d entries, tests on %d%n", part.describe(), plan.train().size(),
                    plan.test().size());
        }
        SteppedEpoch steps = plan.epoch(trainer);
        EpochProgress at = checkpoints.start(node, steps.steps(), out);
        if (balances && at.epoch() > 1) {
            steps = reshare(speeds.resume(at.epoch()), steps);
        }
        if (at.epoch() == 1 && !at.begun()) {
            ClusterStats.Round initial = evaluate(0,
                    trainer.squaredErrors(plan.train(), INITIAL_BATCHES_IN_FLIGHT), plan.train().size(),
                    new Accesses(0, 0), 0, 0);
            if (reports()) {
                out.printf(Locale.ROOT, "epoch %3d: %-57s train RMSE %.4f, test RMSE %.4f%n", 0, "initial model",
                        initial.trainRmse(), initial.testRmse());
            }
        }
        EpochCuts cuts = new EpochCuts(node, checkpoints);
        SetupGarbage.collect();
        ThreadCpu cpu = new ThreadCpu();
        for (int epoch = at.epoch(); epoch <= epochs; epoch++) {
            EpochProgress from = epoch == at.epoch() ? at : EpochProgress.start(epoch, steps.steps());
            NodeMetrics before = node.metrics();
            long trained;
            long trainingNanos;
            double seconds;
            // The bar is made before the clock starts: finding out about the console takes tens of
            // milliseconds, which would count against every epoch.
            try (ProgressBar bar = reports()
                    ? RunOutput.progressBar(epoch, plan.train().size(), from.done(), node.clusterSize() > 1) : null) {
                // Every node starts the epoch at once: node 0 prints and makes its bar first, and a
                // head start of the others moved every shared row to them (the homes decide on the
                // first node with intent when the others come later than the decision delay).
                node.barrier();
                cpu.start();
                long started = System.nanoTime();
                trained = cuts.train(steps, from, bar == null ? entries -> { } : bar::stepBy);
                trainingNanos = System.nanoTime() - started;
                node.barrier();
                seconds = cpu.stop(epoch);
            }
            NodeMetrics after = node.metrics();
            long evaluating = System.nanoTime();
            MfTrainer.Trained stepped = trainer.takeTrained();
            ClusterStats.Round result = evaluate(epoch, stepped.squaredErrors(), stepped.entries(),
                    Accesses.of(after).minus(Accesses.of(before)), trained,
                    SpeedShares.busySeconds(trainingNanos, before, after, trainer.threads()));
            double[] trainedShares = shares;
            if (balances && epoch < epochs) {
                steps = reshare(speeds.next(result), steps);
            }
            if (reports()) {
                out.printf(Locale.ROOT, "epoch %3d: %6.2f s, %5.2f M entries/s, %5.1f%% local, %5.2f s eval, "
                                + "train RMSE %.4f, test RMSE %.4f%n", epoch, seconds,
                        result.trained() / seconds / 1e6, 100 * result.localFraction(),
                        (System.nanoTime() - evaluating) / 1e9, result.trainRmse(), result.testRmse());
                if (!Arrays.equals(shares, trainedShares)) {
                    out.println("           shares of the next epoch's entries, by speed: "
                            + SpeedShares.describe(shares));
                }
                out.println(resultLine(epoch, seconds, result.testRmse(), result.localFraction(),
                        after.bytesSent(), result.trained()));
                out.flush();
            }
            checkpoints.afterEpoch(node, epoch, epochs, out);
        }
        cpu.lines(part.index()).forEach(out::println);
        RunOutput.printSummary(out, node.metrics());
    }

    /**
     * The machine-readable line of an epoch, e.g.
     * {@code RESULT epoch=3 seconds=4.512 rmse=0.123456 local=0.9731 bytes=123456789 entries=3600000}:
     * the epoch's time in seconds (the cluster's, up to the barrier after training), the cluster's
     * test RMSE after it, the fraction of the cluster's training accesses in the epoch that were
     * local (0 to 1), the bytes this node has sent since it started, and the training entries the
     * cluster worked through in the epoch (so that scripts can put the bytes per entry; in an epoch
     * resumed mid-way, those trained after the cut).
     */
    static String resultLine(int epoch, double seconds, double testRmse, double localFraction, long bytesSent,
                             long entries) {
        return String.format(Locale.ROOT, "RESULT epoch=%d seconds=%.3f rmse=%.6f local=%.4f bytes=%d entries=%d",
                epoch, seconds, testRmse, localFraction, bytesSent, entries);
    }

    /**
     * Plans the next epoch in {@code next} shares, and returns its steps (as many as before: the
     * clocks the nodes agreed on); {@code steps} again if the shares stay as they are.
     */
    private SteppedEpoch reshare(double[] next, SteppedEpoch steps) {
        if (Arrays.equals(next, shares)) {
            return steps;
        }
        shares = next;
        plan = plans.apply(shares);
        return plan.epoch(trainer);
    }

    /** Node 0 reports for the cluster. */
    private boolean reports() {
        return node.nodeId() == 0;
    }

    /**
     * Evaluates the model on the test entries and combines the figures of round {@code round}: the
     * squared errors of {@code trainEntries} training entries, the training's {@code accesses} and
     * the entries it {@code trained} in {@code busySeconds}. After an epoch the training figures are
     * those of its steps (the error of each entry before its step), which cost nothing; evaluating the model on every
     * training entry again took node 0 0.13-0.19 s after each epoch of 0.3-0.45 s, the test entries
     * alone 0.02-0.03 s (2 nodes, the default data), so only the initial model is evaluated that way.
     */
    private ClusterStats.Round evaluate(int round, double trainErrors, long trainEntries, Accesses accesses,
                                        long trained, double busySeconds) {
        MfData test = plan.test();
        double testErrors = trainer.squaredErrors(test, round == 0 ? INITIAL_BATCHES_IN_FLIGHT : 1);
        return stats.combine(round, new ClusterStats.NodeSums(trainErrors, trainEntries, testErrors, test.size(),
                accesses.local(), accesses.remote(), trained, busySeconds, shares[part.index()]));
    }
}
