package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VocabularyTest {
    private static Vocabulary.Builder counted(String text) {
        Vocabulary.Builder builder = new Vocabulary.Builder();
        Corpus.tokens(text).forEach(builder::add);
        return builder;
    }

    @Test
    void idsRunByDescendingCountWithTiesByWord() {
        Vocabulary vocabulary = counted("b a c a b a d c b e").build(1);

        assertThat(vocabulary.size()).isEqualTo(5);
        // a and b occur 3 times, c twice, d and e once: ties go by the word.
        assertThat(vocabulary.word(0)).isEqualTo("a");
        assertThat(vocabulary.word(1)).isEqualTo("b");
        assertThat(vocabulary.word(2)).isEqualTo("c");
        assertThat(vocabulary.word(3)).isEqualTo("d");
        assertThat(vocabulary.word(4)).isEqualTo("e");
        assertThat(vocabulary.count(0)).isEqualTo(3);
        assertThat(vocabulary.count(2)).isEqualTo(2);
        assertThat(vocabulary.count(4)).isEqualTo(1);
        for (int id = 0; id < vocabulary.size(); id++) {
            assertThat(vocabulary.id(vocabulary.word(id))).isEqualTo(id);
        }
        assertThat(vocabulary.totalWords()).isEqualTo(10);
    }

    @Test
    void minCountDropsRareWordsFromTheVocabularyAndItsTotal() {
        Vocabulary.Builder builder = counted("b a c a b a d c b e");

        Vocabulary vocabulary = builder.build(2);

        assertThat(vocabulary.size()).isEqualTo(3);
        assertThat(vocabulary.id("c")).isEqualTo(2);
        assertThat(vocabulary.id("d")).isEqualTo(-1);
        assertThat(vocabulary.id("never")).isEqualTo(-1);
        assertThat(vocabulary.totalWords()).isEqualTo(8);
        assertThat(builder.distinctWords()).isEqualTo(5);
        assertThat(builder.build(4).size()).isZero();
    }

    @Test
    void theSameCountsInAnotherOrderGiveTheSameIds() {
        Vocabulary one = counted("x y z y z z w").build(1);
        Vocabulary other = counted("z w z y x z y").build(1);

        for (int id = 0; id < one.size(); id++) {
            assertThat(other.word(id)).isEqualTo(one.word(id));
        }
    }

    @Test
    void refusesBadArgumentsNamingThem() {
        Vocabulary vocabulary = counted("a b").build(1);

        assertThatThrownBy(() -> vocabulary.word(2)).hasMessage("id=2 (expected 0..1)");
        assertThatThrownBy(() -> vocabulary.count(-1)).hasMessage("id=-1 (expected 0..1)");
        assertThatThrownBy(() -> new Vocabulary.Builder().build(0)).hasMessage("minCount=0 (expected > 0)");
    }
}
