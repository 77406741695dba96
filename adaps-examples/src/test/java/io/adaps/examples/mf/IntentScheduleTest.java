package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.adaps.api.Technique;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IntentScheduleTest {
    /** Entries with zipf-skewed ids whose values number them: entry i has value i. */
    private static MfData numberedEntries() {
        MfData sampled = new SyntheticMatrix(new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, 1.1, 5)).sample();
        float[] values = new float[sampled.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        return new MfData(sampled.numRows(), sampled.numCols(), sampled.rows(), sampled.cols(), values);
    }

    @Test
    void aNumberOfChunksCutsTheLargestShareOfAThreadIntoAboutThatManyAndNoShareIntoMore() {
        MfData entries = numberedEntries();
        for (int chunks : new int[] {1, 3, 7, 64}) {
            for (int threads = 1; threads <= 3; threads++) {
                for (double share : new double[] {0.2, 0.5, 1}) {
                    MfData part = entries.part(0, new double[] {share, 1 - share});
                    IntentSchedule schedule = new IntentSchedule(part, threads, 16, chunks);
                    int most = 0;
                    int trained = 0;
                    int largest = 0;
                    for (int thread = 0; thread < threads; thread++) {
                        most = Math.max(most, schedule.chunks(thread));
                        largest = Math.max(largest, ShardPool.shareStart(thread + 1, part.size(), threads)
                                - ShardPool.shareStart(thread, part.size(), threads));
                        for (int chunk = 0; chunk < schedule.chunks(thread); chunk++) {
                            trained += schedule.chunkTo(thread, chunk) - schedule.chunkFrom(thread, chunk);
                        }
                    }
                    // Chunks of ceil(largest / chunks) entries: as many, or fewer where that rounding adds up.
                    assertThat(most).as("%d chunks, %d threads, share %s", chunks, threads, share)
                            .isBetween(chunks - 1 - chunks * chunks / largest, chunks);
                    assertThat(trained).isEqualTo(part.size());
                }
            }
        }
        assertThatThrownBy(() -> new IntentSchedule(entries, 1, 16, -1)).hasMessage("chunks=-1 (expected >= 0)");
    }

    @ParameterizedTest(name = "{0} nodes x {1} threads, batches of {2}")
    @CsvSource({"1, 1, 1024", "2, 1, 16", "2, 3, 7", "3, 2, 100", "4, 4, 1000000", "1, 2, 1", "2, 3, 2"})
    void theChunksOfAllThreadsOfAllNodesTrainEveryEntryExactlyOnce(int nodes, int threads, int batch) {
        MfData all = numberedEntries();
        MfData.Split data = new MfData.Split(all, all.part(0, 10));
        List<Integer> trained = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            MfData entries = EpochPlan.of(Technique.ADAPTIVE, data, node, nodes, row -> row % nodes, 1).train();
            IntentSchedule schedule = new IntentSchedule(entries, threads, batch);
            int largestShare = 0;
            for (int thread = 0; thread < threads; thread++) {
                largestShare = Math.max(largestShare, ShardPool.shareStart(thread + 1, entries.size(), threads)
                        - ShardPool.shareStart(thread, entries.size(), threads));
            }
            // 256 batches, or fewer entries so that each share has at least MIN_CHUNKS chunks.
            assertThat(schedule.chunkEntries()).isEqualTo((int) Math.min((long) IntentSchedule.BATCHES_PER_CHUNK
                    * batch, Math.max(1, largestShare / IntentSchedule.MIN_CHUNKS)));
            // The threads' chunks tile the node's entries in order, without gaps or overlaps.
            int next = 0;
            for (int thread = 0; thread < threads; thread++) {
                for (int chunk = 0; chunk < schedule.chunks(thread); chunk++) {
                    assertThat(schedule.chunkFrom(thread, chunk)).isEqualTo(next);
                    next = schedule.chunkTo(thread, chunk);
                    int size = next - schedule.chunkFrom(thread, chunk);
                    assertThat(size).isPositive().isLessThanOrEqualTo(schedule.chunkEntries());
                    if (chunk + 1 < schedule.chunks(thread)) {
                        assertThat(size).isEqualTo(schedule.chunkEntries());
                    }
                    // Intent groups: up to the next multiple of CHUNKS_PER_INTENT, within the share.
                    int groupEnd = schedule.intentEnd(thread, chunk);
                    assertThat(groupEnd).isGreaterThan(chunk).isLessThanOrEqualTo(schedule.chunks(thread));
                    assertThat(groupEnd == schedule.chunks(thread)
                            || groupEnd % IntentSchedule.CHUNKS_PER_INTENT == 0).isTrue();
                    assertThat(groupEnd - chunk).isLessThanOrEqualTo(IntentSchedule.CHUNKS_PER_INTENT);
                }
                int share = ShardPool.shareStart(thread + 1, entries.size(), threads)
                        - ShardPool.shareStart(thread, entries.size(), threads);
                assertThat(next).isEqualTo(ShardPool.shareStart(thread + 1, entries.size(), threads));
                assertThat(schedule.chunks(thread)).as("chunks of a share of %d", share)
                        .isGreaterThanOrEqualTo(Math.min(share, IntentSchedule.MIN_CHUNKS));
            }
            assertThat(next).isEqualTo(entries.size());
            for (float value : entries.values()) {
                trained.add((int) value);
            }
        }
        assertThat(trained).hasSize(all.size()).doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0} threads")
    @CsvSource({"1", "3"})
    void shareRowsAreTheDistinctRowsOfEachShareInTheOrderOfTheirFirstEntry(int threads) {
        MfData entries = numberedEntries();
        IntentSchedule schedule = new IntentSchedule(entries, threads, 64);
        for (int thread = 0; thread < threads; thread++) {
            Set<Long> expected = new LinkedHashSet<>();
            for (int i = ShardPool.shareStart(thread, entries.size(), threads);
                 i < ShardPool.shareStart(thread + 1, entries.size(), threads); i++) {
                expected.add((long) entries.rows()[i]);
            }
            long[] rows = schedule.shareRows(thread);
            assertThat(ids(rows, rows.length)).containsExactlyElementsOf(expected);
        }
        assertThatThrownBy(() -> schedule.shareRows(threads)).hasMessage("thread=" + threads + " (expected 0.."
                + (threads - 1) + ")");
    }

    @Test
    void theScheduleIsTheSameForTheSameSeed() {
        MfData.Split data = new SyntheticMatrix(new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, 1.1, 5)).sample()
                .split(0.1, 6);
        MfData.Split again = new SyntheticMatrix(new SyntheticMatrix.Spec(300, 200, 30_000, 4, 0.1, 1.1, 5)).sample()
                .split(0.1, 6);
        for (int node = 0; node < 2; node++) {
            MfData first = EpochPlan.of(Technique.ADAPTIVE, data, node, 2, row -> row % 2, 1).train();
            MfData second = EpochPlan.of(Technique.ADAPTIVE, again, node, 2, row -> row % 2, 1).train();
            assertThat(second.rows()).containsExactly(first.rows());
            assertThat(second.cols()).containsExactly(first.cols());
            assertThat(second.values()).containsExactly(first.values());
        }
    }

    @Test
    void theColumnsSignalledForAChunkAreExactlyTheDistinctColumnsOfItsEntries() {
        MfData entries = numberedEntries();
        IntentSchedule schedule = new IntentSchedule(entries, 3, 32);
        ChunkColumns columns = new ChunkColumns(entries.numCols(), schedule.chunkEntries());
        int chunks = 0;
        for (int thread = 0; thread < schedule.threads(); thread++) {
            for (int chunk = 0; chunk < schedule.chunks(thread); chunk++) {
                int from = schedule.chunkFrom(thread, chunk);
                int to = schedule.chunkTo(thread, chunk);
                Set<Long> cols = new LinkedHashSet<>();
                for (int i = from; i < to; i++) {
                    cols.add((long) entries.cols()[i]);
                }
                columns.collect(entries, from, to);
                // Each column once, in the order of its first entry.
                assertThat(ids(columns.cols(), columns.count())).containsExactlyElementsOf(cols);
                chunks++;
            }
        }
        assertThat(chunks).isGreaterThan(3);
    }

    @Test
    void collectingReusesItsArray() {
        MfData entries = numberedEntries();
        ChunkColumns columns = new ChunkColumns(entries.numCols(), 1000);
        columns.collect(entries, 0, 1000);
        long[] cols = columns.cols();
        columns.collect(entries, 1000, 1500);
        assertThat(columns.cols()).isSameAs(cols);
        columns.collect(entries, 7, 7);
        assertThat(columns.count()).isZero();
    }

    @Test
    void refusesRangesOutOfBounds() {
        MfData entries = numberedEntries();
        ChunkColumns columns = new ChunkColumns(entries.numCols(), 100);
        assertThatThrownBy(() -> columns.collect(entries, 0, 101)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 100 entries");
        assertThatThrownBy(() -> columns.collect(entries, 5, 4)).isInstanceOf(IllegalArgumentException.class);
        MfData wider = new MfData(entries.numRows(), entries.numCols() + 1, entries.rows(), entries.cols(),
                entries.values());
        assertThatThrownBy(() -> new ChunkColumns(entries.numCols(), 100).collect(wider, 0, 1))
                .hasMessageContaining("expected at most " + entries.numCols() + " columns");
        IntentSchedule schedule = new IntentSchedule(entries, 2, 1024);
        assertThat(schedule.chunks(0)).isEqualTo(IntentSchedule.MIN_CHUNKS);
        assertThatThrownBy(() -> schedule.chunkFrom(0, IntentSchedule.MIN_CHUNKS))
                .hasMessage("chunk=4 (expected 0..3, the chunks of thread 0)");
        assertThatThrownBy(() -> schedule.chunkTo(2, 0)).hasMessage("thread=2 (expected 0..1)");
    }

    private static List<Long> ids(long[] ids, int count) {
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(ids[i]);
        }
        return list;
    }
}
