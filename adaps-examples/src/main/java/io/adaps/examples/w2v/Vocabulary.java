package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2LongMap;
import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;

/**
 * The words of a corpus that occur at least {@code minCount} times, with their counts.
 *
 * <p>Ids run {@code 0 .. size() - 1} by descending count, ties broken by the word's natural
 * {@link String} order, so the same counts always give the same ids and id 0 is the most frequent
 * word. As in the original word2vec, {@link #totalWords()} counts only the occurrences of kept
 * words: rare words are dropped from the sentences before training, so they take no part in word
 * frequencies either.
 */
public final class Vocabulary {
    private final String[] words;
    private final long[] counts;
    private final Object2IntOpenHashMap<String> ids;
    private final long totalWords;

    private Vocabulary(String[] words, long[] counts) {
        this.words = words;
        this.counts = counts;
        this.ids = new Object2IntOpenHashMap<>(words.length);
        ids.defaultReturnValue(-1);
        long total = 0;
        for (int id = 0; id < words.length; id++) {
            ids.put(words[id], id);
            total += counts[id];
        }
        this.totalWords = total;
    }

    /** Kept words, that is ids. */
    public int size() {
        return words.length;
    }

    /** Occurrences of the kept words in the corpus. */
    public long totalWords() {
        return totalWords;
    }

    /**
     * The word with {@code id}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= id < size()}
     */
    public String word(int id) {
        return words[checkId(id)];
    }

    /**
     * The occurrences of the word with {@code id}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= id < size()}
     */
    public long count(int id) {
        return counts[checkId(id)];
    }

    /** The id of {@code word}, or -1 if it is not kept (too rare or never seen). */
    public int id(String word) {
        return ids.getInt(checkNotNull(word, "word"));
    }

    private int checkId(int id) {
        if (id < 0 || id >= words.length) {
            throw new IllegalArgumentException("id=" + id + " (expected 0.." + (words.length - 1) + ")");
        }
        return id;
    }

    @Override
    public String toString() {
        return "Vocabulary[" + size() + " words, " + totalWords + " occurrences]";
    }

    /** Counts words one occurrence at a time; not thread-safe. */
    public static final class Builder {
        private final Object2LongOpenHashMap<String> counts = new Object2LongOpenHashMap<>();

        /** Counts one occurrence of {@code word}. */
        public Builder add(String word) {
            counts.addTo(checkNotNull(word, "word"), 1);
            return this;
        }

        /** Distinct words counted so far, before any minimum count. */
        public int distinctWords() {
            return counts.size();
        }

        /**
         * The vocabulary of the words counted at least {@code minCount} times; the builder may go on
         * counting afterwards.
         *
         * @throws IllegalArgumentException if {@code minCount} is not positive
         */
        public Vocabulary build(int minCount) {
            checkPositive(minCount, "minCount");
            List<String> kept = new ArrayList<>();
            for (Object2LongMap.Entry<String> entry : counts.object2LongEntrySet()) {
                if (entry.getLongValue() >= minCount) {
                    kept.add(entry.getKey());
                }
            }
            kept.sort(Comparator.comparingLong((String word) -> -counts.getLong(word))
                    .thenComparing(Comparator.naturalOrder()));
            String[] words = kept.toArray(new String[0]);
            long[] wordCounts = new long[words.length];
            for (int id = 0; id < words.length; id++) {
                wordCounts[id] = counts.getLong(words[id]);
            }
            return new Vocabulary(words, wordCounts);
        }
    }
}
