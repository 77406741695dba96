package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/**
 * Every refused call names the offending value and leaves every parameter, clock and counter as it
 * was.
 */
class ValidationTest {
    private AdaPS node;
    private Worker worker;
    private TableView items;

    @BeforeEach
    void start() {
        node = AdaPS.builder()
                .table(TableSpec.of("users", 10, 4).withInitializer(Initializers.uniform(-1f, 1f, 1)))
                .table(TableSpec.of("items", 5, 2).withInitializer(Initializers.uniform(-1f, 1f, 2)))
                .build();
        worker = node.worker();
        items = worker.table("items");
    }

    @AfterEach
    void stop() {
        node.close();
    }

    /** All values of the node, key by key, read through {@code worker}. */
    private float[] snapshot() {
        float[] all = new float[10 * 4 + 5 * 2];
        long[] keys = new long[15];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = k;
        }
        worker.pull(keys, all);
        return all;
    }

    private void assertRefused(ThrowingCallable call, Class<? extends Throwable> type, String message) {
        float[] before = snapshot();
        long clock = worker.clock();
        var metrics = node.metrics();
        assertThatThrownBy(call).isInstanceOf(type).hasMessage(message);
        assertThat(snapshot()).containsExactly(before);
        assertThat(worker.clock()).isEqualTo(clock);
        assertThat(node.metrics().localPushes()).isEqualTo(metrics.localPushes());
        assertThat(node.metrics().localSets()).isEqualTo(metrics.localSets());
        assertThat(node.metrics().intentsSignaled()).isEqualTo(metrics.intentsSignaled());
    }

    @Test
    void keysOutsideTheKeySpace() {
        String tables = "(expected 0..14, the keys of tables users=[0, 10), items=[10, 15))";
        assertRefused(() -> worker.pull(15, new float[4], 0), IllegalArgumentException.class, "key=15 " + tables);
        assertRefused(() -> worker.push(-1, new float[4], 0), IllegalArgumentException.class, "key=-1 " + tables);
        // The last key is bad: the first two must not have been updated.
        assertRefused(() -> worker.push(new long[] {0, 1, 99}, new float[12]), IllegalArgumentException.class,
                "key=99 " + tables);
        assertRefused(() -> worker.set(new long[] {0, 99}, 0, 2, new float[8], 0), IllegalArgumentException.class,
                "key=99 " + tables);
        assertRefused(() -> worker.intent(new long[] {3, 15}, 0, 1), IllegalArgumentException.class, "key=15 " + tables);
        assertRefused(() -> worker.localize(new long[] {2, 15}), IllegalArgumentException.class, "key=15 " + tables);
    }

    @Test
    void rowsOutsideTheTable() {
        String expected = " (expected 0..4 in table 'items')";
        assertRefused(() -> items.pull(5, new float[2], 0), IllegalArgumentException.class, "row=5" + expected);
        assertRefused(() -> items.push(new long[] {1, -3}, new float[4]), IllegalArgumentException.class, "row=-3" + expected);
        assertRefused(() -> items.setAsync(new long[] {0, 7}, 0, 2, new float[4], 0), IllegalArgumentException.class,
                "row=7" + expected);
        assertRefused(() -> items.intent(9, 0, 1), IllegalArgumentException.class, "row=9" + expected);
        assertRefused(() -> items.localizeAsync(new long[] {0, 5}, 0, 2), IllegalArgumentException.class,
                "row=5" + expected);
    }

    @Test
    void inPlaceUpdates() {
        TableView users = worker.table("users");
        InPlaceUpdate touch = (a, ao, b, bo) -> {
            a[ao] += 1;
            b[bo] += 1;
        };
        assertRefused(() -> users.updateInPlace(10, items, 0, touch), IllegalArgumentException.class,
                "row=10 (expected 0..9 in table 'users')");
        assertRefused(() -> users.updateInPlace(0, items, 5, touch), IllegalArgumentException.class,
                "row=5 (expected 0..4 in table 'items')");
        assertRefused(() -> users.updateInPlace(0, null, 0, touch), NullPointerException.class,
                "other=null (expected a value)");
        assertRefused(() -> users.updateInPlace(0, items, 0, null), NullPointerException.class,
                "update=null (expected a value)");
        TableView othersItems = node.worker().table("items");
        assertRefused(() -> users.updateInPlace(0, othersItems, 0, touch), IllegalArgumentException.class,
                "other=TableView[items, worker=1] (expected a table view of worker 0 of node 0)");
        InPlacePairUpdate pairTouch = (pair, a, ao, b, bo) -> a[ao] += 1;
        long[] rows = {0, 1, 2};
        long[] itemRows = {4, 3, 2};
        int[] notDone = new int[3];
        // A row out of range anywhere refuses the whole call: the pairs before it are not done either.
        assertRefused(() -> users.updateInPlace(rows, 0, items, new long[] {0, 5, 1}, 0, 3, pairTouch, notDone),
                IllegalArgumentException.class, "row=5 (expected 0..4 in table 'items')");
        assertRefused(() -> users.updateInPlace(new long[] {1, 10}, 0, items, itemRows, 0, 2, pairTouch, notDone),
                IllegalArgumentException.class, "row=10 (expected 0..9 in table 'users')");
        assertRefused(() -> users.updateInPlace(rows, 1, items, itemRows, 0, 3, pairTouch, notDone),
                IllegalArgumentException.class, "rowsOffset=1, count=3 (expected a range within rows.length=3)");
        assertRefused(() -> users.updateInPlace(rows, 0, items, itemRows, -1, 2, pairTouch, notDone),
                IllegalArgumentException.class,
                "otherRowsOffset=-1, count=2 (expected a range within otherRows.length=3)");
        assertRefused(() -> users.updateInPlace(rows, 0, items, itemRows, 0, 3, pairTouch, new int[2]),
                IllegalArgumentException.class, "notDone.length=2 (expected >= count=3)");
        assertRefused(() -> users.updateInPlace(null, 0, items, itemRows, 0, 3, pairTouch, notDone),
                NullPointerException.class, "rows=null (expected a value)");
        assertRefused(() -> users.updateInPlace(rows, 0, items, itemRows, 0, 3, null, notDone),
                NullPointerException.class, "update=null (expected a value)");
        assertRefused(() -> users.updateInPlace(rows, 0, othersItems, itemRows, 0, 3, pairTouch, notDone),
                IllegalArgumentException.class,
                "other=TableView[items, worker=1] (expected a table view of worker 0 of node 0)");
        try (AdaPS adagrad = AdaPS.builder().table(TableSpec.of("plain", 2, 2))
                .table(TableSpec.of("steps", 2, 2).withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f))).build()) {
            Worker own = adagrad.worker();
            assertThatThrownBy(() -> own.table("plain").updateInPlace(0, own.table("steps"), 0, touch))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("updateRule=adagrad(learningRate=0.1, epsilon=1.0E-6) of table 'steps' (expected "
                            + "add: a change in place is the update, and no other rule runs)");
            float[] value = new float[2];
            own.table("plain").pull(0, value, 0);
            assertThat(value).containsExactly(0f, 0f);
        }
    }

    @Test
    void buffersOfTheWrongLength() {
        // users rows take 4 floats, items rows 2: keys 0 and 10 need 6.
        assertRefused(() -> worker.pull(new long[] {0, 10}, new float[5]), IllegalArgumentException.class,
                "dst.length=5 (expected 6, the floats of the values of ids)");
        assertRefused(() -> worker.push(new long[] {0, 10}, new float[7]), IllegalArgumentException.class,
                "updates.length=7 (expected 6, the floats of the values of ids)");
        assertRefused(() -> worker.set(new long[] {0, 10}, 0, 2, new float[8], 3), IllegalArgumentException.class,
                "valuesOffset=3, values.length=8 (expected room for 6 floats from the offset)");
        assertRefused(() -> items.pushAsync(new long[] {1}, 0, 1, new float[2], -1), IllegalArgumentException.class,
                "updatesOffset=-1, updates.length=2 (expected room for 2 floats from the offset)");
        assertRefused(() -> worker.push(3, new float[4], 1), IllegalArgumentException.class,
                "updatesOffset=1, updates.length=4 (expected room for 4 floats from the offset)");
    }

    @Test
    void idRangesOutsideTheArray() {
        assertRefused(() -> worker.pull(new long[] {0, 1}, 1, 2, new float[8], 0), IllegalArgumentException.class,
                "idOffset=1, idCount=2 (expected a range within ids.length=2)");
        assertRefused(() -> worker.pushAsync(new long[] {0}, -1, 1, new float[4], 0), IllegalArgumentException.class,
                "idOffset=-1, idCount=1 (expected a range within ids.length=1)");
        assertRefused(() -> items.intent(new long[] {0}, 0, -1, 0, 1), IllegalArgumentException.class,
                "idOffset=0, idCount=-1 (expected a range within ids.length=1)");
        assertRefused(() -> worker.localize(new long[] {0}, 1, 1), IllegalArgumentException.class,
                "idOffset=1, idCount=1 (expected a range within ids.length=1)");
    }

    @Test
    void nullArrays() {
        assertRefused(() -> worker.pull(null, new float[4]), NullPointerException.class, "ids=null (expected a value)");
        assertRefused(() -> worker.push(new long[] {0}, null), NullPointerException.class, "updates=null (expected a value)");
        assertRefused(() -> items.set(0, null, 0), NullPointerException.class, "values=null (expected a value)");
        assertRefused(() -> worker.localize(null), NullPointerException.class, "ids=null (expected a value)");
        assertRefused(() -> worker.table((io.adaps.api.Table) null), NullPointerException.class,
                "table=null (expected a value)");
    }

    @Test
    void clockIntervalsOfIntents() {
        worker.advanceClock();
        worker.advanceClock();
        assertRefused(() -> worker.intent(0, 1, 5), IllegalArgumentException.class,
                "fromClock=1 (expected >= 2, the clock of worker 0)");
        assertRefused(() -> items.intent(new long[] {0}, 4, 4), IllegalArgumentException.class,
                "toClock=4 (expected > fromClock=4)");
        worker.intent(new long[] {0, 11}, 2, 3);
        assertThat(node.metrics().intentsSignaled()).isEqualTo(2);
    }

    @Test
    void intentsForCollectionsOfIds() {
        assertRefused(() -> worker.intent((java.util.Collection<Long>) null, 0, 1), NullPointerException.class,
                "ids=null (expected a value)");
        assertRefused(() -> worker.intent(java.util.Arrays.asList(1L, null), 0, 1), NullPointerException.class,
                "ids[1]=null (expected an id)");
        assertRefused(() -> items.intent(java.util.List.of(0L, 9L), 0, 1), IllegalArgumentException.class,
                "row=9 (expected 0..4 in table 'items')");
        items.intent(java.util.List.of(0L, 4L), 0, 1);
        assertThat(node.metrics().intentsSignaled()).isEqualTo(2);
    }

    @Test
    void ticketsNotIssuedByTheWorker() {
        long ticket = worker.pullAsync(new long[] {0}, 0, 1, new float[4], 0);
        assertThat(ticket).isEqualTo(1);
        worker.waitFor(ticket);
        assertRefused(() -> worker.waitFor(2), IllegalArgumentException.class,
                "ticket=2 (expected 1..1, a ticket issued by worker 0)");
        assertRefused(() -> worker.waitFor(0), IllegalArgumentException.class,
                "ticket=0 (expected 1..1, a ticket issued by worker 0)");
    }

    @Test
    void unknownTables() {
        assertRefused(() -> node.table("movies"), IllegalArgumentException.class,
                "table='movies' (expected one of [users, items])");
        assertRefused(() -> worker.table("movies"), IllegalArgumentException.class,
                "table='movies' (expected one of [users, items])");
        try (AdaPS other = AdaPS.builder().table(TableSpec.of("users", 10, 4)).build()) {
            assertThatThrownBy(() -> worker.table(other.table("users")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("table=Table[users, id=0, keys=[0, 10), valueLength=4] (expected one of this node's tables");
        }
    }

    @Test
    void aWorkerSharedBetweenThreads() throws Exception {
        worker.push(0, new float[] {1, 1, 1, 1}, 0);
        float[] before = snapshot();
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> worker.push(0, new float[4], 0));
        assertThatThrownBy(() -> other.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageMatching("thread='.+' \\(expected thread '.+', which owns worker 0; "
                        + "create one worker per thread with AdaPS.worker\\(\\)\\)");
        assertThat(snapshot()).containsExactly(before);
        // The owning thread keeps working.
        worker.push(0, new float[] {1, 1, 1, 1}, 0);
    }

    @Test
    void useAfterClose() {
        TableView users = worker.table("users");
        node.close();
        node.close();
        String closed = "node 0 is closed (expected an open node)";
        assertThatThrownBy(() -> worker.pull(0, new float[4], 0)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThatThrownBy(() -> users.push(new long[] {0}, new float[4])).isInstanceOf(IllegalStateException.class)
                .hasMessage(closed);
        assertThatThrownBy(() -> worker.advanceClock()).isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThatThrownBy(() -> worker.waitAll()).isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThatThrownBy(() -> users.updateInPlace(0, worker.table("items"), 0, (a, ao, b, bo) -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThatThrownBy(node::worker).isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThatThrownBy(node::barrier).isInstanceOf(IllegalStateException.class).hasMessage(closed);
        assertThat(node.isClosed()).isTrue();
    }
}
