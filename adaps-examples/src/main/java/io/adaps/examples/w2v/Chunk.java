package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One chunk of a training thread's schedule, made ready ahead of its training: its sentences after
 * sub-sampling, the distinct words among them (the rows of both tables it uses, which the worker
 * names in its intent signals and pulls), and the handle of its prepared sample of negatives.
 *
 * <p>Sub-sampling happens here, when the chunk is prepared a few clocks ahead, so that the intent
 * names exactly the words the chunk will use. Distinct words are found with a stamp per word (the
 * number of the fill that saw it last), so a fill costs one pass and clears nothing. A thread keeps
 * a ring of chunks and refills them; allocates nothing after construction.
 */
final class Chunk {
    /** The kept words, sentence after sentence. */
    private final int[] words;
    /** The end of each sentence in {@link #words}. */
    private final int[] sentenceEnds;
    private final long[] distinct;
    private final int[] stamps;
    private int size;
    private int sentences;
    private int distinctCount;
    private int rawWords;
    private int stamp;
    /** The chunk's random stream: sub-sampling drew from it, and training goes on drawing from it. */
    private SplittableRandom random;
    /** The prepared sample of negatives and its size; 0 when the chunk kept no words. */
    long sampleHandle;
    int sampleSize;

    /**
     * Room for chunks of up to {@code maxWords} words (and as many sentences) over a vocabulary of
     * {@code vocabularySize} words.
     */
    Chunk(int maxWords, int vocabularySize) {
        checkPositive(maxWords, "maxWords");
        checkPositive(vocabularySize, "vocabularySize");
        this.words = new int[maxWords];
        this.sentenceEnds = new int[maxWords];
        this.distinct = new long[Math.min(maxWords, vocabularySize)];
        this.stamps = new int[vocabularySize];
    }

    /**
     * Replaces the chunk's content with sentences {@code [from, to)} of {@code all}, sub-sampled with
     * {@code random}, which becomes the chunk's {@link #random()}; sentences left empty are dropped.
     *
     * @throws ArrayIndexOutOfBoundsException if the sentences hold more words than the chunk was
     *                                        made for, or ids outside the vocabulary
     */
    void fill(int[][] all, int from, int to, Subsampler subsampler, SplittableRandom random) {
        checkNotNull(all, "all");
        if (stamp == Integer.MAX_VALUE) {
            Arrays.fill(stamps, 0);
            stamp = 0;
        }
        int current = ++stamp;
        int kept = 0;
        int count = 0;
        int raw = 0;
        int distinctWords = 0;
        for (int s = from; s < to; s++) {
            int[] sentence = all[s];
            raw += sentence.length;
            int n = subsampler.sample(sentence, random, words, kept);
            for (int i = kept; i < kept + n; i++) {
                int word = words[i];
                if (stamps[word] != current) {
                    stamps[word] = current;
                    distinct[distinctWords++] = word;
                }
            }
            if (n > 0) {
                kept += n;
                sentenceEnds[count++] = kept;
            }
        }
        size = kept;
        sentences = count;
        distinctCount = distinctWords;
        rawWords = raw;
        sampleHandle = 0;
        sampleSize = 0;
        this.random = random;
    }

    /** The random stream the chunk was sub-sampled with, for its training's windows and negatives. */
    SplittableRandom random() {
        return random;
    }

    /** The kept words, sentence after sentence, in {@code [0, size())}; shared, do not modify. */
    int[] words() {
        return words;
    }

    /** The kept words. */
    int size() {
        return size;
    }

    /** The sentences with kept words. */
    int sentences() {
        return sentences;
    }

    /** The end (exclusive) in {@link #words()} of sentence {@code sentence}; it starts where the one before ends. */
    int sentenceEnd(int sentence) {
        return sentenceEnds[sentence];
    }

    /** The distinct kept words, in {@code [0, distinctCount())}, in order of first use; shared, do not modify. */
    long[] distinct() {
        return distinct;
    }

    /** The number of distinct kept words. */
    int distinctCount() {
        return distinctCount;
    }

    /** The words of the chunk's sentences before sub-sampling: the progress it stands for. */
    int rawWords() {
        return rawWords;
    }
}
