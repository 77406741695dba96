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
}
