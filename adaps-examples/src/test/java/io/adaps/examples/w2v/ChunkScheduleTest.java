package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;

import io.adaps.examples.mf.ShardPool;
import org.junit.jupiter.api.Test;

class ChunkScheduleTest {
    @Test
    void everySentenceIsInExactlyOneChunkOfOneThreadInOrderAndTheChunksHaveAboutEqualWords() {
        int[][] sentences = sentences(1000, 7);
        for (int threads = 1; threads <= 3; threads++) {
            for (int chunks : new int[] {1, 7, 60, 2000}) {
                ChunkSchedule schedule = new ChunkSchedule(sentences, threads, chunks);
                int[] seen = new int[sentences.length];
                int next = 0;
                long words = 0;
                for (int t = 0; t < threads; t++) {
                    long threadWords = 0;
                    int threadSentences = ShardPool.shareStart(t + 1, sentences.length, threads)
                            - ShardPool.shareStart(t, sentences.length, threads);
                    if (chunks <= 60) {
                        // No sentence is longer than an even chunk: every cut is made.
                        assertThat(schedule.chunks(t)).isEqualTo(chunks);
                    } else {
                        // At most a chunk per sentence.
                        assertThat(schedule.chunks(t)).isBetween(1, Math.min(chunks, threadSentences));
                    }
                    for (int c = 0; c < schedule.chunks(t); c++) {
                        assertThat(schedule.chunkFrom(t, c)).isEqualTo(next);
                        assertThat(schedule.chunkTo(t, c)).isGreaterThan(next);
                        assertThat(schedule.wordsBefore(t, c)).isEqualTo(threadWords);
                        int chunkWords = 0;
                        for (int s = schedule.chunkFrom(t, c); s < schedule.chunkTo(t, c); s++) {
                            seen[s]++;
                            chunkWords += sentences[s].length;
                        }
                        next = schedule.chunkTo(t, c);
                        assertThat(chunkWords).isLessThanOrEqualTo(schedule.maxChunkWords());
                        threadWords += chunkWords;
                    }
                    assertThat(schedule.threadWords(t)).isEqualTo(threadWords);
                    // Each chunk within a sentence (at most 14 words here) of an even cut of the words.
                    double even = (double) threadWords / schedule.chunks(t);
                    for (int c = 0; c < schedule.chunks(t); c++) {
                        long chunkWords = schedule.wordsBefore(t, c + 1) - schedule.wordsBefore(t, c);
                        assertThat((double) chunkWords).as("chunk %d of %d", c, chunks).isBetween(even - 14, even + 14);
                    }
                    // Steps past a thread's last chunk are empty: all its words are before them.
                    assertThat(schedule.wordsBefore(t, schedule.chunks(t) + 2)).isEqualTo(threadWords);
                    words += threadWords;
                }
                assertThat(next).isEqualTo(sentences.length);
                assertThat(seen).containsOnly(1);
                assertThat(words).isEqualTo(Arrays.stream(sentences).mapToLong(s -> s.length).sum());
            }
        }
    }

    @Test
    void theChunksOfAShareAreThoseOfItsLargestThreadAtTheChunkSize() {
        int[][] sentences = {{1, 2, 3}, {4, 5}, {6}, {7, 8, 9, 10}};
        assertThat(ChunkSchedule.chunksOf(sentences, 1, 4)).isEqualTo(3);
        assertThat(ChunkSchedule.chunksOf(sentences, 2, 4)).isEqualTo(2);
        assertThat(ChunkSchedule.chunksOf(sentences, 2, 100)).isEqualTo(1);
        assertThat(ChunkSchedule.chunksOf(new int[0][], 1, 100)).isEqualTo(1);
        assertThatThrownBy(() -> ChunkSchedule.chunksOf(sentences, 1, 0)).hasMessage("chunkWords=0 (expected > 0)");
        assertThatThrownBy(() -> new ChunkSchedule(sentences, 1, 0)).hasMessage("chunks=0 (expected > 0)");
    }

    @Test
    void anEmptyShareHasNoChunks() {
        ChunkSchedule schedule = new ChunkSchedule(sentences(1, 3), 2, 10);
        assertThat(schedule.chunks(0)).isZero();
        assertThat(schedule.chunks(1)).isEqualTo(1);
        assertThatThrownBy(() -> schedule.chunkFrom(0, 0)).hasMessage("chunk=0 (expected 0..-1, the chunks of thread 0)");
        assertThatThrownBy(() -> schedule.chunkTo(2, 0)).hasMessage("thread=2 (expected 0..1)");
        assertThatThrownBy(() -> new ChunkSchedule(new int[0][], 0, 10)).hasMessage("threads=0 (expected > 0)");
    }

