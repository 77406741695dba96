package io.adaps.examples.w2v;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.EpochClocks;
import io.adaps.examples.mf.RowBatch;

/**
 * One training thread of skip-gram with negative sampling on AdaPS: it trains its share of a
 * {@link ChunkSchedule}, chunk by chunk, one tick of its worker's clock per chunk.
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
 * {@link TableView#pullSample pulled} (keys with values) when it starts. The sample has one draw
 * per kept word of the chunk (at most {@link TableView#MAX_SAMPLE_SIZE}), and each pair takes its negatives uniformly from it: every negative
 * is marginally drawn from the distribution, as in word2vec, but a chunk reuses its draws (about
 * {@code (window + 1) * negatives} times each, 30 with the defaults) instead of pulling a fresh row
 * per negative, which would pull that many rows per word. A negative equal to the context word is skipped, as in
 * word2vec.
 *
 * <p><b>Intent and look-ahead</b>: chunk {@code c} of an epoch that starts at clock {@code b} is
 * trained at clock {@code b + c}. It is prepared (sub-sampled, its intent signalled for its words
 * on both tables for clocks {@code [b + c, b + c + 1)}, its sample prepared for the same clocks)
 * {@value #LOOKAHEAD} chunks ahead, so that the node's technique and sampling scheme can place the
 * rows while the chunks before it train. At the end of an epoch the worker calls
 * {@link Worker#waitSync()}.
 *
 * <p>Belongs to one thread; every buffer is allocated at construction, so training allocates
 * nothing.
 */
final class W2vWorker {
    /** Chunks prepared ahead of the one training. */
    static final int LOOKAHEAD = 2;

