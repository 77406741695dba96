package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;

import java.util.ArrayList;
import java.util.List;

import io.adaps.examples.ShareDeal;
import io.adaps.examples.SpeedShares;

/**
 * The sentences of a corpus, split into held-out sentences for evaluation and training sentences,
 * and the training sentences into one share per node.
 *
 * <p>The last {@value #HELD_OUT_PERCENT}% of the sentences (at least one) are held out: a
 * deterministic choice that depends only on the corpus and {@code --max-lines}, so the held-out
 * loss of runs with different nodes, threads or techniques is computed on the same sentences. (The
 * Europarl lines mix their languages line by line, so the end of the file is as multilingual as
 * the rest.) The training sentences are dealt to the nodes by shares ({@link #share}, {@link ShareDeal}),
 * each node's a sample of the whole corpus rather than a contiguous range, so that moving a share's
 * bound moves only a few sentences when the shares follow the nodes' speeds from epoch to epoch
 * ({@link SpeedShares}).
 */
final class CorpusSplit {
    /** The share of sentences held out, in percent. */
    static final int HELD_OUT_PERCENT = 2;

    private final List<int[]> sentences;
    private final int training;
    private final long trainingWords;

    /**
     * The split of {@code sentences} (each the word ids of one sentence; kept, not copied).
     *
     * @throws IllegalArgumentException if there are fewer than 2 sentences: one to train on and one
     *                                  to hold out
     */
    CorpusSplit(List<int[]> sentences) {
        this.sentences = checkNotNull(sentences, "sentences");
        if (sentences.size() < 2) {
            throw new IllegalArgumentException("sentences=" + sentences.size()
                    + " (expected at least 2: one to train on, one to hold out)");
        }
        int heldOut = (int) Math.max(1, Math.round(sentences.size() * HELD_OUT_PERCENT / 100.0));
        this.training = sentences.size() - heldOut;
        long words = 0;
        for (int i = 0; i < training; i++) {
            words += sentences.get(i).length;
        }
        this.trainingWords = words;
    }

    /** All sentences, training and held out. */
    int sentences() {
        return sentences.size();
    }

    /** The training sentences of all nodes. */
    int trainingSentences() {
        return training;
    }

    /** The words of the training sentences of all nodes. */
    long trainingWords() {
        return trainingWords;
    }

    /** The held-out sentences, in corpus order. */
    List<int[]> heldOut() {
        return sentences.subList(training, sentences.size());
    }

    /**
     * The training sentences of node {@code node} of {@code nodes} with even shares, in corpus order.
     *
     * @throws IllegalArgumentException unless {@code 0 <= node < nodes}
     */
    int[][] nodeShare(int node, int nodes) {
        if (nodes <= 0 || node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node=" + node + ", nodes=" + nodes + " (expected 0 <= node < nodes)");
        }
        return share(node, SpeedShares.even(nodes));
    }

    /**
     * The training sentences of node {@code node} when the nodes get {@code shares} of them (one
     * per node, summing to 1), in corpus order.
     *
     * @throws IllegalArgumentException unless {@code 0 <= node < shares.length}, or if a share is
     *                                  negative or they do not sum to 1
     */
    int[][] share(int node, double[] shares) {
        ShareDeal.check(shares, node);
        List<int[]> mine = new ArrayList<>();
        for (int i = 0; i < training; i++) {
            if (ShareDeal.nodeOf(i, shares) == node) {
                mine.add(sentences.get(i));
            }
        }
        return mine.toArray(new int[0][]);
    }
}
