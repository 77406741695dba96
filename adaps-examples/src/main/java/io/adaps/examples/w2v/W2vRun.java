package io.adaps.examples.w2v;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.DataPart;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.examples.SetupGarbage;
import io.adaps.examples.SpeedShares;
import io.adaps.examples.ThreadCpu;
import io.adaps.examples.mf.ClusterStats;
import io.adaps.examples.mf.RunOutput;
import io.adaps.examples.mf.SpeedRounds;
import io.adaps.examples.mf.RunOutput.Accesses;
import me.tongfei.progressbar.ProgressBar;

/**
 * One node's share of a word2vec run, on a cluster of one or more nodes: every node holds the same
 * corpus, trains on its share of the training sentences each epoch ({@link W2vTrainer}) and
 * evaluates the held-out loss of its share of the held-out sentences ({@link W2vEvaluator}), and
 * the nodes add up their sums ({@link ClusterStats}); node 0 also scores the model's similarity
 * and neighbours and reports.
 *
 * <p>Per epoch: {@link AdaPS#barrier()} (every node starts at once), train in steps of a chunk,
 * with a barrier at each cut ({@link EpochCuts}; at the end each thread waits until its updates
 * are synchronized), {@link AdaPS#barrier()}, then every node evaluates its part and node 0
 * scores, while the others wait in the combination's barrier. Node 0 prints a line per epoch (its
 * time includes waiting for the slowest node, so it is the cluster's), the nearest neighbours of a
 * few words, and a machine-readable line ({@link #resultLine}) for scripts such as the technique
 * comparison of {@code adaps-bench}; it draws the progress bar on stderr. After the last epoch
 * every node reports its metrics.
 *
 * <p><b>Shares by speed</b> (on a cluster, unless turned off): each node adds to the epoch's
 * round its share and how long it was busy training ({@link SpeedShares#busySeconds}), and every
 * node then trains the next epoch's sentences in the shares {@link SpeedRounds} gives for those
 * speeds ({@link CorpusSplit#share}), cut into the same chunks per thread as before, so the clocks
 * stay aligned. A run resumed from a checkpoint reads the rounds before its epoch again
 * ({@link SpeedRounds#resume}) and trains that epoch in the same shares as the run it continues.
 */
final class W2vRun {
    /** Name of the table through which the nodes add up their sums. */
    static final String STATS_TABLE = "w2v.stats";
    /** Words whose neighbours are shown, those of them in the vocabulary (else the most frequent words). */
    static final String[] QUERIES = {"president", "commission", "europe", "parliament"};
    private static final int NEIGHBOURS = 5;

    private final AdaPS node;
    private final DataPart part;
    private final W2vTrainer trainer;
    private final CorpusSplit split;
    private final Vocabulary vocabulary;
    private final SgnsSettings settings;
    private final long seed;
    private final ClusterStats stats;
    private final SpeedRounds speeds;
    private final PrintWriter out;
    private final Checkpointing checkpoints;
    private final W2vEvaluator evaluator;
    private final WordGroups groups;
    private final int[] queries;
    private final boolean balances;
    /** The shares of the cluster's nodes in the next epoch's sentences: even, or following their speeds. */
    private double[] shares;

    /**
     * A run of {@code trainer} on {@code node}, which declares {@link #STATS_TABLE}.
     *
     * @param part        the share of the data {@code trainer} trains, which the run's reports name
     * @param seed        seeds the held-out negatives
     * @param out         where the reports go
     * @param checkpoints when to checkpoint, and whether the run resumed from one
     * @param balance     whether a cluster's nodes train shares by speed (a single node has all)
     */
    W2vRun(AdaPS node, DataPart part, W2vTrainer trainer, CorpusSplit split, Vocabulary vocabulary,
           SgnsSettings settings, long seed, PrintWriter out, Checkpointing checkpoints, boolean balance) {
        this.node = node;
        this.part = part;
        this.trainer = trainer;
        this.split = split;
        this.vocabulary = vocabulary;
        this.settings = settings;
        this.seed = seed;
        this.stats = new ClusterStats(node, STATS_TABLE);
        this.speeds = new SpeedRounds(stats);
        this.out = out;
        this.checkpoints = checkpoints;
        this.evaluator = new W2vEvaluator(node);
        this.groups = new WordGroups(vocabulary);
        this.queries = queries(vocabulary);
        this.balances = balance && node.clusterSize() > 1;
        this.shares = SpeedShares.even(part.count());
    }

