package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;

import io.adaps.examples.mf.ShardPool;

/**
 * How the training threads of one node walk its sentences in an epoch: thread {@code t} takes the
 * contiguous share {@code t} of the sentences ({@link ShardPool#shareStart}) and cuts it into
 * {@code chunks} chunks of whole sentences with about equal words (fewer when the share has fewer
 * sentences). A chunk is one tick of the thread's worker clock: its words' vectors are pulled at
 * its start and their summed updates pushed at its end, and intent for them is signalled a few
 * chunks ahead ({@link W2vWorker#LOOKAHEAD}).
 *
 * <p>Every node of a cluster cuts its sentences into the same number of chunks, the cluster's
 * {@link #chunksOf} at even shares ({@link io.adaps.examples.EpochClocks#agree}), so that its
 * threads tick the same clocks per epoch whatever share of the sentences it trains: a node with a
 * larger share ({@link io.adaps.examples.SpeedShares}) trains larger chunks. A schedule depends only
 * on the sentences, the threads and the chunks, and a chunk is a step of the epoch
 * ({@link io.adaps.examples.SteppedEpoch}).
 */
final class ChunkSchedule {
    /**
     * Words per chunk (before sub-sampling; about 70% remain on Europarl), i.e. per clock tick,
     * pull, push and intent signal, when at most 2 threads train at once ({@link #chunkWords}). A
     * chunk's pulls name each of its distinct words once, however often its pairs use them: larger
     * chunks share more rows between their words (fewer pulled rows per word), smaller ones see
     * other threads' steps sooner and give the library finer intent. On Europarl with 2 nodes,
     * 16,384 sent 11% (STATIC) to 18% (ADAPTIVE) fewer bytes per epoch than 8,192 for the same
     * held-out loss after 2 epochs; 32,768 fewer still, but its held-out loss was 1% worse. Not a
     * flag: ADAPTIVE needs no tuning.
     */
    static final int DEFAULT_CHUNK_WORDS = 16384;
    /** The fewest words per chunk, however many threads train at once. */
    static final int MIN_CHUNK_WORDS = 512;

    private final int[][] sentences;
    private final int[][] chunkStarts;
    private final long[] threadWords;
    private final int maxChunkWords;

    /**
     * Words per chunk when {@code concurrentThreads} training threads work at once, over all nodes:
     * {@link #DEFAULT_CHUNK_WORDS} for up to 2, and {@code (2 / concurrentThreads)^2} of it for
     * more, at least {@link #MIN_CHUNK_WORDS} (4,096 words for 4 threads, 1,024 for 8).
     *
     * <h2>Why</h2>
     * Every thread trains its chunk on copies of the chunk's rows and pushes the summed steps, so
     * the chunks in flight at once all step from one base. A frequent word takes hundreds to
     * thousands of steps in every chunk (as a negative above all), which carry its copy close to
     * what that chunk's pairs want; the concurrent chunks' steps then add up to about
     * {@code concurrentThreads} times that distance, and the next chunks correct by as much in the
     * other direction. With 16,384-word chunks (Europarl, 3 epochs, held-out loss against 1.48 on
     * one thread) 2 threads end within 1%, 4 threads 6-10% above it, 6 and 8 threads diverge;
     * scaling the frequent rows' pushed steps by the threads that push them (model averaging) ended
     * the divergence but learned 26-34% worse, and a lower learning rate did not help. What a chunk
     * moves a frequent row by grows with its words and the overshoot with the threads, so the chunk
     * shrinks with the square of the threads: 2 nodes of 2 threads (4,096 words) ended 1.6% above
     * one thread, 2 nodes of 4 (1,024) 2.2% (docs/benchmarks.md). Smaller chunks cost more pulled
     * rows and clock ticks per word, which a cluster of many threads pays instead of diverging.
     *
     * @throws IllegalArgumentException if {@code concurrentThreads} is not positive
     */
    static int chunkWords(int concurrentThreads) {
        checkPositive(concurrentThreads, "concurrentThreads");
        if (concurrentThreads <= 2) {
            return DEFAULT_CHUNK_WORDS;
        }
        double share = 2.0 / concurrentThreads;
        return Math.max(MIN_CHUNK_WORDS, (int) Math.round(DEFAULT_CHUNK_WORDS * share * share));
    }

