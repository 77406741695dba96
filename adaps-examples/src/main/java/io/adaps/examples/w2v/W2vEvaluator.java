package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.List;
import java.util.SplittableRandom;

import io.adaps.api.AdaPS;
import io.adaps.api.KeyDistribution;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.Seeds;

/**
 * Evaluates the current model on one node: it pulls both tables whole and computes the held-out
 * loss of its part of the held-out sentences and, if asked (node 0 of a cluster), the
 * {@link WordGroups} score and nearest neighbours.
 *
 * <p>Every node of a cluster evaluates its part (sentences {@code part}, {@code part + parts}, ...)
 * and the nodes add up their sums, so the loss takes about 1 / N of one node's time; before, node 0
 * computed all of it while the others waited. Each node still pulls both tables whole: on 2 nodes
 * node 0's evaluations took 0.88-1.08 s against 1.06-1.26 s.
 *
 * <p><b>Held-out loss</b>: the mean SGNS loss ({@link SgnsKernel#loss}) over every (center,
 * context) pair of the held-out sentences, without sub-sampling and with the full window, each
 * pair with {@code negatives} negatives drawn from the output table's distribution by a random
 * seeded with the run's seed and the sentence's number. So it depends only on the model, the
 * corpus and the flags that define the task (window, negatives, seed): runs on any number of
 * nodes, threads or under any technique are compared on exactly the same pairs and negatives.
 *
 * <p>Pulls go through a worker of the calling thread, which must be the same every time; the
 * buffers are kept between evaluations.
 */
final class W2vEvaluator {
    /** Rows per pull, so that no single request grows large. */
    private static final int PULL_ROWS = 4096;
    private static final long HELD_OUT_STREAM = 4;

    private final AdaPS node;
    private final KeyDistribution negativeDistribution;
    private final int dim;
    private final float[] in;
    private final float[] out;
    private final long[] ids = new long[PULL_ROWS];

    /** An evaluator of the tables of {@link W2vTables} on {@code node}. */
    W2vEvaluator(AdaPS node) {
        checkNotNull(node, "node");
        this.node = node;
        this.negativeDistribution = node.table(W2vTables.OUT).spec().sampling();
        this.dim = node.table(W2vTables.IN).valueLength();
        this.in = new float[Math.toIntExact(node.table(W2vTables.IN).rows() * dim)];
        this.out = new float[Math.toIntExact(node.table(W2vTables.OUT).rows() * dim)];
    }

    /**
     * Pulls both tables and returns the model's held-out loss on sentences {@code part},
     * {@code part + parts}, ... of {@code heldOut}, without scores (similarity {@code NaN}, no
     * neighbours): the share of one of {@code parts} nodes, whose sums add up to the whole's.
     *
     * @throws IllegalArgumentException unless {@code 0 <= part < parts}
     */
    Result evaluatePart(List<int[]> heldOut, int part, int parts, int window, int negatives, long seed) {
        if (part < 0 || part >= parts) {
            throw new IllegalArgumentException("part=" + part + " (expected 0 <= part < parts=" + parts + ")");
        }
        // Unclocked: it never ticks, and must not hold the training workers back.
        try (Worker worker = node.unclockedWorker()) {
            pullAll(worker.table(W2vTables.IN), in);
            pullAll(worker.table(W2vTables.OUT), out);
        }
        double[] loss = heldOutLoss(heldOut, part, parts, window, negatives, seed);
        return new Result(loss[0], (long) loss[1], Double.NaN, new int[0][]);
    }

    /**
     * {@code loss}, evaluated last, with the {@code groups} score and the {@code k} nearest
     * neighbours of each of {@code queries} of the tables it pulled.
     */
    Result withScores(Result loss, WordGroups groups, int[] queries, int k) {
        Embeddings embeddings = new Embeddings(in, dim);
        int[][] neighbours = new int[queries.length][];
        for (int q = 0; q < queries.length; q++) {
            neighbours[q] = embeddings.nearest(queries[q], k);
        }
        return new Result(loss.heldOutLoss(), loss.heldOutPairs(), groups.score(embeddings), neighbours);
    }

    /**
     * The sum of the losses and the number of pairs of sentences {@code part}, {@code part +
     * parts}, ... of {@code heldOut}, from the pulled tables.
     */
    private double[] heldOutLoss(List<int[]> heldOut, int part, int parts, int window, int negatives, long seed) {
        int[] negativeOffsets = new int[negatives];
        double sum = 0;
        long pairs = 0;
        for (int s = part; s < heldOut.size(); s += parts) {
            int[] sentence = heldOut.get(s);
            SplittableRandom random = new SplittableRandom(Seeds.derive(seed, HELD_OUT_STREAM, s));
            for (int center = 0; center < sentence.length; center++) {
                int last = Math.min(sentence.length - 1, center + window);
                for (int context = Math.max(0, center - window); context <= last; context++) {
                    if (context == center) {
                        continue;
                    }
                    int drawn = 0;
                    for (int j = 0; j < negatives; j++) {
                        int negative = (int) negativeDistribution.draw(random);
                        if (negative != sentence[context]) {
                            negativeOffsets[drawn++] = negative * dim;
                        }
                    }
                    sum += SgnsKernel.loss(in, sentence[center] * dim, out, sentence[context] * dim, negativeOffsets,
                            drawn, dim);
                    pairs++;
                }
            }
        }
        return new double[] {sum, pairs};
    }

    private void pullAll(TableView view, float[] dst) {
        long rows = view.table().rows();
        for (long from = 0; from < rows; from += PULL_ROWS) {
            int n = (int) Math.min(PULL_ROWS, rows - from);
            for (int i = 0; i < n; i++) {
                ids[i] = from + i;
            }
            view.pull(ids, 0, n, dst, Math.toIntExact(from * dim));
        }
    }

    /**
     * An evaluation.
     *
     * @param heldOutLoss  the sum of the held-out pairs' losses
     * @param heldOutPairs the held-out pairs
     * @param similarity   the {@link WordGroups} score
     * @param neighbours   per query word, its nearest neighbours, nearest first
     */
    record Result(double heldOutLoss, long heldOutPairs, double similarity, int[][] neighbours) {
    }
}
