package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Initializers;
import io.adaps.api.NodeMetrics;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Worker;

/** {@link TableView#updateInPlace} on a single node, where every row is owned. */
class InPlaceUpdateTest {

    @Test
    void changesBothRowsWhereTheyAreStoredAndCountsAPullAndPushOfEach() {
        try (AdaPS node = AdaPS.builder()
                .table(TableSpec.of("users", 4, 3).withInitializer(Initializers.uniform(-1f, 1f, 5)))
                .table(TableSpec.of("items", 6, 3).withInitializer(Initializers.uniform(-1f, 1f, 6)))
                .build()) {
            Worker worker = node.worker();
            TableView users = worker.table("users");
            TableView items = worker.table("items");
            float[] user = new float[3];
            float[] item = new float[3];
            users.pull(2, user, 0);
            items.pull(5, item, 0);
            NodeMetrics before = node.metrics();
            // Swap the two values: the update sees both rows and writes both.
            boolean done = users.updateInPlace(2, items, 5, (u, uo, w, wo) -> {
                for (int i = 0; i < 3; i++) {
                    float swap = u[uo + i];
                    u[uo + i] = w[wo + i];
                    w[wo + i] = swap;
                }
            });
            assertThat(done).isTrue();
            NodeMetrics after = node.metrics();
            assertThat(after.localPulls() - before.localPulls()).isEqualTo(2);
            assertThat(after.localPushes() - before.localPushes()).isEqualTo(2);
            assertThat(after.staleness("users").reads() - before.staleness("users").reads()).isEqualTo(1);
            assertThat(after.staleness("items").reads() - before.staleness("items").reads()).isEqualTo(1);
            float[] value = new float[3];
            users.pull(2, value, 0);
            assertThat(value).containsExactly(item);
            items.pull(5, value, 0);
            assertThat(value).containsExactly(user);
        }
    }

    @Test
    void oneRowNamedTwiceIsOneValueLockedOnce() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 3, 2)).build()) {
            TableView table = node.worker().table("t");
            assertThat(table.updateInPlace(1, table, 1, (a, ao, b, bo) -> {
                a[ao] += 1;
                b[bo] += 1;
            })).isTrue();
            float[] value = new float[2];
            table.pull(1, value, 0);
            assertThat(value).containsExactly(2f, 0f);
        }
    }

    @Test
    void pairsInOneCallChangeWhatTheSameCallsOneByOneChange() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int count = 1 + random.nextInt(64);
            long[] rows = new long[count + 3];
            long[] others = new long[count + 5];
            boolean sameTable = random.nextBoolean();
            for (int i = 0; i < rows.length; i++) {
                rows[i] = random.nextInt(6);
            }
            for (int i = 0; i < others.length; i++) {
                others[i] = random.nextInt(sameTable ? 6 : 4);
            }
            int rowsOffset = random.nextInt(4);
            int othersOffset = random.nextInt(6);
            float[] byPairs = train(seed, sameTable, (users, items) -> {
                TableView second = sameTable ? users : items;
                for (int i = 0; i < count; i++) {
                    int pair = i;
                    assertThat(users.updateInPlace(rows[rowsOffset + i], second, others[othersOffset + i],
                            (u, uo, w, wo) -> step(pair, u, uo, w, wo))).isTrue();
                }
            });
            float[] inOneCall = train(seed, sameTable, (users, items) -> {
                int[] notDone = new int[count];
                assertThat(users.updateInPlace(rows, rowsOffset, sameTable ? users : items, others, othersOffset,
                        count, InPlaceUpdateTest::step, notDone)).isZero();
            });
            assertThat(inOneCall).as("seed %d", seed).containsExactly(byPairs);
        }
    }

    @Test
    void pairsBeforeAFailingUpdateAreDoneAndCounted() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 4, 1)).build()) {
            TableView t = node.worker().table("t");
            NodeMetrics before = node.metrics();
            assertThatThrownBy(() -> t.updateInPlace(new long[] {0, 1, 2}, 0, t, new long[] {3, 3, 3}, 0, 3,
                    (pair, a, ao, b, bo) -> {
                        if (pair == 1) {
                            throw new IllegalStateException("pair 1");
                        }
                        a[ao] += 1;
                    }, new int[3])).isInstanceOf(IllegalStateException.class).hasMessage("pair 1");
            assertThat(node.metrics().localPushes() - before.localPushes()).isEqualTo(2);
            float[] values = new float[4];
            t.pull(new long[] {0, 1, 2, 3}, values);
            assertThat(values).containsExactly(1f, 0f, 0f, 0f);
            // The failed pair's locks were released: it can be done now.
            assertThat(t.updateInPlace(1, t, 3, (a, ao, b, bo) -> a[ao] += 1)).isTrue();
        }
    }

    /** A step that depends on the pair and on both values, so that order and aliasing show. */
    private static void step(int pair, float[] u, int uo, float[] w, int wo) {
        for (int k = 0; k < 3; k++) {
            float uk = u[uo + k];
            u[uo + k] = uk + 0.5f * w[wo + k] + pair;
            w[wo + k] = w[wo + k] - 0.25f * uk;
        }
    }

    private interface Training {
        void run(TableView users, TableView items);
    }

    /** Runs {@code training} on a fresh node and returns every value of both tables after it. */
    private static float[] train(long seed, boolean sameTable, Training training) {
        try (AdaPS node = AdaPS.builder()
                .table(TableSpec.of("users", 6, 3).withInitializer(Initializers.uniform(-1f, 1f, seed)))
                .table(TableSpec.of("items", 4, 3).withInitializer(Initializers.uniform(-1f, 1f, seed + 1)))
                .build()) {
            Worker worker = node.worker();
            training.run(worker.table("users"), worker.table("items"));
            float[] values = new float[30];
            worker.table("users").pull(new long[] {0, 1, 2, 3, 4, 5}, 0, 6, values, 0);
            float[] items = new float[12];
            worker.table("items").pull(new long[] {0, 1, 2, 3}, items);
            System.arraycopy(items, 0, values, 18, 12);
            return values;
        }
    }

    @Test
    void countsEachUpdateAsAReadOfEachRowInEveryPairOfTables() {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("a", 3, 2)).table(TableSpec.of("b", 3, 2)).build()) {
            Worker worker = node.worker();
            TableView a = worker.table("a");
            TableView b = worker.table("b");
            NodeMetrics before = node.metrics();
            int[][] pairs = {{0, 1}, {1, 0}, {0, 0}, {0, 1}, {1, 1}};
            for (int[] pair : pairs) {
                TableView first = pair[0] == 0 ? a : b;
                TableView second = pair[1] == 0 ? a : b;
                assertThat(first.updateInPlace(0, second, 2, (x, xo, y, yo) -> x[xo] += 1)).isTrue();
            }
            NodeMetrics after = node.metrics();
            // a: once in each of (a, b) x2, (b, a), and twice in (a, a); b likewise with (b, b).
            assertThat(after.staleness("a").reads() - before.staleness("a").reads()).isEqualTo(5);
            assertThat(after.staleness("b").reads() - before.staleness("b").reads()).isEqualTo(5);
            assertThat(after.staleness("a").maxStaleness()).isZero();
            assertThat(after.localPulls() - before.localPulls()).isEqualTo(2L * pairs.length);
            assertThat(after.localPushes() - before.localPushes()).isEqualTo(2L * pairs.length);
            assertThat(after.perWorker().get(0).localAccesses() - before.perWorker().get(0).localAccesses())
                    .isEqualTo(4L * pairs.length);
        }
    }
}
