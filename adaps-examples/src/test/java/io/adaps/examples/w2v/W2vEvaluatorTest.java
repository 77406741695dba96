package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;

/**
 * {@link W2vEvaluator}: the parts of the held-out sentences that a cluster's nodes evaluate add up
 * to the whole, pair for pair, and only the scoring node's result has a similarity and neighbours.
 */
class W2vEvaluatorTest {
    private static Vocabulary vocabulary;
    private static CorpusSplit split;

    @BeforeAll
    static void readCorpus() throws IOException {
        Corpus corpus = Corpus.europarl(400);
        vocabulary = corpus.count(3).vocabulary();
        List<int[]> sentences = new ArrayList<>();
        corpus.forEachSentence(vocabulary, sentences::add);
        split = new CorpusSplit(sentences);
    }

    @Test
    void partsOfTheHeldOutSentencesAddUpToTheWhole() {
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, 8, 3).build()) {
            W2vEvaluator evaluator = new W2vEvaluator(node);
            W2vEvaluator.Result whole = evaluator.withScores(evaluator.evaluatePart(split.heldOut(), 0, 1, 3, 4, 11),
                    new WordGroups(vocabulary), new int[] {0, 1}, 2);
            assertThat(whole.heldOutPairs()).isPositive();
            assertThat(whole.neighbours()).hasNumberOfRows(2);
            assertThat(whole.similarity()).isFinite();

            for (int parts : new int[] {2, 3}) {
                double loss = 0;
                long pairs = 0;
                for (int part = 0; part < parts; part++) {
                    W2vEvaluator.Result result = evaluator.evaluatePart(split.heldOut(), part, parts, 3, 4, 11);
                    assertThat(result.similarity()).isNaN();
                    assertThat(result.neighbours()).isEmpty();
                    loss += result.heldOutLoss();
                    pairs += result.heldOutPairs();
                }
                assertThat(pairs).as("pairs of %d parts", parts).isEqualTo(whole.heldOutPairs());
                assertThat(loss).as("loss of %d parts", parts).isCloseTo(whole.heldOutLoss(),
                        offset(1e-9 * whole.heldOutLoss()));
            }
        }
    }

    @Test
    void refusesAPartOutsideTheParts() {
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, 8, 3).build()) {
            W2vEvaluator evaluator = new W2vEvaluator(node);
            assertThatThrownBy(() -> evaluator.evaluatePart(split.heldOut(), 2, 2, 3, 4, 11))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("part=2 (expected 0 <= part < parts=2)");
            assertThatThrownBy(() -> evaluator.evaluatePart(split.heldOut(), -1, 2, 3, 4, 11))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