    /**
     * Evaluates the initial model, then trains and evaluates {@code epochs} epochs; a run resumed
     * from a checkpoint continues where it was taken: with the epoch after the one it saved, or
     * within an epoch, with the chunks after its cut.
     */
    void run(int epochs) {
        if (part.isShare()) {
            out.printf(Locale.ROOT, "%s: trains on %d words%n", part.describe(), trainer.words());
        }
        EpochProgress at = checkpoints.start(node, trainer.steps(), out);
        if (balances && at.epoch() > 1) {
            reschedule(speeds.resume(at.epoch()));
        }
        if (at.epoch() == 1 && !at.begun()) {
            Report initial = evaluate(0, new W2vTrainer.Epoch(0, 0), new Accesses(0, 0), 0, 0);
            if (reports()) {
                out.printf(Locale.ROOT, "epoch %3d: %-72s held-out loss %.4f, similarity %.4f%n", 0, "initial model",
                        initial.round().testMean(), initial.evaluation().similarity());
            }
        }
        EpochCuts cuts = new EpochCuts(node, checkpoints);
        SetupGarbage.collect();
        ThreadCpu cpu = new ThreadCpu();
        for (int epoch = at.epoch(); epoch <= epochs; epoch++) {
            EpochProgress from = epoch == at.epoch() ? at : EpochProgress.start(epoch, trainer.steps());
            NodeMetrics before = node.metrics();
            long trained;
            long trainingNanos;
            double seconds;
            try (ProgressBar bar = reports()
                    ? RunOutput.progressBar(epoch, trainer.words(), from.done(), node.clusterSize() > 1) : null) {
                // Every node starts the epoch at once: node 0 prints and makes its bar first, and a
                // head start of the others moved every shared row to them (the homes decide on the
                // first node with intent when the others come later than the decision delay).
                node.barrier();
                cpu.start();
                long started = System.nanoTime();
                trained = cuts.train(trainer, from, bar == null ? words -> { } : bar::stepBy);
                trainingNanos = System.nanoTime() - started;
                node.barrier();
                seconds = cpu.stop(epoch);
            }
            NodeMetrics after = node.metrics();
            Accesses accesses = Accesses.of(after).minus(Accesses.of(before));
            double busySeconds = SpeedShares.busySeconds(trainingNanos, before, after, trainer.threads());
            long evaluating = System.nanoTime();
            Report report = evaluate(epoch, trainer.trained(), accesses, trained, busySeconds);
            double[] trainedShares = shares;
            if (balances && epoch < epochs) {
                reschedule(speeds.next(report.round()));
            }
            if (reports()) {
                ClusterStats.Round round = report.round();
                out.printf(Locale.ROOT, "epoch %3d: %6.2f s, %5.2f M words/s, %5.1f%% local (cluster %5.1f%%), "
                                + "%5.2f s eval, train loss %.4f, held-out loss %.4f, similarity %.4f%n", epoch,
                        seconds, round.trained() / seconds / 1e6, 100 * accesses.localFraction(),
                        100 * round.localFraction(), (System.nanoTime() - evaluating) / 1e9, round.trainMean(),
                        round.testMean(), report.evaluation().similarity());
                out.println("           neighbours: " + describeNeighbours(report.evaluation().neighbours()));
                if (!Arrays.equals(shares, trainedShares)) {
                    out.println("           shares of the next epoch's sentences, by speed: "
                            + SpeedShares.describe(shares));
                }
                out.println(resultLine(epoch, seconds, round.trainMean(), round.testMean(),
                        report.evaluation().similarity(), round.localFraction(), after.bytesSent(),
                        round.trained()));
                out.flush();
            }
            checkpoints.afterEpoch(node, epoch, epochs, out);
        }
        cpu.lines(part.index()).forEach(out::println);
        RunOutput.printSummary(out, node.metrics());
    }

