package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;
import java.util.function.LongConsumer;

import io.adaps.api.AdaPS;
import io.adaps.api.Partitioning;
import io.adaps.api.Table;
import io.adaps.api.TableView;
import io.adaps.api.Worker;
import io.adaps.examples.EpochClocks;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.SteppedEpoch;

/**
 * Parallel SGD matrix factorization on an AdaPS node (the update is that of Koren, Bell, Volinsky,
 * "Matrix factorization techniques for recommender systems", 2009), with one of two schedules:
 *
 * <ul>
 *   <li>Hogwild ({@link #epoch(MfData, LongConsumer)}; Recht et al., "Hogwild!", NIPS 2011): the
 *       training entries are split into one contiguous share per thread (the entries are expected
 *       in random order, see {@link MfData#split}) and each thread runs {@link MfSgdKernel#train}
 *       on its share in batches, with no coordination beyond what the node does per parameter.</li>
 *   <li>Hogwild with intent signals ({@code withIntent}, for the {@code mf} command of this
 *       package): Hogwild in chunks of mini-batches ({@code IntentSchedule}), one tick of each
 *       worker's clock per chunk, with intent signalled for the rows and columns of the next chunks
 *       (a group of {@code IntentSchedule.CHUNKS_PER_INTENT}), so that the node's technique can
 *       place them ahead of use.</li>
 *   <li>Blocked ({@code blocked}, for the {@code mf} command of this package): the sub-epochs and
 *       chunks of a {@code BlockSchedule}, with the parameters they use moved to this node ahead of
 *       use.</li>
 * </ul>
 *
 * <p>The {@code mf} command runs each as a {@link SteppedEpoch} ({@code hogwild} for the first),
 * whose steps every thread of every node takes alike, so that a checkpoint can cut an epoch
 * between two steps, and with the steps of the most frequent parameters scaled down
 * ({@code StepScales}); {@link #epoch(MfData, LongConsumer)} takes full steps. An epoch returns
 * once every update is applied. Each thread has its own {@link io.adaps.api.Worker} and kernel,
 * created once and bound to a thread of a {@link ShardPool} that lives as long as the trainer.
 *
 * <p>The trainer takes a node that is already running and the names of its two factor tables, so
 * the same code trains on one node or on one node of a cluster (there, on the node's part of the
 * entries).
 */
public final class MfTrainer implements AutoCloseable {
    /** Entries a thread processes between two progress reports: coarse, so reporting costs nothing. */
    static final int PROGRESS_STEP = 1 << 16;
    /**
     * Steps of a Hogwild epoch: parts of each thread's share, as many as an epoch has cuts at most
     * ({@link EpochCuts#PER_EPOCH}).
     */
    static final int HOGWILD_STEPS = EpochCuts.PER_EPOCH;
    /** Entries per batch of the kernel ({@link MfSgdKernel}), unless configured otherwise. */
    public static final int DEFAULT_BATCH = 1024;

    private final AdaPS node;
    private final Table rowTable;
    private final Table colTable;
    private final Worker[] workers;
    private final MfSgdKernel[] kernels;
    private final TableView[] rowViews;
    private final TableView[] colViews;
    private final int batchSize;
    /**
     * Per thread, the squared errors before each step and the entries stepped since the last
     * {@link #takeTrained()}; each slot written by its thread only, read once the threads are done.
     */
    private final double[] trainedErrors;
    private final long[] trainedEntries;
    /** Per thread, the columns of its next intent group under the intent schedule; see {@link #withIntent}. */
    private ChunkColumns[] groupColumns;
    /** Clocks every worker ticks per intent epoch ({@link EpochClocks}); 0: as many as its chunks. */
    private int clocksPerEpoch;
    private final ShardPool pool;
    /** The blocked schedule whose rows are here already, or {@code null}. */
    private BlockSchedule rowsHeldFor;

