package io.adaps.examples.w2v;

import java.util.SplittableRandom;
import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.Seeds;
import io.adaps.examples.mf.RowBatch;

/**
 * One training thread of skip-gram with negative sampling on AdaPS: it trains its share of a
 * {@link ChunkSchedule}, chunk by chunk, one step of the epoch and one tick of its worker's clock
 * per chunk, and empty steps after its last chunk up to the epoch's steps.
 *
 * <p><b>A chunk</b> pulls the input vectors of its distinct words and the output vectors of its
 * distinct words and of its negatives, runs the SGNS steps of all its (center, context) pairs on
 * these local copies (so a pair sees the steps of the pairs before it, as in sequential SGD), and
 * pushes the summed steps with one additive push per table. The summed step of a row is its value
 * at the end of the chunk minus its value as pulled ({@link RowBatch#pushSteps}). Other threads' and nodes' steps become
 * visible at the next chunk: Hogwild at the granularity of a chunk, without lost updates.
 *
 * <p><b>Negatives</b> come from a sample of the output table's unigram^0.75 distribution,
 * {@link TableView#prepareSample prepared} when the chunk is prepared and
 * {@link TableView#takeSample taken} (its rows, to pull with the words') when its rows are
 * fetched. The sample has one draw
 * per kept word of the chunk (at most {@link TableView#MAX_SAMPLE_SIZE}), and each pair takes its negatives uniformly from it: every negative
 * is marginally drawn from the distribution, as in word2vec, but a chunk reuses its draws (about
 * {@code (window + 1) * negatives} times each, 30 with the defaults) instead of pulling a fresh row
 * per negative, which would pull that many rows per word. A negative equal to the context word is skipped, as in
 * word2vec.
 *
 * <p><b>Intent and look-ahead</b>: chunk {@code c} of an epoch whose step 0 is at clock {@code b}
 * is trained at clock {@code b + c}. It is prepared (sub-sampled, its intent signalled for its
 * words on both tables for clocks {@code [b + c, b + c + 1)}, its sample prepared for the same
 * clocks) {@value #LOOKAHEAD} chunks ahead, so that the node's technique and sampling scheme can
 * place the rows while the chunks before it train. At the end of an epoch the worker calls
 * {@link Worker#waitSync()}.
 *
 * <p><b>Fetching ahead</b>: on a cluster, the rows of chunk {@code c + 1} (its words' and its
 * sample's) are pulled while chunk {@code c} trains, at {@value #FETCH_AHEAD_AT} of its sentences
 * ({@link ChunkRows}, two sets used in turns), so that the round trips to the other nodes overlap
 * training instead of stopping it at every chunk. Once chunk
 * {@code c} has trained, its steps are added to the rows of chunk {@code c + 1} that it shares
 * ({@link ChunkRows#pushStepsAndClear}), so chunk {@code c + 1} starts from this thread's own latest
 * values, as if pulled after chunk {@code c}'s push; only other threads' and nodes' steps of the
 * meantime reach it a chunk later (a clock, within the tables' {@code essp} bound). Fetches stay
 * within the steps of one {@link #train} call. A single node pulls each chunk's rows as it
 * starts: they are local, a pull is a copy, and there is no round trip to hide.
 *
 * <p><b>Resuming</b>: what a chunk trains depends only on the run's options, the epoch and the
 * chunk: its random stream (sub-sampling, windows, negatives) is seeded from the thread's seed,
 * the epoch and the chunk, and the learning rate from the fraction of the run trained before it
 * (the epochs before, counted at this epoch's share, and the chunks before it in this one). So a
 * run resumed after chunk {@code k} trains chunks {@code k + 1} on exactly as the uninterrupted run
 * would have, given the epoch's schedule (its shares, which the resumed run computes again).
 *
 * <p>Belongs to one thread; every buffer is allocated at construction, or between epochs when a new
 * schedule's chunks are larger ({@link #reschedule}), so training allocates nothing but a chunk's
 * small random generator.
 */
final class W2vWorker {
    /** Chunks prepared ahead of the one training. */
    static final int LOOKAHEAD = 2;
    /**
     * Where in a chunk's sentences a cluster's worker fetches the next chunk's rows: late enough
     * that the rows it copies here are still in the caches when that chunk trains, early enough
     * that the other nodes' answers are in before it starts.
     */
    static final double FETCH_AHEAD_AT = 0.75;

