package io.adaps.api;

/**
 * A {@link Worker}'s view of one table: the {@link ParameterAccess} operations with ids that are
 * row numbers {@code 0 .. rows - 1} of the table. Asynchronous tickets are the worker's, to be
 * awaited with {@link Worker#waitFor(long)}. Belongs to the worker's thread.
 */
public interface TableView extends ParameterAccess {
    /** The table viewed. */
    Table table();

    /** The worker this view belongs to. */
    Worker worker();

    /**
     * Prepares a sample of {@code n} rows drawn from the table's
     * {@linkplain TableSpec#withSampling distribution}, to be read during clocks
     * {@code [fromClock, toClock)} of the worker; how the rows are drawn and how closely they
     * follow the distribution is the node's {@link SamplingScheme}. Returns a handle for
     * {@link #pullSample}. At most {@value #MAX_PREPARED_SAMPLES} samples of a worker may be
     * prepared and not yet pulled.
     *
     * @throws IllegalArgumentException if {@code n} is not in {@code 1..}{@value #MAX_SAMPLE_SIZE}
     *                                  or the clocks are not a valid intent interval
     * @throws IllegalStateException    if the table has no sampling distribution, or too many
     *                                  samples are prepared and not pulled
     */
    long prepareSample(int n, long fromClock, long toClock);

    /**
     * Pulls a prepared sample: writes its {@code n} rows to {@code keysOut}, which must be exactly
     * {@code n} long, and their values to {@code valuesOut}, exactly {@code n} values long. A
     * handle is pulled once.
     *
     * @throws IllegalArgumentException if the handle is not a prepared, unpulled sample of this
     *                                  table and worker, or a buffer has the wrong length
     */
    void pullSample(long handle, long[] keysOut, float[] valuesOut);

    /**
     * Pulls a prepared sample into {@code keysOut} from {@code keysOffset} and {@code valuesOut}
     * from {@code valuesOffset}, which must have room for its rows and values.
     */
    void pullSample(long handle, long[] keysOut, int keysOffset, float[] valuesOut, int valuesOffset);

    /**
     * Takes a prepared sample's rows without their values: writes them to {@code keysOut} from
     * {@code keysOffset}, which must have room for them, uses the handle up as
     * {@link #pullSample} does, and returns how many there are. For a caller that reads the rows
     * together with others, such as in one {@link #pullAsync} that overlaps its computation; the
     * rows are the ones {@code pullSample} would have given, and count in the node's
     * {@link SamplingMetrics} as pulled, local if this node could read them at once when taken.
     *
     * @throws IllegalArgumentException if the handle is not a prepared, unpulled sample of this
     *                                  table and worker, or {@code keysOut} has no room for its rows
     */
    int takeSample(long handle, long[] keysOut, int keysOffset);

    /**
     * Runs {@code update} on the stored values of row {@code row} of this table and row
     * {@code otherRow} of {@code other}'s table, in place, if this node holds both rows now and no
     * other thread is writing either; returns whether it did. The Hogwild step of a pair of
     * parameters (a matrix row and column, a word and a context) without the copies of a pull and a
     * push: the caller falls back to those for a pair it returns {@code false} for (nothing ran,
     * nothing changed).
     *
     * <ul>
     *   <li>Rows this node owns, and replicas of rows it does not own once they hold their owner's
     *       value and are as fresh as a pull of them would have to be (their tables' staleness
     *       bounds). What the update changes in a replica reaches the owner with the next
     *       synchronization, like a push to it. A row of another node, one on its way here or a
     *       replica still waiting for its owner's value is {@code false}.</li>
     *   <li>It never waits: a row whose lock another thread holds at this moment (a concurrent
     *       step or push on a hot row, a synchronization round taking a replica's changes) is
     *       {@code false} too; pull and push wait their turn.</li>
     *   <li>Both tables must use the built-in additive rule ({@link UpdateRules#add()}, the
     *       default): the change made in place is the update, and no other rule runs.</li>
     *   <li>The update runs while this worker holds both rows' write locks (one lock when the same
     *       row is named twice): pulls, pushes, relocations, synchronization and checkpoints see the
     *       values before or after it, never half of it, and no concurrent push is lost. It counts
     *       as a local pull and push of each row.</li>
     *   <li>The values it reads are as fresh as a pull of them: every consistency model's bound
     *       holds.</li>
     * </ul>
     *
     * @throws IllegalArgumentException if a row is not in its table, {@code other} is another
     *                                  worker's view, or a table's rule is not the additive one
     */
    boolean updateInPlace(long row, TableView other, long otherRow, InPlaceUpdate update);

    /**
     * {@link #updateInPlace(long, TableView, long, InPlaceUpdate)} for {@code count} pairs in one
     * call: pair {@code i} is row {@code rows[rowsOffset + i]} of this table and row
     * {@code otherRows[otherRowsOffset + i]} of {@code other}'s, done in order, each under the same
     * terms as a call of its own (held here, locks free, never waiting), with {@code update} told
     * its index {@code i}. The indexes of the pairs not done go to {@code notDone} from index 0, in
     * order; the caller falls back to pulls and pushes for those. The checks and the counts of the
     * call are made once, not once per pair: for kernels that step many pairs (an MF mini-batch).
     * The staleness a pair of owned rows is counted with is the watermark as of the call's start;
     * pairs with a replica behind it are counted at the oldest such replica's clock, as a pull
     * counts its rows at the oldest of theirs.
     * If {@code update} throws, the pairs before it are done and counted, and the exception
     * propagates.
     *
     * @return how many pairs were not done (written to {@code notDone[0 ..]})
     * @throws IllegalArgumentException if a range is outside its array, {@code notDone} is shorter
     *                                  than {@code count}, a row is not in its table (then nothing is
     *                                  done), or as the single-pair call
     */
    int updateInPlace(long[] rows, int rowsOffset, TableView other, long[] otherRows, int otherRowsOffset, int count,
                      InPlacePairUpdate update, int[] notDone);

    /** The most samples a worker may have prepared and not pulled. */
    int MAX_PREPARED_SAMPLES = 1024;

    /** The most rows in one sample. */
    int MAX_SAMPLE_SIZE = 1 << 20;
}