    /**
     * A trainer with {@code threads} training threads on {@code node} and batches of
     * {@value #DEFAULT_BATCH} entries.
     *
     * @see #MfTrainer(AdaPS, String, String, float, float, int, int)
     */
    public MfTrainer(AdaPS node, String rowTable, String colTable, float learningRate, float regularization,
                     int threads) {
        this(node, rowTable, colTable, learningRate, regularization, threads, DEFAULT_BATCH);
    }

    /**
     * A trainer with {@code threads} training threads on {@code node}.
     *
     * @param rowTable       name of the table of row factors
     * @param colTable       name of the table of column factors, of the same value length (the rank)
     * @param learningRate   SGD step size, finite and positive
     * @param regularization L2 regularization weight, finite and >= 0
     * @param batchSize      entries per batch of pulls and pushes (see {@link MfSgdKernel}), > 0
     * @throws IllegalArgumentException naming the first argument out of range or unknown table
     */
    public MfTrainer(AdaPS node, String rowTable, String colTable, float learningRate, float regularization,
                     int threads, int batchSize) {
        checkNotNull(node, "node");
        checkPositive(threads, "threads");
        this.node = node;
        this.rowTable = node.table(rowTable);
        this.colTable = node.table(colTable);
        this.workers = new Worker[threads];
        this.kernels = new MfSgdKernel[threads];
        this.rowViews = new TableView[threads];
        this.colViews = new TableView[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = node.worker();
            kernels[t] = new MfSgdKernel(workers[t], rowTable, colTable, learningRate, regularization, batchSize);
            rowViews[t] = workers[t].table(this.rowTable);
            colViews[t] = workers[t].table(this.colTable);
        }
        this.batchSize = batchSize;
        this.trainedErrors = new double[threads];
        this.trainedEntries = new long[threads];
        this.pool = new ShardPool(threads, "adaps-mf");
    }

    /**
     * Runs one epoch over {@code train}, in its order.
     *
     * @param progress receives, from the training threads, the number of entries done since their
     *                 last report, every {@value #PROGRESS_STEP} entries and at the end of a share;
     *                 it must be thread-safe
     * @return the sum over the entries of the squared error before each entry's step
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double epoch(MfData train, LongConsumer progress) {
        checkFits(train);
        checkNotNull(progress, "progress");
        return trainParts(train, StepScales.NONE, 0, 1, 1, progress);
    }

    /**
     * Hogwild over {@code train} in {@value #HOGWILD_STEPS} steps: step {@code s} trains part
     * {@code s} of every thread's share, so the steps of an epoch train what
     * {@link #epoch(MfData, LongConsumer)} does, in the same order, with each entry's steps scaled by
     * {@code scales}.
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    SteppedEpoch hogwild(MfData train, StepScales scales) {
        checkFits(train);
        checkNotNull(scales, "scales");
        return new SteppedEpoch() {
            @Override
            public int steps() {
                return HOGWILD_STEPS;
            }

            @Override
            public void train(int from, int to, LongConsumer progress) {
                trainParts(train, scales, from, to, HOGWILD_STEPS, progress);
            }
        };
    }

    /** Trains parts {@code [from, to)} of {@code parts} of every thread's share of {@code train}. */
    private double trainParts(MfData train, StepScales scales, int from, int to, int parts, LongConsumer progress) {
        return pool.run(train.size(), (thread, start, end) -> train(thread, train,
                start + partStart(from, end - start, parts), start + partStart(to, end - start, parts), scales,
                progress));
    }

    /**
     * Where part {@code part} of a share of {@code size} entries starts: on a batch boundary, so
     * that an epoch in parts makes the same batches as one in a go (and so the same model, with
     * one thread), as long as a batch divides {@value #PROGRESS_STEP}, as powers of two do.
     */
    private int partStart(int part, int size, int parts) {
        long start = ShardPool.shareStart(part, size, parts);
        return (int) Math.min(size, (start + batchSize - 1) / batchSize * batchSize);
    }