    private final Worker worker;
    private final TableView inView;
    private final TableView outView;
    private final int vocabulary;
    private final int nodes;
    private ChunkSchedule schedule;
    private final int thread;
    private final Subsampler subsampler;
    private final SgnsSettings settings;
    private final SgnsKernel kernel;
    /**
     * The rows of the chunk training and, on a cluster, of the next one, fetched while this one
     * trains: chunk {@code c} uses {@code rows[c % rows.length]}.
     */
    private ChunkRows[] rows;
    private final Chunk[] ring = new Chunk[LOOKAHEAD + 1];
    /** The most words of a chunk that the buffers hold. */
    private int capacity;
    private final long seed;
    private final int[] negativeOffsets;
    /** Words of the thread's share times epochs: the progress at which the rate reaches its floor. */
    private long totalWords;
    private long wordsDone;
    private int epoch;
    private double lossSum;
    private long pairs;

    /**
     * The worker of thread {@code thread} of {@code schedule} on {@code node}, whose tables
     * {@value W2vTables#IN} and {@value W2vTables#OUT} hold {@code vocabularySize} rows each.
     *
     * @param seed seeds the thread's sub-sampling, windows and negatives
     */
    W2vWorker(AdaPS node, ChunkSchedule schedule, int thread, Subsampler subsampler, SgnsSettings settings,
              long seed) {
        this.worker = node.worker();
        this.inView = worker.table(W2vTables.IN);
        this.outView = worker.table(W2vTables.OUT);
        this.schedule = schedule;
        this.thread = thread;
        this.subsampler = subsampler;
        this.settings = settings;
        this.kernel = new SgnsKernel(inView.table().valueLength());
        this.vocabulary = Math.toIntExact(inView.table().rows());
        this.nodes = node.clusterSize();
        this.seed = seed;
        this.negativeOffsets = new int[settings.negatives()];
        allocate(schedule.maxChunkWords());
    }

    /**
     * Trains by {@code next} from the next {@link #begin} on, with larger buffers if its chunks
     * need them. Between epochs only.
     */
    void reschedule(ChunkSchedule next) {
        this.schedule = next;
        if (next.maxChunkWords() > capacity) {
            allocate(next.maxChunkWords());
        }
    }

