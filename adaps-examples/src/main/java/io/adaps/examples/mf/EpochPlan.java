package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import io.adaps.api.Technique;
import io.adaps.examples.ShareDeal;
import io.adaps.examples.SpeedShares;
import io.adaps.examples.SteppedEpoch;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

/**
 * What one node of a training run trains and evaluates on, and how it runs an epoch: the schedule
 * that suits the node's {@link Technique}.
 */
sealed interface EpochPlan {
    /** Passes over the column blocks per epoch of the blocked schedule; see {@link BlockSchedule}. */
    int BLOCK_PASSES = 4;
    /** Chunks per sub-epoch of the blocked schedule; see {@link BlockSchedule}. */
    int CHUNKS = 4;

    /** This node's training entries. */
    MfData train();

    /** This node's test entries. */
    MfData test();

    /** The step sizes' scales, the same on every node: {@link StepScales#byFrequency} of all the training entries. */
    StepScales scales();

    /** The plan's epochs on {@code trainer}, in steps; see {@link MfTrainer}'s schedules. */
    SteppedEpoch epoch(MfTrainer trainer);

    /** The schedule, for the run's header. */
    String describe();

    /**
     * Whether the plan deals the entries by the shares it was made with
     * ({@link #byShares}); the blocked schedule's are always even.
     */
    default boolean dealsByShares() {
        return true;
    }

    /**
     * The plan of node {@code node} of {@code nodes} that trains on {@code data} under
     * {@code technique} with the schedule it runs by default ({@link Schedule#defaultFor}).
     *
     * @see #of(Technique, Schedule, MfData.Split, int, int, IntUnaryOperator, long)
     */
    static EpochPlan of(Technique technique, MfData.Split data, int node, int nodes, IntUnaryOperator homeOfRow,
                        long seed) {
        return of(technique, Schedule.defaultFor(technique), data, node, nodes, homeOfRow, seed);
    }

    /**
     * The plan of node {@code node} of {@code nodes} that trains on {@code data} under
     * {@code technique} with {@code schedule}; {@code seed} seeds what is random in a schedule.
     * The plan with intent signals trains each row at the node that is its factor's home
     * ({@code homeOfRow}) where the balance of the entries allows ({@link BlockPartition}).
     *
     * <ul>
     *   <li>{@link Technique#STATIC}: {@link Hogwild} on a contiguous part of the entries. Nothing
     *       moves, so there is nothing to tell the library, and every node uses every row and
     *       column: the baseline.</li>
     *   <li>{@link Schedule#BLOCKED} on a cluster: the {@link Blocked} schedule, which under
     *       {@link Technique#RELOCATION_ONLY} localizes what it uses by hand and under
     *       {@link Technique#ADAPTIVE} only says, by intent signals, which rows and column blocks
     *       each sub-epoch uses: the library moves the rows once and, under {@code bsp}, hands each
     *       column block from node to node (under a stale model it replicates them).</li>
     *   <li>{@link Schedule#HOGWILD} under a technique that signals intent, and any technique but
     *       STATIC on a single node: {@link IntentHogwild} on the entries of this node's rows and
     *       its share of the hottest rows' entries, signalling intent ahead of use. Each row but
     *       the hottest is used by one node only (ADAPTIVE moves it there), the hottest rows and the
     *       columns by every node (ADAPTIVE replicates those that are used concurrently). On a
     *       single node, where everything is local, the intents are harmless.</li>
     * </ul>
     * Every plan scales the steps of the most frequent rows and columns down by their frequency
     * ({@link StepScales}), computed from all of {@code data}'s training entries, so that the
     * nodes of a cluster and a single node train with the same step sizes.
     *
     * @param homeOfRow the home node of each row's factor in a cluster of {@code nodes} nodes
     * @throws IllegalArgumentException if {@code node} is not in {@code 0 .. nodes - 1}, or the
     *                                  schedule does not fit the technique ({@link Schedule#checkFits})
     */
    static EpochPlan of(Technique technique, Schedule schedule, MfData.Split data, int node, int nodes,
                        IntUnaryOperator homeOfRow, long seed) {
        return byShares(technique, schedule, data, node, nodes, homeOfRow, seed).apply(SpeedShares.even(nodes));
    }

