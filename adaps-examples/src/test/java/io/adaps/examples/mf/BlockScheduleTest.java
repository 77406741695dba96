package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BlockScheduleTest {
    private static final int NODES = 3;
    private static final int PASSES = 2;
    private static final int CHUNKS = 4;

    /** Entries with zipf-skewed ids whose values number them: entry i has value i. */
    private static MfData numberedEntries(double zipf) {
        MfData sampled = new SyntheticMatrix(new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, zipf, 5)).sample();
        float[] values = new float[sampled.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        return new MfData(sampled.numRows(), sampled.numCols(), sampled.rows(), sampled.cols(), values);
    }

    private static BlockSchedule[] schedules(MfData train, BlockPartition partition) {
        BlockSchedule[] schedules = new BlockSchedule[NODES];
        for (int node = 0; node < NODES; node++) {
            schedules[node] = BlockSchedule.of(partition, train, node, PASSES, CHUNKS, 7);
        }
        return schedules;
    }

    @Test
    void theChunksOfAnEpochCoverEveryEntryOfTheClusterExactlyOnce() {
        MfData train = numberedEntries(1.1);
        BlockPartition partition = BlockPartition.balanced(train, NODES);
        List<Integer> trained = new ArrayList<>();
        for (BlockSchedule schedule : schedules(train, partition)) {
            assertThat(schedule.subEpochs()).isEqualTo(PASSES * NODES);
            assertThat(schedule.chunks()).isEqualTo(CHUNKS);
            // The chunks tile the node's entries in order, without gaps or overlaps.
            int next = 0;
            for (int subEpoch = 0; subEpoch < schedule.subEpochs(); subEpoch++) {
                for (int chunk = 0; chunk < CHUNKS; chunk++) {
                    assertThat(schedule.entriesFrom(subEpoch, chunk)).isEqualTo(next);
                    next = schedule.entriesTo(subEpoch, chunk);
                }
            }
            assertThat(next).isEqualTo(schedule.entries().size());
            for (float value : schedule.entries().values()) {
                trained.add((int) value);
            }
        }
        assertThat(trained).hasSize(train.size()).doesNotHaveDuplicates();
    }

    @Test
    void inEverySubEpochTheNodesUseDisjointBlocksAndAChunkOnlyColumnsThatHaveArrived() {
        MfData train = numberedEntries(1.1);
        BlockPartition partition = BlockPartition.balanced(train, NODES);
        BlockSchedule[] schedules = schedules(train, partition);
        for (int subEpoch = 0; subEpoch < PASSES * NODES; subEpoch++) {
            Set<Integer> blocksInUse = new HashSet<>();
            for (int node = 0; node < NODES; node++) {
                BlockSchedule schedule = schedules[node];
                int block = (node + subEpoch) % NODES;
                assertThat(blocksInUse.add(block)).isTrue();
                // The columns localized before each chunk: those of the chunks so far, each once.
                Set<Long> arrived = new HashSet<>();
                for (int chunk = 0; chunk < CHUNKS; chunk++) {
                    for (int i = schedule.columnsFrom(subEpoch, chunk); i < schedule.columnsTo(subEpoch, chunk); i++) {
                        long col = schedule.columns()[i];
                        assertThat(partition.blockOfCol((int) col)).isEqualTo(block);
                        assertThat(arrived.add(col)).isTrue();
                    }
                    MfData entries = schedule.entries();
                    for (int i = schedule.entriesFrom(subEpoch, chunk); i < schedule.entriesTo(subEpoch, chunk); i++) {
                        assertThat(arrived).contains((long) entries.cols()[i]);
                        assertThat(partition.nodeOfRow(entries.rows()[i])).isEqualTo(node);
                    }
                }
            }
        }
    }

    @Test
    void chunksGrowAsColumnsArriveAndKeepTheShuffledOrder() {
        // Without skew: with it, the hottest of these 200 columns alone holds a fifth of the entries.
        MfData train = numberedEntries(0);
        BlockPartition partition = BlockPartition.balanced(train, NODES);
        BlockSchedule schedule = schedules(train, partition)[1];
        MfData entries = schedule.entries();
        long[] chunkEntries = new long[CHUNKS];
        for (int subEpoch = 0; subEpoch < schedule.subEpochs(); subEpoch++) {
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                int from = schedule.entriesFrom(subEpoch, chunk);
                int to = schedule.entriesTo(subEpoch, chunk);
                if (chunk > 0) {
                    assertThat(to - from).isGreaterThan(from - schedule.entriesFrom(subEpoch, chunk - 1));
                }
                chunkEntries[chunk] += to - from;
                // Stable grouping: a chunk keeps the input order, which is random.
                for (int i = from + 1; i < to; i++) {
                    assertThat(entries.values()[i]).isGreaterThan(entries.values()[i - 1]);
                }
            }
        }
        // Chunk t trains the entries of column chunk t with probability (t + 1) / 4 and those of each
        // earlier column chunk with 1 / 4: (2t + 1) / 16 of all.
        for (int chunk = 0; chunk < CHUNKS; chunk++) {
            assertThat((double) chunkEntries[chunk] / entries.size()).isCloseTo((2 * chunk + 1) / 16.0, offset(0.01));
        }
        // The rows to hold are the node's.
        assertThat(schedule.rows()).containsExactly(partition.rowsOf(1));
    }

    @Test
    void columnChunksGoFromTheHottestColumnsToTheColdest() {
        MfData train = numberedEntries(1.1);
        BlockSchedule schedule = schedules(train, BlockPartition.balanced(train, NODES))[2];
        int[] colEntries = new int[train.numCols()];
        for (int col : schedule.entries().cols()) {
            colEntries[col]++;
        }
        for (int subEpoch = 0; subEpoch < NODES; subEpoch++) {
            int hottestLater = Integer.MAX_VALUE;
            int columns = 0;
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                for (int i = schedule.columnsFrom(subEpoch, chunk); i < schedule.columnsTo(subEpoch, chunk); i++) {
                    int entries = colEntries[(int) schedule.columns()[i]];
                    assertThat(entries).isPositive().isLessThanOrEqualTo(hottestLater);
                    hottestLater = entries;
                    columns++;
                }
            }
            // A few hot columns hold a quarter of the entries: the first move is of a handful.
            assertThat(schedule.columnsTo(subEpoch, 0) - schedule.columnsFrom(subEpoch, 0)).isLessThan(columns / 10);
        }
    }

    @Test
    void refusesBadArguments() {
        MfData train = numberedEntries(1.1);
        BlockPartition partition = BlockPartition.balanced(train, NODES);
        assertThatThrownBy(() -> BlockSchedule.of(partition, train, NODES, 1, 1, 1))
                .hasMessage("node=3 (expected 0..2)");
        assertThatThrownBy(() -> BlockSchedule.of(partition, train, 0, 0, 1, 1)).hasMessage("passes=0 (expected > 0)");
        assertThatThrownBy(() -> BlockSchedule.of(partition, train, 0, 1, 0, 1)).hasMessage("chunks=0 (expected > 0)");
        BlockSchedule schedule = BlockSchedule.of(partition, train, 0, 1, 2, 1);
        assertThatThrownBy(() -> schedule.entriesFrom(3, 0))
                .hasMessage("subEpoch=3, chunk=0 (expected 0..2 and 0..1)");
        assertThatThrownBy(() -> schedule.columnsTo(0, 2))
                .hasMessage("subEpoch=0, chunk=2 (expected 0..2 and 0..1)");
    }
}