    private final Worker worker;
    private final TableView inView;
    private final TableView outView;
    private final ChunkSchedule schedule;
    private final int thread;
    private final Subsampler subsampler;
    private final SgnsSettings settings;
    private final int dim;
    private final SgnsKernel kernel;
    private final RowBatch inBatch;
    private final RowBatch outBatch;
    private final Chunk[] ring = new Chunk[LOOKAHEAD + 1];
    private final SplittableRandom random;
    private final long[] sampleKeys;
    private final float[] sampleValues;
    /** Per draw of the chunk's sample: its row, and its value's offset in {@link #outBatch}. */
    private final int[] poolRows;
    private final int[] poolOffsets;
    private final int[] negativeOffsets;
    /** Words of the thread's share times epochs: the progress at which the rate reaches its floor. */
    private final long totalWords;
    private long wordsDone;
    /** Whether {@link #wordsDone} was taken from a restored checkpoint yet (on the worker's own thread). */
    private boolean positionRestored;
    /** Clocks ticked per epoch: the cluster's most chunks of a thread; 0: as many as its chunks. */
    private int clocksPerEpoch;
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
        this.dim = inView.table().valueLength();
        this.kernel = new SgnsKernel(dim);
        int vocabulary = Math.toIntExact(inView.table().rows());
        int maxWords = Math.max(1, schedule.maxChunkWords());
        int maxSample = Math.min(maxWords, TableView.MAX_SAMPLE_SIZE);
        this.inBatch = new RowBatch(inView, Math.min(vocabulary, maxWords));
        this.outBatch = new RowBatch(outView, (int) Math.min(vocabulary, (long) maxWords + maxSample));
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Chunk(maxWords, vocabulary);
        }
        this.random = new SplittableRandom(seed);
        this.sampleKeys = new long[maxSample];
        this.sampleValues = new float[Math.multiplyExact(maxSample, dim)];
        this.poolRows = new int[maxSample];
        this.poolOffsets = new int[maxSample];
        this.negativeOffsets = new int[settings.negatives()];
        this.totalWords = schedule.threadWords(thread) * settings.epochs();
    }

    /**
     * Trains one epoch of the thread's share and waits until its updates are synchronized.
     *
     * @param progress receives the words (before sub-sampling) of each chunk once it is trained
     */
    void epoch(LongConsumer progress) {
        if (!positionRestored) {
            positionRestored = true;
            worker.restoredState().ifPresent(state -> wordsDone = ByteBuffer.wrap(state).getLong());
        }
        lossSum = 0;
        pairs = 0;
        int chunks = schedule.chunks(thread);
        long start = worker.clock();
        for (int c = 0; c < Math.min(LOOKAHEAD, chunks); c++) {
            prepare(c, start + c);
        }
        for (int c = 0; c < chunks; c++) {
            if (c + LOOKAHEAD < chunks) {
                prepare(c + LOOKAHEAD, start + c + LOOKAHEAD);
            }
            Chunk chunk = ring[c % ring.length];
            train(chunk);
            worker.advanceClock();
            wordsDone += chunk.rawWords();
            progress.accept(chunk.rawWords());
        }
        EpochClocks.tickTo(worker, start + clocksPerEpoch);
        worker.waitSync();
        // Checkpoints save where the learning rate's decay is; a resumed run continues from there.
        worker.checkpointState(ByteBuffer.allocate(Long.BYTES).putLong(wordsDone).array());
    }

    /** Ticks {@code clocks} clocks per epoch, empty ones after the last chunk. */
    void alignClocks(int clocks) {
        this.clocksPerEpoch = clocks;
    }

    /** The sum of the losses of the last epoch's pairs, each before its step. */
    double lossSum() {
        return lossSum;
    }

    /** The (center, context) pairs of the last epoch. */
    long pairs() {
        return pairs;
    }

    /** Sub-samples chunk {@code c} into its ring slot, signals intent for it and prepares its negatives. */
    private void prepare(int c, long clock) {
        Chunk chunk = ring[c % ring.length];
        chunk.fill(schedule.sentences(), schedule.chunkFrom(thread, c), schedule.chunkTo(thread, c), subsampler,
                random);
        if (chunk.size() == 0) {
            return;
        }
        inView.intent(chunk.distinct(), 0, chunk.distinctCount(), clock, clock + 1);
        outView.intent(chunk.distinct(), 0, chunk.distinctCount(), clock, clock + 1);
        chunk.sampleSize = Math.min(chunk.size(), TableView.MAX_SAMPLE_SIZE);
        chunk.sampleHandle = outView.prepareSample(chunk.sampleSize, clock, clock + 1);
    }

    private void train(Chunk chunk) {
        if (chunk.size() == 0) {
            return;
        }
        pull(chunk);
        float rate = settings.rate(wordsDone, totalWords);
        int window = settings.window();
        int negatives = settings.negatives();
        int pool = chunk.sampleSize;
        int[] words = chunk.words();
        float[] in = inBatch.values;
        float[] out = outBatch.values;
        double loss = 0;
        long chunkPairs = 0;
        int start = 0;
        for (int s = 0; s < chunk.sentences(); s++) {
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
        inBatch.pushSteps();
        outBatch.pushSteps();
        inBatch.clear();
        outBatch.clear();
    }

    /** Pulls the chunk's sample with its values, then the rows of its words that the sample lacks. */
    private void pull(Chunk chunk) {
        int pool = chunk.sampleSize;
        outView.pullSample(chunk.sampleHandle, sampleKeys, 0, sampleValues, 0);
        for (int i = 0; i < pool; i++) {
            int row = (int) sampleKeys[i];
            poolRows[i] = row;
            poolOffsets[i] = outBatch.addWithValue(row, sampleValues, i * dim);
        }
        long[] distinct = chunk.distinct();
        for (int i = 0; i < chunk.distinctCount(); i++) {
            int word = (int) distinct[i];
            inBatch.add(word);
            outBatch.add(word);
        }
        long inTicket = inBatch.pullAsync();
        long outTicket = outBatch.pullAsync();
        worker.waitFor(inTicket);
        worker.waitFor(outTicket);
        inBatch.keepPulledValues();
        outBatch.keepPulledValues();
    }
}