    /**
     * Hogwild with intent signals over {@code train} (this node's entries, in their order, but
     * each {@value ColumnBlocks#WALK_BATCHES} batches' entries grouped by column block,
     * {@link ColumnBlocks}): thread {@code t} trains the chunks of its share of
     * {@link IntentSchedule} in order, one step and one clock tick of its worker per chunk, and
     * ticks empty steps after its last chunk up to the epoch's steps, the clocks every worker ticks
     * per epoch ({@link #alignClocks}). At the start
     * of an epoch (or where a resumed one continues) it signals intent for its share's rows
     * ({@link IntentSchedule#shareRows}) up to the next epoch's end, so that they stay active from
     * one epoch to the next (see {@link IntentSchedule} for why). Column intents go per group of
     * {@value IntentSchedule#CHUNKS_PER_INTENT} chunks ({@link IntentSchedule#intentEnd}): at the
     * start it signals intent for the rest of its first chunk's group; from then on, while it
     * trains the last chunk before a group, for that group: the library knows the keys ahead of
     * their use, and under {@link io.adaps.api.Technique#ADAPTIVE} moves or replicates them here in
     * the meantime. A group of chunks {@code [c, e)} of an epoch whose step 0 is at clock {@code b}
     * is signalled for clocks {@code [b + c, b + e)}, naming each of its distinct columns once.
     * Each entry's steps are scaled by {@code scales}.
     *
     * <p>After the epoch's last step each worker calls {@link Worker#waitSync()}: its updates have
     * reached the keys' owners and this node's replicas have been refreshed. Before any node
     * evaluates, the caller must then wait at {@link AdaPS#barrier()} (as {@code MfRun} does after
     * every epoch), so that every node's updates are in.
     *
     * @param share  which node's share {@code train} is, of {@code shares} (this node's in its
     *               cluster, or a part trained alone): the column blocks' walk starts with that
     *               node's home, as {@link ColumnBlocks#blockRanks} orders them
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    SteppedEpoch withIntent(MfData train, StepScales scales, int share, int shares) {
        checkFits(train);
        checkNotNull(scales, "scales");
        int[] ranks = ColumnBlocks.blockRanks(train.numCols(), shares, share,
                col -> Partitioning.RANGE.home(colTable, col, shares));
        MfData ordered = ColumnBlocks.ordered(new IntentSchedule(train, pool.threads(), batchSize, clocksPerEpoch),
                ranks, (int) Math.min(Integer.MAX_VALUE, (long) batchSize * ColumnBlocks.WALK_BATCHES));
        IntentSchedule schedule = new IntentSchedule(ordered, pool.threads(), batchSize, clocksPerEpoch);
        int groupEntries = (int) Math.min(Integer.MAX_VALUE,
                (long) schedule.chunkEntries() * IntentSchedule.CHUNKS_PER_INTENT);
        // Made on first use, and again (between epochs) when a larger share has larger chunks.
        if (groupColumns == null || groupColumns[0].maxEntries() < groupEntries) {
            groupColumns = new ChunkColumns[pool.threads()];
            for (int t = 0; t < groupColumns.length; t++) {
                groupColumns[t] = new ChunkColumns(Math.toIntExact(colTable.rows()), groupEntries);
            }
        }
        int most = mostChunks(schedule);
        long[][] shareRows = new long[pool.threads()][];
        Arrays.setAll(shareRows, schedule::shareRows);
        return new SteppedEpoch() {
            /** The step this run of the epoch began with. */
            private int first;

            @Override
            public int steps() {
                return Math.max(clocksPerEpoch, most);
            }

            @Override
            public void begin(int epoch, int from) {
                first = from;
            }