    private void allocate(int chunkWords) {
        int maxWords = Math.max(1, chunkWords);
        int maxSample = Math.min(maxWords, TableView.MAX_SAMPLE_SIZE);
        this.rows = new ChunkRows[nodes > 1 ? 2 : 1];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new ChunkRows(inView, outView, Math.min(vocabulary, maxWords),
                    (int) Math.min(vocabulary, (long) maxWords + maxSample), maxSample);
        }
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Chunk(maxWords, vocabulary);
        }
        this.capacity = maxWords;
    }

    /**
     * Starts epoch {@code epoch} at step {@code from} (0, or the step a resumed run continues
     * with): prepares the first chunks.
     */
    void begin(int epoch, int from) {
        this.epoch = epoch;
        lossSum = 0;
        pairs = 0;
        // The rate falls with the fraction of the run trained: the epochs before at this epoch's share.
        totalWords = schedule.threadWords(thread) * settings.epochs();
        wordsDone = (epoch - 1) * schedule.threadWords(thread) + schedule.wordsBefore(thread, from);
        int chunks = schedule.chunks(thread);
        long clock = worker.clock();
        for (int c = from; c < Math.min(from + LOOKAHEAD, chunks); c++) {
            prepare(c, clock + c - from);
        }
    }

    /**
     * Trains steps {@code [from, to)} of the epoch, one chunk (or none, past its last) and one clock
     * tick each, and waits for its updates; at the epoch's end ({@code to == steps}) until they are
     * synchronized.
     *
     * @param progress receives the words (before sub-sampling) of each chunk once it is trained
     */
    void train(int from, int to, int steps, LongConsumer progress) {
        int chunks = schedule.chunks(thread);
        int last = Math.min(to, chunks) - 1;
        // The clock of the epoch's step 0: step from is trained at the worker's clock now.
        long base = worker.clock() - from;
        for (int c = from; c < to; c++) {
            if (c < chunks) {
                if (c + LOOKAHEAD < chunks) {
                    prepare(c + LOOKAHEAD, base + c + LOOKAHEAD);
                }
                Chunk chunk = ring[c % ring.length];
                ChunkRows chunkRows = rows[c % rows.length];
                if (chunk.size() > 0) {
                    pull(chunk, chunkRows);
                    // Within these steps only, so that nothing is being pulled when they return.
                    Chunk next = c < last ? ring[(c + 1) % ring.length] : null;
                    boolean ahead = rows.length > 1 && next != null && next.size() > 0;
                    train(chunk, chunkRows, ahead ? next : null, ahead ? rows[(c + 1) % rows.length] : null);
                }
                wordsDone += chunk.rawWords();
                progress.accept(chunk.rawWords());
            }
            worker.advanceClock();
        }
        if (to == steps) {
            worker.waitSync();
        } else {
            worker.waitAll();
        }
    }

    /** The sum of the losses of the pairs trained since {@link #begin}, each before its step. */
    double lossSum() {
        return lossSum;
    }

    /** The (center, context) pairs trained since {@link #begin}. */
    long pairs() {
        return pairs;
    }

    /** Sub-samples chunk {@code c} into its ring slot, signals intent for it and prepares its negatives. */
    private void prepare(int c, long clock) {
        Chunk chunk = ring[c % ring.length];
        chunk.fill(schedule.sentences(), schedule.chunkFrom(thread, c), schedule.chunkTo(thread, c), subsampler,
                new SplittableRandom(Seeds.derive(seed, epoch, c)));
        if (chunk.size() == 0) {
            return;
        }
        inView.intent(chunk.distinct(), 0, chunk.distinctCount(), clock, clock + 1);
        outView.intent(chunk.distinct(), 0, chunk.distinctCount(), clock, clock + 1);
        chunk.sampleSize = Math.min(chunk.size(), TableView.MAX_SAMPLE_SIZE);
        chunk.sampleHandle = outView.prepareSample(chunk.sampleSize, clock, clock + 1);
    }

    /**
     * Trains {@code chunk} on {@code chunkRows}, and unless {@code next} is {@code null} fetches
     * its rows into {@code nextRows} at {@link #FETCH_AHEAD_AT} of the sentences, and adds the
     * chunk's steps to them.
     */
    private void train(Chunk chunk, ChunkRows chunkRows, Chunk next, ChunkRows nextRows) {
        int sentences = chunk.sentences();
        int fetchAt = next == null ? sentences : (int) (sentences * FETCH_AHEAD_AT);
        SplittableRandom random = chunk.random();
        float rate = settings.rate(wordsDone, totalWords);
        trainSentences(chunk, chunkRows, 0, fetchAt, random, rate);
        if (next != null) {
            nextRows.fetch(next);
        }
        trainSentences(chunk, chunkRows, fetchAt, sentences, random, rate);
        chunkRows.pushStepsAndClear(nextRows, worker);
    }

    /** Trains the pairs of sentences {@code [from, to)} of {@code chunk} on {@code chunkRows}. */
    private void trainSentences(Chunk chunk, ChunkRows chunkRows, int from, int to, SplittableRandom random,
                                float rate) {
        RowBatch inBatch = chunkRows.in;
        RowBatch outBatch = chunkRows.out;
        int[] poolRows = chunkRows.poolRows;
        int[] poolOffsets = chunkRows.poolOffsets;
        int window = settings.window();
        int negatives = settings.negatives();
        int pool = chunk.sampleSize;
        int[] words = chunk.words();
        float[] in = inBatch.values;
        float[] out = outBatch.values;
        double loss = 0;
        long chunkPairs = 0;
        int start = from == 0 ? 0 : chunk.sentenceEnd(from - 1);
        for (int s = from; s < to; s++) {
            int end = chunk.sentenceEnd(s);
            for (int center = start; center < end; center++) {
                int inOffset = inBatch.offset(words[center]);
                int reach = window - random.nextInt(window);
                int last = Math.min(end - 1, center + reach);
                for (int context = Math.max(start, center - reach); context <= last; context++) {
                    if (context == center) {
                        continue;
                    }
                    int word = words[context];
                    int drawn = 0;
                    for (int j = 0; j < negatives; j++) {
                        int draw = random.nextInt(pool);
                        if (poolRows[draw] != word) {
                            negativeOffsets[drawn++] = poolOffsets[draw];
                        }
                    }
                    loss += kernel.step(in, inOffset, out, outBatch.offset(word), negativeOffsets, drawn, rate);
                    chunkPairs++;
                }
            }
            start = end;
        }
        lossSum += loss;
        pairs += chunkPairs;
    }

    /** Makes {@code chunkRows} hold the rows of {@code chunk}: fetched now unless they were while the chunk before trained. */
    private void pull(Chunk chunk, ChunkRows chunkRows) {
        if (!chunkRows.fetched()) {
            chunkRows.fetch(chunk);
        }
        chunkRows.await(worker);
        chunkRows.keepPulledValues();
    }
}