    /**
     * The machine-readable line of an epoch, e.g.
     * {@code RESULT epoch=3 seconds=4.512 loss=2.123456 heldout=2.234567 similarity=0.8123 local=0.9731
     * bytes=123456789 entries=2744000}: the epoch's training time in seconds (the cluster's, up to the
     * barrier after training), the mean training loss of the cluster's pairs in the epoch, the mean
     * held-out loss after it, the {@link WordGroups} score after it, the fraction of the cluster's
     * training accesses in the epoch that were local (0 to 1), the bytes this node has sent since it
     * started, and the cluster's training words of the epoch (those its words/s counts; in an epoch
     * resumed mid-way, those trained after the cut), as the MF example's line, so that scripts read
     * both alike.
     */
    static String resultLine(int epoch, double seconds, double loss, double heldOut, double similarity,
                             double localFraction, long bytesSent, long entries) {
        return String.format(Locale.ROOT, "RESULT epoch=%d seconds=%.3f loss=%.6f heldout=%.6f similarity=%.4f "
                        + "local=%.4f bytes=%d entries=%d", epoch, seconds, loss, heldOut, similarity, localFraction,
                bytesSent, entries);
    }

    /**
     * Trains the next epoch in {@code next} shares: this node's share of the training sentences,
     * cut into the steps of an epoch (unless the shares stay as they are).
     */
    private void reschedule(double[] next) {
        if (Arrays.equals(next, shares)) {
            return;
        }
        shares = next;
        trainer.reschedule(new ChunkSchedule(split.share(node.nodeId(), shares), trainer.threads(), trainer.steps()));
    }

    /** Node 0 evaluates and reports for the cluster. */
    private boolean reports() {
        return node.nodeId() == 0;
    }

    /**
     * Every node evaluates its part of the held-out sentences and node 0 scores the model; then
     * every node adds its training and held-out sums to round {@code round}, with the
     * {@code words} it trained and the seconds it was busy training them.
     */
    private Report evaluate(int round, W2vTrainer.Epoch trained, Accesses accesses, long words, double busySeconds) {
        W2vEvaluator.Result own = evaluator.evaluatePart(split.heldOut(), node.nodeId(), node.clusterSize(),
                settings.window(), settings.negatives(), seed);
        W2vEvaluator.Result evaluation = reports() ? evaluator.withScores(own, groups, queries, NEIGHBOURS) : own;
        ClusterStats.Round combined = stats.combine(round, new ClusterStats.NodeSums(trained.lossSum(),
                trained.pairs(), evaluation.heldOutLoss(), evaluation.heldOutPairs(), accesses.local(),
                accesses.remote(), words, busySeconds, shares[part.index()]));
        return new Report(combined, evaluation);
    }

    private String describeNeighbours(int[][] neighbours) {
        StringBuilder text = new StringBuilder();
        for (int q = 0; q < queries.length; q++) {
            text.append(q == 0 ? "" : "; ").append(vocabulary.word(queries[q])).append(": ")
                    .append(Arrays.stream(neighbours[q]).mapToObj(vocabulary::word).collect(Collectors.joining(" ")));
        }
        return text.toString();
    }

    /** The ids of {@link #QUERIES} in the vocabulary, or of its most frequent words if none is. */
    static int[] queries(Vocabulary vocabulary) {
        int[] ids = Arrays.stream(QUERIES).mapToInt(vocabulary::id).filter(id -> id >= 0).toArray();
        return ids.length > 0 ? ids : IntStream.range(0, Math.min(QUERIES.length, vocabulary.size()))
                .toArray();
    }

    private record Report(ClusterStats.Round round, W2vEvaluator.Result evaluation) {
    }
}
