package io.adaps.examples.mf;

import static io.adaps.util.Checks.checkNotNull;

import java.util.function.LongConsumer;

import io.adaps.api.Technique;

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

    /** Runs one epoch on {@code trainer}; see {@link MfTrainer}'s epoch methods. */
    double epoch(MfTrainer trainer, LongConsumer progress);

    /** The schedule, for the run's header. */
    String describe();

    /**
     * The plan of node {@code node} of {@code nodes} that trains on {@code data} under
     * {@code technique}; {@code seed} seeds what is random in a schedule.
     *
     * <p>Only techniques that move parameters on {@code localize} profit from the blocked
     * schedule: under {@link Technique#STATIC} its sub-epoch barriers would cost time and save no
     * network access. On a single node everything is local, so there Hogwild is best whatever the
     * technique.
     *
     * @throws IllegalArgumentException if {@code node} is not in {@code 0 .. nodes - 1}
     */
    static EpochPlan of(Technique technique, MfData.Split data, int node, int nodes, long seed) {
        checkNotNull(technique, "technique");
        checkNotNull(data, "data");
        // No default: a new technique does not compile until it says here whether localize moves.
        boolean movesParameters = switch (technique) {
            case STATIC, ADAPTIVE, REPLICATION_ONLY, FULL_REPLICATION -> false;
            case RELOCATION_ONLY -> true;
        };
        if (!movesParameters || nodes == 1) {
            return new Hogwild(data.train().part(node, nodes), data.test().part(node, nodes));
        }
        BlockPartition partition = BlockPartition.balanced(data.train(), nodes);
        return new Blocked(BlockSchedule.of(partition, data.train(), node, BLOCK_PASSES, CHUNKS, seed),
                partition.shard(data.test(), node));
    }

    /**
     * Hogwild on a contiguous part of the (shuffled) entries.
     *
     * @param train this node's part of the training entries
     * @param test  this node's part of the test entries
     */
    record Hogwild(MfData train, MfData test) implements EpochPlan {
        @Override
        public double epoch(MfTrainer trainer, LongConsumer progress) {
            return trainer.epoch(train, progress);
        }

        @Override
        public String describe() {
            return "Hogwild schedule";
        }
    }

    /**
     * The blocked schedule of {@link BlockSchedule}; the test entries are those of this node's rows,
     * so that evaluating them reads the row factors locally too.
     *
     * @param schedule this node's schedule
     * @param test     this node's test entries
     */
    record Blocked(BlockSchedule schedule, MfData test) implements EpochPlan {
        @Override
        public MfData train() {
            return schedule.entries();
        }

        @Override
        public double epoch(MfTrainer trainer, LongConsumer progress) {
            return trainer.epoch(schedule, progress);
        }

        @Override
        public String describe() {
            return "blocked schedule: " + schedule.subEpochs() + " sub-epochs of " + schedule.chunks()
                    + " prefetched chunks";
        }
    }
}