    @Test
    void chunksShrinkWithTheSquareOfTheThreadsTrainingAtOnce() {
        assertThat(ChunkSchedule.chunkWords(1)).isEqualTo(ChunkSchedule.DEFAULT_CHUNK_WORDS);
        assertThat(ChunkSchedule.chunkWords(2)).isEqualTo(ChunkSchedule.DEFAULT_CHUNK_WORDS);
        assertThat(ChunkSchedule.chunkWords(3)).isEqualTo(7282);
        assertThat(ChunkSchedule.chunkWords(4)).isEqualTo(ChunkSchedule.DEFAULT_CHUNK_WORDS / 4);
        assertThat(ChunkSchedule.chunkWords(8)).isEqualTo(ChunkSchedule.DEFAULT_CHUNK_WORDS / 16);
        assertThat(ChunkSchedule.chunkWords(11)).isEqualTo(542);
        assertThat(ChunkSchedule.chunkWords(12)).isEqualTo(ChunkSchedule.MIN_CHUNK_WORDS);
        assertThat(ChunkSchedule.chunkWords(Integer.MAX_VALUE)).isEqualTo(ChunkSchedule.MIN_CHUNK_WORDS);
        assertThatThrownBy(() -> ChunkSchedule.chunkWords(0)).hasMessage("concurrentThreads=0 (expected > 0)");
    }

    @Test
    void aChunkKeepsTheSubsampledWordsAndNamesEachDistinctWordOnce() {
        int[][] sentences = {{0, 1, 0, 2}, {3, 3}, {1, 4, 5, 0}};
        Vocabulary vocabulary = vocabulary(6);
        Chunk chunk = new Chunk(10, 6);

        chunk.fill(sentences, 0, 3, new Subsampler(vocabulary, 0), new SplittableRandom(1));

        assertThat(Arrays.copyOf(chunk.words(), chunk.size())).containsExactly(0, 1, 0, 2, 3, 3, 1, 4, 5, 0);
        assertThat(chunk.sentences()).isEqualTo(3);
        assertThat(chunk.sentenceEnd(0)).isEqualTo(4);
        assertThat(chunk.sentenceEnd(1)).isEqualTo(6);
        assertThat(chunk.sentenceEnd(2)).isEqualTo(10);
        assertThat(Arrays.copyOf(chunk.distinct(), chunk.distinctCount())).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(chunk.rawWords()).isEqualTo(10);

        // A refill forgets the previous content: stamps, not clearing, tell words apart.
        chunk.fill(sentences, 1, 2, new Subsampler(vocabulary, 0), new SplittableRandom(1));
        assertThat(chunk.size()).isEqualTo(2);
        assertThat(Arrays.copyOf(chunk.distinct(), chunk.distinctCount())).containsExactly(3);
    }

    @Test
    void subSampledChunksDropFrequentWordsAndEmptySentences() {
        // Word 0 makes up almost all of the corpus, so sub-sampling drops most of its occurrences.
        int[][] sentences = new int[200][];
        for (int s = 0; s < sentences.length; s++) {
            sentences[s] = s % 50 == 0 ? new int[] {0, 1} : new int[] {0};
        }
        Vocabulary.Builder builder = new Vocabulary.Builder();
        for (int[] sentence : sentences) {
            for (int id : sentence) {
                builder.add(id == 0 ? "a" : "b");
            }
        }
        Vocabulary vocabulary = builder.build(1);
        Chunk chunk = new Chunk(300, 2);

        chunk.fill(sentences, 0, sentences.length, new Subsampler(vocabulary, 0.01), new SplittableRandom(3));

        assertThat(chunk.rawWords()).isEqualTo(204);
        assertThat(chunk.size()).isLessThan(100);
        assertThat(chunk.sentences()).isLessThan(100);
        int start = 0;
        int ones = 0;
        for (int s = 0; s < chunk.sentences(); s++) {
            assertThat(chunk.sentenceEnd(s)).as("sentence %d is not empty", s).isGreaterThan(start);
            start = chunk.sentenceEnd(s);
        }
        for (int i = 0; i < chunk.size(); i++) {
            ones += chunk.words()[i];
        }
        assertThat(ones).as("the rare word is always kept").isEqualTo(4);
    }

    /** {@code count} sentences of 1 to {@code 2 * meanLength} words of ids below 50. */
    static int[][] sentences(int count, int meanLength) {
        SplittableRandom random = new SplittableRandom(count);
        int[][] sentences = new int[count][];
        for (int s = 0; s < count; s++) {
            sentences[s] = random.ints(1 + random.nextInt(2 * meanLength), 0, 50).toArray();
        }
        return sentences;
    }

    /** A vocabulary of {@code size} words, id {@code i} counted {@code size - i} times. */
    static Vocabulary vocabulary(int size) {
        Vocabulary.Builder builder = new Vocabulary.Builder();
        for (int id = 0; id < size; id++) {
            for (int n = 0; n < size - id; n++) {
                builder.add("w" + (char) ('a' + id));
            }
        }
        return builder.build(1);
    }
}
