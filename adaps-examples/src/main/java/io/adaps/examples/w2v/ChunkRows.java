package io.adaps.examples.w2v;

import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.mf.RowBatch;

/**
 * The rows one chunk trains on: the input and the output vectors of its distinct words and the
 * output vectors of its sample of negatives ({@link TableView#takeSample}; one {@link RowBatch}
 * per table), fetched with one asynchronous pull per table, either when the chunk starts or while
 * the chunk before it trains
 * (see {@link W2vWorker}'s fetching ahead). The rows of a chunk fetched ahead then take the steps
 * of the chunk before ({@link #pushStepsAndClear}), so that they start from what a pull after that
 * chunk's push would have read of this thread's own steps.
 *
 * <p>Belongs to one training thread.
 */
final class ChunkRows {
    final RowBatch in;
    final RowBatch out;
    /** Per draw of the chunk's sample: its row, and its value's offset in {@link #out}. */
    final int[] poolRows;
    final int[] poolOffsets;
    private final TableView outView;
    private final long[] sampleKeys;
    private long inTicket;
    private long outTicket;
    /** Whether the rows of a chunk are here or being pulled. */
    private boolean fetched;
    /** Whether the pulls of {@link #fetch} may still be open. */
    private boolean pulling;

    /**
     * Rows of up to {@code inCapacity} input and {@code outCapacity} output vectors, with samples of
     * up to {@code maxSample} rows.
     */
    ChunkRows(TableView inView, TableView outView, int inCapacity, int outCapacity, int maxSample) {
        this.in = new RowBatch(inView, inCapacity);
        this.out = new RowBatch(outView, outCapacity);
        this.outView = outView;
        this.poolRows = new int[maxSample];
        this.poolOffsets = new int[maxSample];
        this.sampleKeys = new long[maxSample];
    }

    /**
     * Starts pulling the input and output vectors of {@code chunk}'s distinct words and the output
     * vectors of its prepared sample, which it takes.
     */
    void fetch(Chunk chunk) {
        long[] distinct = chunk.distinct();
        for (int i = 0; i < chunk.distinctCount(); i++) {
            int word = (int) distinct[i];
            in.add(word);
            out.add(word);
        }
        int pool = outView.takeSample(chunk.sampleHandle, sampleKeys, 0);
        for (int i = 0; i < pool; i++) {
            int row = (int) sampleKeys[i];
            poolRows[i] = row;
            poolOffsets[i] = out.add(row);
        }
        inTicket = in.pullAsync();
        outTicket = out.pullAsync();
        fetched = true;
        pulling = true;
    }

    /** Whether a chunk's rows have been {@link #fetch fetched} since the last {@link #pushStepsAndClear}. */
    boolean fetched() {
        return fetched;
    }

    /** Waits until the pulls of the last {@link #fetch} are complete. */
    void await(Worker worker) {
        if (pulling) {
            worker.waitFor(inTicket);
            worker.waitFor(outTicket);
            pulling = false;
        }
    }

    /** Remembers both batches' values as pulled: every pull is complete and no step taken yet. */
    void keepPulledValues() {
        in.keepPulledValues();
        out.keepPulledValues();
    }

    /**
     * Pushes the chunk's steps on both tables and empties the batches for another chunk; the
     * steps also go to the rows fetched ahead into {@code next} that this chunk shares, once its
     * pulls are complete, unless it is {@code null} (see {@link RowBatch#pushSteps(RowBatch)}).
     */
    void pushStepsAndClear(ChunkRows next, Worker worker) {
        if (next != null) {
            next.await(worker);
        }
        in.pushSteps(next == null ? null : next.in);
        out.pushSteps(next == null ? null : next.out);
        in.clear();
        out.clear();
        fetched = false;
    }
}
