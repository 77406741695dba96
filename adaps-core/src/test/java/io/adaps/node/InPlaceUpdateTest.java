package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

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