            @Override
            public void train(int from, int to, LongConsumer progress) {
                boolean last = to == steps();
                pool.onEveryThread(thread -> {
                    if (from == first) {
                        long clock = workers[thread].clock();
                        // Through the next epoch, which signals them again: the rows never end in between.
                        rowViews[thread].intent(shareRows[thread], 0, shareRows[thread].length, clock,
                                clock + steps() - from + steps());
                    }
                    trainWithIntent(thread, schedule, scales, from, to, from == first, last, progress);
                    return 0;
                });
            }
        };
    }

    /** The training threads. */
    int threads() {
        return pool.threads();
    }

    /**
     * The home node of each row's factor in a cluster of {@code nodes} nodes: where the row table
     * ({@link Partitioning#RANGE}, see {@link MfTables}) keeps it before anything moves.
     *
     * @throws IllegalArgumentException if {@code nodes <= 0}
     */
    public IntUnaryOperator rowHomes(int nodes) {
        checkPositive(nodes, "nodes");
        return row -> Partitioning.RANGE.home(rowTable, row, nodes);
    }

    /**
     * The most chunks a thread of this trainer has in an intent epoch over {@code train} by the
     * rule of {@link IntentSchedule#chunkEntries()}: what the nodes of a cluster agree on at even
     * shares ({@link #alignClocks}).
     */
    public int mostChunks(MfData train) {
        return mostChunks(new IntentSchedule(train, pool.threads(), batchSize));
    }

    private int mostChunks(IntentSchedule schedule) {
        int most = 0;
        for (int t = 0; t < pool.threads(); t++) {
            most = Math.max(most, schedule.chunks(t));
        }
        return most;
    }

    /**
     * Makes every worker tick {@code clocks} clocks per intent epoch, the cluster's most chunks of
     * a thread ({@link EpochClocks#agree}), and cuts the largest share of a thread into that many
     * chunks whatever the node's share of the entries ({@link IntentSchedule}): a thread with fewer
     * ticks empty clocks at the end. Without it (or with 0) an epoch has the most chunks of this
     * trainer's threads by the rule.
     *
     * @throws IllegalArgumentException if {@code clocks} is negative
     */
    public void alignClocks(int clocks) {
        if (clocks < 0) {
            throw new IllegalArgumentException("clocks=" + clocks + " (expected >= 0)");
        }
        this.clocksPerEpoch = clocks;
    }

    /**
     * Trains steps {@code [from, to)} of {@code thread}'s share; {@code first}: the epoch's run
     * begins with them, {@code last}: they end the epoch.
     */
    private void trainWithIntent(int thread, IntentSchedule schedule, StepScales scales, int from, int to,
                                 boolean first, boolean last, LongConsumer progress) {
        Worker worker = workers[thread];
        int chunks = schedule.chunks(thread);
        // The clock of the epoch's step 0: step from is trained at the worker's clock now, which
        // on a restored node need not be the uninterrupted run's (so this may be negative).
        long base = worker.clock() - from;
        if (first && from < chunks) {
            signalIntent(thread, schedule, from, base + from);
        }
        for (int chunk = from; chunk < to; chunk++) {
            if (chunk < chunks) {
                int next = chunk + 1;
                if (next < chunks && next % IntentSchedule.CHUNKS_PER_INTENT == 0) {
                    signalIntent(thread, schedule, next, base + next);
                }
                // The kernel waits for its updates at the end of the chunk.
                train(thread, schedule.entries(), schedule.chunkFrom(thread, chunk),
                        schedule.chunkTo(thread, chunk), scales, progress);
            }
            worker.advanceClock();
        }
        if (last) {
            worker.waitSync();
        }
    }

    /**
     * Signals intent of {@code thread}'s worker for the columns of its chunks from {@code chunk} to
     * the end of that chunk's intent group ({@link IntentSchedule#intentEnd}), for their clocks from
     * {@code clock} on.
     */
    private void signalIntent(int thread, IntentSchedule schedule, int chunk, long clock) {
        int end = schedule.intentEnd(thread, chunk);
        ChunkColumns columns = groupColumns[thread];
        columns.collect(schedule.entries(), schedule.chunkFrom(thread, chunk), schedule.chunkTo(thread, end - 1));
        colViews[thread].intent(columns.cols(), 0, columns.count(), clock, clock + end - chunk);
    }

    /**
     * The epochs of {@code schedule}, the blocked schedule of this node, in steps of one sub-epoch:
     * every node must run its own schedule's sub-epoch at the same time, so a barrier of the cluster
     * follows each ({@link SteppedEpoch#barrierEveryStep()}), and {@link SteppedEpoch#train} takes
     * one step at a time. A chunk's entries are trained only once every thread has finished the
     * previous chunk, each thread its share of them, and each entry's steps are scaled by
     * {@code scales}. Who brings the parameters here depends on {@code byIntent}:
     *
     * <ul>
     *   <li>by hand ({@code false}): in the first step of a schedule a trainer takes, each thread
     *       first localizes its share of the node's rows, which then stay: no other node localizes
     *       them, and other nodes' pulls (in evaluation) do not move them. Then, for every
     *       sub-epoch, each thread localizes its share of the first column chunk and waits for it;
     *       then, for each chunk, each thread starts moving its share of the next column chunk,
     *       trains its share of the chunk's entries and waits for its move. So every access of a
     *       sub-epoch is local, and the moves overlap with training. Each thread localizes its own
     *       share (rather than one thread all) so that no thread has a special role and the moves'
     *       requests go out from every worker in parallel.</li>
     *   <li>by intent ({@code true}): each chunk is one tick of every thread's worker clock, so a
     *       sub-epoch is {@value EpochPlan#CHUNKS} clocks, the same on every node. Where a run of
     *       the epoch begins, each thread signals intent for its share of the node's rows for the
     *       rest of the epoch and for its share of the sub-epoch's column block; in every
     *       sub-epoch, for its share of the next sub-epoch's block, for that sub-epoch's clocks.
     *       The library does the rest: a block that one node uses after another is handed from
     *       node to node as the earlier one's intent ends (see
     *       {@link io.adaps.api.Technique#ADAPTIVE}), the rows move once. The shares only spread the
     *       signalling over the threads: placement is per node.</li>
     * </ul>
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    SteppedEpoch blocked(BlockSchedule schedule, StepScales scales, boolean byIntent) {
        checkNotNull(schedule, "schedule");
        checkNotNull(scales, "scales");
        checkFits(schedule.entries());
        return new SteppedEpoch() {
            /** The step this run of the epoch began with. */
            private int first;

            @Override
            public int steps() {
                return schedule.subEpochs();
            }

            @Override
            public boolean barrierEveryStep() {
                return true;
            }

            @Override
            public void begin(int epoch, int from) {
                first = from;
            }

            @Override
            public void train(int from, int to, LongConsumer progress) {
                if (to != from + 1) {
                    throw new IllegalArgumentException("from=" + from + ", to=" + to
                            + " (expected one sub-epoch: each ends at a barrier)");
                }
                if (byIntent) {
                    signalBlockIntents(schedule, from, from == first);
                } else {
                    holdRows(schedule);
                    localizeFirstColumns(schedule, from);
                }
                trainSubEpoch(schedule, scales, from, byIntent, progress);
            }
        };
    }

    /** Moves the schedule's rows here, unless they are here already. */
    private void holdRows(BlockSchedule schedule) {
        if (rowsHeldFor != schedule) {
            long[] rows = schedule.rows();
            pool.onEveryThread(thread -> {
                workers[thread].waitFor(localizeShare(thread, rowTable, rows, 0, rows.length));
                return 0;
            });
            rowsHeldFor = schedule;
        }
    }

    /** Moves the first column chunk of {@code subEpoch} here and waits for it. */
    private void localizeFirstColumns(BlockSchedule schedule, int subEpoch) {
        long[] columns = schedule.columns();
        pool.onEveryThread(thread -> {
            workers[thread].waitFor(localizeShare(thread, colTable, columns, schedule.columnsFrom(subEpoch, 0),
                    schedule.columnsTo(subEpoch, 0)));
            return 0;
        });
    }

    /**
     * Signals each thread's intents at the start of sub-epoch {@code subEpoch}: if {@code first}
     * (where a run of the epoch begins), for its share of the rows up to the epoch's end and of
     * this sub-epoch's columns; then for its share of the next sub-epoch's columns.
     */
    private void signalBlockIntents(BlockSchedule schedule, int subEpoch, boolean first) {
        int chunks = schedule.chunks();
        pool.onEveryThread(thread -> {
            long clock = workers[thread].clock();
            if (first) {
                long[] rows = schedule.rows();
                intentShare(thread, rowTable, rows, 0, rows.length, clock,
                        clock + (long) chunks * (schedule.subEpochs() - subEpoch));
                intentShare(thread, colTable, schedule.columns(), schedule.columnsFrom(subEpoch, 0),
                        schedule.columnsTo(subEpoch, chunks - 1), clock, clock + chunks);
            }
            if (subEpoch + 1 < schedule.subEpochs()) {
                intentShare(thread, colTable, schedule.columns(), schedule.columnsFrom(subEpoch + 1, 0),
                        schedule.columnsTo(subEpoch + 1, chunks - 1), clock + chunks, clock + 2L * chunks);
            }
            return 0;
        });
    }

    /** Signals intent for {@code thread}'s share of {@code ids[from, to)} of {@code table}, for clocks {@code [start, end)}. */
    private void intentShare(int thread, Table table, long[] ids, int from, int to, long start, long end) {
        int first = shareStart(thread, from, to);
        view(thread, table).intent(ids, first, shareStart(thread + 1, from, to) - first, start, end);
    }

    /**
     * Trains sub-epoch {@code subEpoch} chunk by chunk; by hand, each thread moves its share of the
     * next column chunk meanwhile; by intent, each chunk ends with a tick of every worker's clock.
     */
    private void trainSubEpoch(BlockSchedule schedule, StepScales scales, int subEpoch, boolean byIntent,
                               LongConsumer progress) {
        boolean last = subEpoch + 1 == schedule.subEpochs();
        long[] columns = schedule.columns();
        MfData entries = schedule.entries();
        for (int c = 0; c < schedule.chunks(); c++) {
            int chunk = c;
            boolean prefetch = !byIntent && chunk + 1 < schedule.chunks();
            pool.onEveryThread(thread -> {
                long next = prefetch ? localizeShare(thread, colTable, columns, schedule.columnsFrom(subEpoch,
                        chunk + 1), schedule.columnsTo(subEpoch, chunk + 1)) : 0;
                int from = schedule.entriesFrom(subEpoch, chunk);
                int to = schedule.entriesTo(subEpoch, chunk);
                train(thread, entries, shareStart(thread, from, to), shareStart(thread + 1, from, to), scales,
                        progress);
                if (prefetch) {
                    workers[thread].waitFor(next);
                }
                if (byIntent) {
                    workers[thread].advanceClock();
                    if (last && chunk + 1 == schedule.chunks()) {
                        workers[thread].waitSync(); // replicas, where uses overlapped, are in
                    }
                }
                return 0;
            });
        }
    }

    /** Starts moving {@code thread}'s share of {@code ids[from, to)} of {@code table} here; returns the ticket. */
    private long localizeShare(int thread, Table table, long[] ids, int from, int to) {
        int start = shareStart(thread, from, to);
        return view(thread, table).localizeAsync(ids, start, shareStart(thread + 1, from, to) - start);
    }

    /** Where {@code thread}'s share of the positions {@code [from, to)} starts. */
    private int shareStart(int thread, int from, int to) {
        return from + ShardPool.shareStart(thread, to - from, pool.threads());
    }

    /** {@code thread}'s view of {@code table}, one of the two factor tables. */
    private TableView view(int thread, Table table) {
        return table == rowTable ? rowViews[thread] : colViews[thread];
    }

    /**
     * Trains entries {@code [from, to)} on {@code thread}'s kernel with the step sizes scaled by
     * {@code scales}, reporting progress in steps.
     */
    private double train(int thread, MfData data, int from, int to, StepScales scales, LongConsumer progress) {
        MfSgdKernel kernel = kernels[thread];
        double sum = 0;
        for (int start = from; start < to; start += PROGRESS_STEP) {
            int end = Math.min(to, start + PROGRESS_STEP);
            sum += kernel.train(data, start, end, scales);
            progress.accept(end - start);
        }
        trainedErrors[thread] += sum;
        trainedEntries[thread] += to - from;
        return sum;
    }

    /**
     * What this trainer's threads stepped since the last call (or since it was made), and starts
     * counting anew: the sum of the squared errors before each entry's step and the entries. The
     * RMSE of an epoch's steps costs nothing extra, where evaluating the model on the training
     * entries after the epoch costs a pass over them. Call it when no training runs.
     */
    public Trained takeTrained() {
        double errors = 0;
        long entries = 0;
        for (int t = 0; t < trainedErrors.length; t++) {
            errors += trainedErrors[t];
            entries += trainedEntries[t];
            trainedErrors[t] = 0;
            trainedEntries[t] = 0;
        }
        return new Trained(errors, entries);
    }

    /**
     * What a trainer stepped ({@link #takeTrained()}).
     *
     * @param squaredErrors the sum over the entries of the squared error before each entry's step
     * @param entries       the entries stepped
     */
    public record Trained(double squaredErrors, long entries) {
    }

    /** {@link #epoch(MfData, LongConsumer)} without progress reports. */
    public double epoch(MfData train) {
        return epoch(train, done -> { });
    }

    /**
     * The root mean squared error of the current model on {@code data}, evaluated in parallel on the
     * training threads; {@code NaN} for no entries.
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double rmse(MfData data) {
        return Math.sqrt(squaredErrors(data) / data.size());
    }

    /**
     * The sum of the squared errors of the current model on {@code data}, evaluated in parallel on
     * the training threads. Nodes of a cluster add up their sums to get the cluster's RMSE.
     *
     * @throws IllegalArgumentException if the data does not fit the tables
     */
    public double squaredErrors(MfData data) {
        return squaredErrors(data, 1);
    }

    /**
     * As {@link #squaredErrors(MfData)}, each thread with up to {@code batchesInFlight} batches'
     * pulls in flight at once ({@link MfSgdKernel#squaredErrors(MfData, int, int, int)}): for an
     * evaluation before the nodes have placed their keys, whose pulls are mostly remote.
     *
     * @throws IllegalArgumentException if the data does not fit the tables, or unless
     *                                  {@code 1 <= batchesInFlight <=} {@link MfSgdKernel#MAX_BATCHES_IN_FLIGHT}
     */
    public double squaredErrors(MfData data, int batchesInFlight) {
        checkFits(data);
        MfSgdKernel.checkBatchesInFlight(batchesInFlight);
        return pool.run(data.size(),
                (thread, from, to) -> kernels[thread].squaredErrors(data, from, to, batchesInFlight));
    }

    private void checkFits(MfData data) {
        checkNotNull(data, "data");
        if (data.numRows() > rowTable.rows() || data.numCols() > colTable.rows()) {
            throw new IllegalArgumentException("data=" + data + " (expected at most " + rowTable.rows() + " x "
                    + colTable.rows() + ", the rows of tables '" + rowTable.name() + "' and '" + colTable.name()
                    + "')");
        }
    }

    /** Stops the training threads; the node stays open. Idempotent. */
    @Override
    public void close() {
        pool.close();
    }
}
