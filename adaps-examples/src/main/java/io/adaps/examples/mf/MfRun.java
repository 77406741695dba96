package io.adaps.examples.mf;

import java.io.PrintWriter;
import java.util.Locale;

import io.adaps.api.AdaPS;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * One node's share of a training run, on a cluster of one or more nodes: every node holds the same
 * data, trains on its {@link MfData#part part} of the training entries each epoch and evaluates its
 * part of the training and test entries; the nodes combine their sums into the cluster's RMSEs
 * ({@link ClusterRmse}).
 *
 * <p>Per epoch: train, (each thread waits for its updates), {@link AdaPS#barrier()}, evaluate and
 * combine. Node 0 reports the epoch (its time includes waiting for the slowest node, so it is the
 * cluster's) and draws the progress bar on stderr; every node reports its metrics.
 */
final class MfRun {
    /**
     * Width of the progress bar on a cluster: an 80-column line still fits behind the
     * {@code [node 0] } prefix that the launcher puts before each line of a node.
     */
    private static final int CLUSTER_BAR_WIDTH = 70;

    private final AdaPS node;
    private final MfTrainer trainer;
    private final MfData train;
    private final MfData test;
    private final long clusterTrainEntries;
    private final ClusterRmse rmse;
    private final PrintWriter out;

    /**
     * A run of {@code trainer} on {@code node}'s part of {@code data}.
     *
     * @param out where the reports go
     */
    MfRun(AdaPS node, MfTrainer trainer, MfData.Split data, PrintWriter out) {
        this.node = node;
        this.trainer = trainer;
        this.train = data.train().part(node.nodeId(), node.clusterSize());
        this.test = data.test().part(node.nodeId(), node.clusterSize());
        this.clusterTrainEntries = data.train().size();
        this.rmse = new ClusterRmse(node);
        this.out = out;
    }

    /** Evaluates the initial model, then trains and evaluates {@code epochs} epochs. */
    void run(int epochs) {
        if (node.clusterSize() > 1) {
            out.printf(Locale.ROOT, "node %d of %d: trains on %d entries, tests on %d%n", node.nodeId(),
                    node.clusterSize(), train.size(), test.size());
        }
        ClusterRmse.Rmse initial = evaluate(0);
        if (reports()) {
            out.printf(Locale.ROOT, "epoch %3d: %-43s train RMSE %.4f, test RMSE %.4f%n", 0, "initial model",
                    initial.train(), initial.test());
        }
        for (int epoch = 1; epoch <= epochs; epoch++) {
            long start = System.nanoTime();
            trainEpoch(epoch);
            node.barrier();
            long trained = System.nanoTime();
            ClusterRmse.Rmse result = evaluate(epoch);
            if (reports()) {
                double seconds = (trained - start) / 1e9;
                out.printf(Locale.ROOT, "epoch %3d: %6.2f s, %5.2f M entries/s, %5.2f s eval, train RMSE %.4f, "
                                + "test RMSE %.4f%n", epoch, seconds, clusterTrainEntries / seconds / 1e6,
                        (System.nanoTime() - trained) / 1e9, result.train(), result.test());
            }
            out.println("after epoch " + epoch + ", " + node.metrics().describe());
            out.flush();
        }
    }

    /** Node 0 reports for the cluster. */
    private boolean reports() {
        return node.nodeId() == 0;
    }

    private void trainEpoch(int epoch) {
        if (!reports()) {
            trainer.epoch(train);
            return;
        }
        try (ProgressBar bar = progressBar(epoch)) {
            trainer.epoch(train, bar::stepBy);
        }
    }

    private ClusterRmse.Rmse evaluate(int round) {
        return rmse.combine(round, trainer.squaredErrors(train), train.size(), trainer.squaredErrors(test),
                test.size());
    }

    /**
     * A bar on stderr over this node's training entries; the training threads move it in coarse
     * steps, and it redraws on its own thread. Without a console (output piped or logged) it draws
     * plain ASCII without colors.
     */
    private ProgressBar progressBar(int epoch) {
        ProgressBarBuilder bar = new ProgressBarBuilder()
                .setTaskName("epoch " + epoch)
                .setInitialMax(train.size())
                .setUpdateIntervalMillis(250)
                .setStyle(System.console() == null ? ProgressBarStyle.ASCII : ProgressBarStyle.COLORFUL_UNICODE_BLOCK);
        if (node.clusterSize() > 1) {
            bar.setMaxRenderedLength(CLUSTER_BAR_WIDTH);
        }
        return bar.build();
    }
}
