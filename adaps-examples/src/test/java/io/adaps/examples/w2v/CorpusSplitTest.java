package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class CorpusSplitTest {
    @Test
    void theLastTwoPercentAreHeldOutAndTheNodesShareTheRestInterleaved() {
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
                int previous = -1;
                for (int[] sentence : split.nodeShare(node, nodes)) {
                    assertThat(sentence[0] % nodes).isEqualTo(node);
                    assertThat(sentence[0]).isGreaterThan(previous);
                    previous = sentence[0];
                    seen[sentence[0]]++;
                }
            }
            assertThat(seen).as("every training sentence on exactly one of %d nodes", nodes).containsOnly(1);
        }
        assertThatThrownBy(() -> split.nodeShare(2, 2)).hasMessage("node=2, nodes=2 (expected 0 <= node < nodes)");
    }

    @Test
    void smallCorporaHoldOutOneSentenceAndNeedTwo() {
        CorpusSplit split = new CorpusSplit(List.of(new int[] {1}, new int[] {2}));
        assertThat(split.heldOut()).hasSize(1);
        assertThat(split.nodeShare(1, 2)).isEmpty();
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
}
