package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import io.adaps.examples.RandomShares;
import org.junit.jupiter.api.Test;

class CorpusSplitTest {
    @Test
    void theLastTwoPercentAreHeldOutAndEvenSharesDealTheRestEvenlyOverTheCorpus() {
        List<int[]> sentences = new ArrayList<>();
        for (int s = 0; s < 1000; s++) {
            sentences.add(new int[] {s, s});
        }
        CorpusSplit split = new CorpusSplit(sentences);

        assertThat(split.trainingSentences()).isEqualTo(980);
        assertThat(split.trainingWords()).isEqualTo(1960);
        assertThat(split.heldOut()).hasSize(20);
        assertThat(split.heldOut().get(0)).containsExactly(980, 980);
        for (int nodes = 1; nodes <= 3; nodes++) {
            int[] seen = new int[980];
            for (int node = 0; node < nodes; node++) {
                int[][] share = split.nodeShare(node, nodes);
                // Within 1% of even, and in every tenth of the corpus too: a sample of the whole.
                assertThat(share.length).isCloseTo(980 / nodes, within(10));
                int[] perTenth = new int[10];
                int previous = -1;
                for (int[] sentence : share) {
                    assertThat(sentence[0]).isGreaterThan(previous);
                    previous = sentence[0];
                    seen[sentence[0]]++;
                    perTenth[sentence[0] / 98]++;
                }
                for (int tenth = 0; tenth < 10; tenth++) {
                    assertThat(perTenth[tenth]).as("tenth %d of node %d of %d", tenth, node, nodes)
                            .isCloseTo(98 / nodes, within(4));
                }
            }
            assertThat(seen).as("every training sentence on exactly one of %d nodes", nodes).containsOnly(1);
        }
        assertThatThrownBy(() -> split.nodeShare(2, 2)).hasMessage("node=2, nodes=2 (expected 0 <= node < nodes)");
    }

    @Test
    void sharesDealEveryTrainingSentenceToExactlyOneNodeInTheirProportions() {
        CorpusSplit split = new CorpusSplit(numbered(5000));
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 50; trial++) {
            int nodes = 1 + random.nextInt(5);
            double[] shares = RandomShares.of(random, nodes);
            int[] seen = new int[split.trainingSentences()];
            for (int node = 0; node < nodes; node++) {
                int[][] share = split.share(node, shares);
                assertThat((double) share.length).as("seed %d, shares %s, node %d", seed, Arrays.toString(shares), node)
                        .isCloseTo(shares[node] * split.trainingSentences(), within(5.0));
                for (int[] sentence : share) {
                    seen[sentence[0]]++;
                }
            }
            assertThat(seen).as("seed %d, shares %s", seed, Arrays.toString(shares)).containsOnly(1);
        }
    }

    @Test
    void movingASharesBoundMovesOnlyTheSentencesBetweenTheOldAndNewBound() {
        CorpusSplit split = new CorpusSplit(numbered(10_000));
        int[][] before = split.share(0, new double[] {0.5, 0.5});
        int[][] after = split.share(0, new double[] {0.6, 0.4});
        // Node 0 keeps every sentence it had and gains about a tenth of the corpus.
        Set<Integer> kept = new HashSet<>();
        for (int[] sentence : after) {
            kept.add(sentence[0]);
        }
        for (int[] sentence : before) {
            assertThat(kept).contains(sentence[0]);
        }
        assertThat((double) after.length - before.length).isCloseTo(0.1 * split.trainingSentences(), within(5.0));
    }

    @Test
    void refusesSharesThatAreNotSharesOfTheNodes() {
        CorpusSplit split = new CorpusSplit(List.of(new int[] {1}, new int[] {2}, new int[] {3}));
        assertThatThrownBy(() -> split.share(2, new double[] {0.5, 0.5})).hasMessage("node=2 (expected 0..1)");
        assertThatThrownBy(() -> split.share(0, new double[] {0.5, 0.6}))
                .hasMessage("shares=[0.5, 0.6] (expected a sum of 1)");
        assertThatThrownBy(() -> split.share(0, new double[] {1.5, -0.5}))
                .hasMessage("shares[1]=-0.5 (expected >= 0)");
        assertThatThrownBy(() -> split.share(0, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void smallCorporaHoldOutOneSentenceAndNeedTwo() {
        CorpusSplit split = new CorpusSplit(List.of(new int[] {1}, new int[] {2}));
        assertThat(split.heldOut()).hasSize(1);
        assertThat(split.nodeShare(0, 2).length + split.nodeShare(1, 2).length).isEqualTo(1);
        assertThatThrownBy(() -> new CorpusSplit(List.of(new int[] {1})))
                .hasMessage("sentences=1 (expected at least 2: one to train on, one to hold out)");
    }

    @Test
    void theEuroparlSplitIsTheSameOnEveryRead() throws IOException {
        Corpus corpus = Corpus.europarl(500);
        Vocabulary vocabulary = corpus.count(5).vocabulary();
        CorpusSplit first = new CorpusSplit(read(corpus, vocabulary));
        CorpusSplit second = new CorpusSplit(read(corpus, vocabulary));

        assertThat(first.heldOut()).hasSize(10);
        assertThat(first.trainingWords()).isEqualTo(second.trainingWords());
        for (int s = 0; s < first.heldOut().size(); s++) {
            assertThat(first.heldOut().get(s)).containsExactly(second.heldOut().get(s));
        }
        assertThat(Arrays.deepEquals(first.nodeShare(1, 2), second.nodeShare(1, 2))).isTrue();
    }

    private static List<int[]> read(Corpus corpus, Vocabulary vocabulary) throws IOException {
        List<int[]> sentences = new ArrayList<>();
        corpus.forEachSentence(vocabulary, sentences::add);
        return sentences;
    }

    /** Sentences of one word each, sentence {@code s} the word {@code s}. */
    private static List<int[]> numbered(int sentences) {
        List<int[]> numbered = new ArrayList<>();
        for (int s = 0; s < sentences; s++) {
            numbered.add(new int[] {s});
        }
        return numbered;
    }
}