    /**
     * The chunks per thread that cut {@code sentences} over {@code threads} threads into chunks of
     * about {@code chunkWords} words: those of the thread with the most words, at least 1.
     *
     * @throws IllegalArgumentException if {@code threads} or {@code chunkWords} is not positive
     */
    static int chunksOf(int[][] sentences, int threads, int chunkWords) {
        checkNotNull(sentences, "sentences");
        checkPositive(threads, "threads");
        checkPositive(chunkWords, "chunkWords");
        long most = 0;
        for (int t = 0; t < threads; t++) {
            long words = 0;
            for (int s = ShardPool.shareStart(t, sentences.length, threads);
                 s < ShardPool.shareStart(t + 1, sentences.length, threads); s++) {
                words += sentences[s].length;
            }
            most = Math.max(most, words);
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (most + chunkWords - 1) / chunkWords));
    }

    /**
     * The schedule of {@code threads} threads over {@code sentences}, each thread's share cut into
     * {@code chunks} chunks.
     *
     * @throws IllegalArgumentException if {@code threads} or {@code chunks} is not positive
     */
    ChunkSchedule(int[][] sentences, int threads, int chunks) {
        this.sentences = checkNotNull(sentences, "sentences");
        checkPositive(threads, "threads");
        checkPositive(chunks, "chunks");
        this.chunkStarts = new int[threads][];
        this.threadWords = new long[threads];
        int maxWords = 0;
        for (int t = 0; t < threads; t++) {
            int from = ShardPool.shareStart(t, sentences.length, threads);
            int to = ShardPool.shareStart(t + 1, sentences.length, threads);
            long total = 0;
            for (int s = from; s < to; s++) {
                total += sentences[s].length;
            }
            threadWords[t] = total;
            // Chunk k starts at the first sentence before which k / chunks of the words lie.
            int[] starts = new int[Math.min(chunks, to - from) + 1];
            int made = 0;
            long words = 0;
            int chunkWords = 0;
            for (int s = from; s < to; s++) {
                if (made == 0 || (made < starts.length - 1 && words * chunks >= made * total)) {
                    starts[made++] = s;
                    chunkWords = 0;
                }
                words += sentences[s].length;
                chunkWords += sentences[s].length;
                maxWords = Math.max(maxWords, chunkWords);
            }
            starts[made] = to;
            chunkStarts[t] = Arrays.copyOf(starts, made + 1);
        }
        this.maxChunkWords = maxWords;
    }

    /** The node's training sentences. */
    int[][] sentences() {
        return sentences;
    }

    /** The threads. */
    int threads() {
        return chunkStarts.length;
    }

    /** The most chunks of any thread. */
    int mostChunks() {
        int most = 0;
        for (int t = 0; t < chunkStarts.length; t++) {
            most = Math.max(most, chunks(t));
        }
        return most;
    }

    /** The chunks of thread {@code thread}; 0 for an empty share. */
    int chunks(int thread) {
        return chunkStarts[thread].length - 1;
    }

    /** The first sentence of chunk {@code chunk} of thread {@code thread}. */
    int chunkFrom(int thread, int chunk) {
        checkChunk(thread, chunk);
        return chunkStarts[thread][chunk];
    }

    /** The end (exclusive) of the sentences of chunk {@code chunk} of thread {@code thread}. */
    int chunkTo(int thread, int chunk) {
        checkChunk(thread, chunk);
        return chunkStarts[thread][chunk + 1];
    }

    /**
     * The words (before sub-sampling) of thread {@code thread}'s chunks before chunk {@code chunk};
     * of its whole share when it has no more chunks.
     */
    long wordsBefore(int thread, int chunk) {
        int end = chunkStarts[thread][Math.min(chunk, chunks(thread))];
        long words = 0;
        for (int s = chunkStarts[thread][0]; s < end; s++) {
            words += sentences[s].length;
        }
        return words;
    }

    /** The words (before sub-sampling) of thread {@code thread}'s share. */
    long threadWords(int thread) {
        return threadWords[thread];
    }

    /** The most words (before sub-sampling) of any chunk: the size of a thread's chunk buffers. */
    int maxChunkWords() {
        return maxChunkWords;
    }

    private void checkChunk(int thread, int chunk) {
        if (thread < 0 || thread >= chunkStarts.length) {
            throw new IllegalArgumentException("thread=" + thread + " (expected 0.." + (chunkStarts.length - 1) + ")");
        }
        if (chunk < 0 || chunk >= chunks(thread)) {
            throw new IllegalArgumentException("chunk=" + chunk + " (expected 0.." + (chunks(thread) - 1)
                    + ", the chunks of thread " + thread + ")");
        }
    }
}