    /**
     * The plans of {@link #of(Technique, Schedule, MfData.Split, int, int, IntUnaryOperator, long)}
     * when node {@code i} trains about {@code shares[i]} of the entries (one share per node, summing
     * to 1; {@link ShareDeal#check}) rather than an even share: the Hogwild plans deal by the shares,
     * the blocked schedule (whose sub-epochs pair every node's rows with one column block at a time)
     * by even shares whatever they are ({@link #dealsByShares}). The step sizes' scales are computed
     * once, here, for all of them.
     *
     * @throws IllegalArgumentException as {@code of}, or when a plan is asked for with shares of
     *                                  another number of nodes than {@code nodes}
     */
    static Function<double[], EpochPlan> byShares(Technique technique, Schedule schedule, MfData.Split data,
                                                  int node, int nodes, IntUnaryOperator homeOfRow, long seed) {
        checkNotNull(technique, "technique");
        checkNotNull(schedule, "schedule").checkFits(technique);
        checkNotNull(data, "data");
        checkNotNull(homeOfRow, "homeOfRow");
        checkPositive(nodes, "nodes");
        if (node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (nodes - 1) + ")");
        }
        StepScales scales = StepScales.byFrequency(data.train());
        return shares -> {
            if (ShareDeal.check(shares, node).length != nodes) {
                throw new IllegalArgumentException("shares.length=" + shares.length + " (expected " + nodes
                        + ", the nodes)");
            }
            if (technique == Technique.STATIC) {
                return new Hogwild(data.train().part(node, shares), data.test().part(node, shares), scales);
            }
            return nodes > 1 && schedule == Schedule.BLOCKED
                    ? blocked(data, node, BlockPartition.balanced(data.train(), nodes), seed, scales,
                            technique == Technique.ADAPTIVE)
                    : intentHogwild(data, node, nodes,
                            BlockPartition.sharingHotRows(data.train(), shares, homeOfRow), scales);
        };
    }

    private static EpochPlan blocked(MfData.Split data, int node, BlockPartition partition, long seed,
                                     StepScales scales, boolean byIntent) {
        return new Blocked(BlockSchedule.of(partition, data.train(), node, BLOCK_PASSES, CHUNKS, seed),
                partition.shard(data.test(), node), scales, byIntent);
    }

    private static EpochPlan intentHogwild(MfData.Split data, int node, int nodes, BlockPartition partition,
                                           StepScales scales) {
        return new IntentHogwild(partition.shard(data.train(), node), partition.shard(data.test(), node), scales,
                node, nodes);
    }

    /**
     * Hogwild on a contiguous part of the (shuffled) entries.
     *
     * @param train  this node's part of the training entries
     * @param test   this node's part of the test entries
     * @param scales the step sizes' scales
     */
    record Hogwild(MfData train, MfData test, StepScales scales) implements EpochPlan {
        @Override
        public SteppedEpoch epoch(MfTrainer trainer) {
            return trainer.hogwild(train, scales);
        }

        @Override
        public String describe() {
            return "Hogwild schedule";
        }
    }

    /**
     * Hogwild on the entries of this node's rows and its share of the hottest rows' entries (rows
     * dealt by entries over the nodes in their shares, the hottest shared by all, see
     * {@link BlockPartition#sharingHotRows}), in their (shuffled) order, with intent signals: each thread
     * trains its share in chunks of {@value IntentSchedule#BATCHES_PER_CHUNK} mini-batches (at least
     * {@value IntentSchedule#MIN_CHUNKS} chunks; as many chunks per thread as every node has at even
     * shares, when the trainer's clocks are aligned), one clock tick per chunk, signals intent for its
     * share's rows at the start of the epoch, and for the columns of its next
     * {@value IntentSchedule#CHUNKS_PER_INTENT} chunks while it trains the last chunk before them
     * ({@link MfTrainer}'s {@code withIntent}); every {@value ColumnBlocks#WALK_BATCHES} batches
     * step their entries one block of columns after the other ({@link ColumnBlocks}). The test
     * entries are split the same way as the training entries, so that evaluating them reads the row
     * factors where training left them.
     *
     * @param train  this node's training entries
     * @param test   this node's test entries
     * @param scales the step sizes' scales
     * @param node   which node's share this is, of {@code nodes}: its walk over the column blocks
     *               starts with that node's home
     */
    record IntentHogwild(MfData train, MfData test, StepScales scales, int node, int nodes) implements EpochPlan {
        @Override
        public SteppedEpoch epoch(MfTrainer trainer) {
            return trainer.withIntent(train, scales, node, nodes);
        }

        @Override
        public String describe() {
            return "Hogwild on the node's rows and its share of the hottest rows, with intent signals for its rows "
                    + "per epoch and its columns per " + IntentSchedule.CHUNKS_PER_INTENT + " chunks of "
                    + IntentSchedule.BATCHES_PER_CHUNK + " batches (at least " + IntentSchedule.MIN_CHUNKS
                    + " chunks per thread), each " + ColumnBlocks.WALK_BATCHES + " batches' entries by "
                    + ColumnBlocks.BLOCKS + " blocks of columns";
        }
    }

    /**
     * The blocked schedule of {@link BlockSchedule}; the test entries are those of this node's rows,
     * so that evaluating them reads the row factors locally too.
     *
     * @param schedule this node's schedule
     * @param test     this node's test entries
     * @param scales   the step sizes' scales
     * @param byIntent whether the schedule signals intent (and the library moves the parameters)
     *                 instead of localizing them by hand
     */
    record Blocked(BlockSchedule schedule, MfData test, StepScales scales, boolean byIntent) implements EpochPlan {
        @Override
        public MfData train() {
            return schedule.entries();
        }

        @Override
        public SteppedEpoch epoch(MfTrainer trainer) {
            return trainer.blocked(schedule, scales, byIntent);
        }

        @Override
        public boolean dealsByShares() {
            return false;
        }

        @Override
        public String describe() {
            return "blocked schedule: " + schedule.subEpochs() + " sub-epochs of " + schedule.chunks()
                    + (byIntent ? " chunks, with intent signals per sub-epoch" : " prefetched chunks");
        }
    }
}
