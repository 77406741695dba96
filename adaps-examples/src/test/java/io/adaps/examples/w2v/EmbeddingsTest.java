package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

class EmbeddingsTest {
    /** Five words in 2 dimensions: 0 and 1 point the same way, 2 nearly so, 3 opposite, 4 is zero. */
    private static final float[] VECTORS = {1, 0, 3, 0, 1, 0.2f, -1, 0, 0, 0};

    @Test
    void neighboursAreByCosineNearestFirstWithoutTheWordItself() {
        Embeddings embeddings = new Embeddings(VECTORS, 2);
        assertThat(embeddings.words()).isEqualTo(5);
        assertThat(embeddings.nearest(0, 2)).containsExactly(1, 2);
        assertThat(embeddings.nearest(3, 4)).containsExactly(4, 2, 0, 1);
        assertThat(embeddings.nearest(0, 10)).hasSize(4);

        float[] cosines = new float[5];
        embeddings.cosines(0, cosines);
        assertThat(cosines[1]).isCloseTo(1f, offset(1e-6f));
        assertThat(cosines[3]).isCloseTo(-1f, offset(1e-6f));
        assertThat(cosines[4]).isZero();
    }

    @Test
    void thePercentileIsTheShareOfComparedWordsFartherAway() {
        Embeddings embeddings = new Embeddings(VECTORS, 2);
        float[] cosines = new float[5];
        embeddings.cosines(0, cosines);
        boolean[] excluded = {true, true, false, false, false};
        // Of words 2, 3, 4, all are farther from 0 than 1 is.
        assertThat(embeddings.percentile(cosines, 1, excluded)).isEqualTo(1.0);
        // Word 3 is the farthest of all; word 4 (cosine 0) has 3 farther, 1 and 2 nearer.
        assertThat(embeddings.percentile(cosines, 3, new boolean[] {true, false, false, true, false})).isZero();
        assertThat(embeddings.percentile(cosines, 4, new boolean[] {true, false, false, false, true}))
                .isCloseTo(1 / 3.0, offset(1e-12));
        // Ties count half: word 0 itself, compared here, is as near to 0 as 1 is.
        assertThat(embeddings.percentile(cosines, 1, new boolean[] {false, true, false, false, false}))
                .isEqualTo(3.5 / 4);
        assertThatThrownBy(() -> new Embeddings(new float[5], 2))
                .hasMessage("vectors.length=5 (expected a multiple of dim=2)");
    }

    @Test
    void wordGroupsScoreOneForPerfectGroupsAndIgnoreMissingWords() {
        Vocabulary.Builder builder = new Vocabulary.Builder();
        for (String word : List.of("january", "february", "march", "two", "three", "president")) {
            builder.add(word);
        }
        Vocabulary vocabulary = builder.build(1);
        WordGroups groups = new WordGroups(vocabulary);
        assertThat(groups.groups()).isEqualTo(2);
        assertThat(groups.words()).isEqualTo(5);

        // Months along x, numbers along y, "president" in between.
        float[] vectors = new float[vocabulary.size() * 2];
        for (String word : List.of("january", "february", "march")) {
            vectors[2 * vocabulary.id(word)] = 1;
        }
        for (String word : List.of("two", "three")) {
            vectors[2 * vocabulary.id(word) + 1] = 1;
        }
        vectors[2 * vocabulary.id("president")] = 1;
        vectors[2 * vocabulary.id("president") + 1] = 1;
        assertThat(groups.score(new Embeddings(vectors, 2))).isEqualTo(1.0);

        // Swapping a month and a number breaks both groups.
        int march = vocabulary.id("march");
        int two = vocabulary.id("two");
        vectors[2 * march] = 0;
        vectors[2 * march + 1] = 1;
        vectors[2 * two] = 1;
        vectors[2 * two + 1] = 0;
        assertThat(groups.score(new Embeddings(vectors, 2))).isLessThan(0.75);
    }

    @Test
    void everyWordOfTheGroupsOccursInEuroparlAtLeastFiveTimes() throws IOException {
        Vocabulary vocabulary = Corpus.europarl().count(5).vocabulary();
        for (List<String> group : WordGroups.GROUPS) {
            for (String word : group) {
                assertThat(vocabulary.id(word)).as(word).isNotNegative();
            }
        }
    }
}
