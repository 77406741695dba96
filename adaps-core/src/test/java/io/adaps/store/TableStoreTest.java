package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;

class TableStoreTest {
    private final TableSpec spec = TableSpec.of("t", 1000, 3).withInitializer(Initializers.uniform(0f, 1f, 7));

    @Test
    void allocatedRowsStartAtTheirInitialValue() {
        TableStore store = new TableStore(spec);
        store.allocate(42, SlotKind.OWNED);
        float[] value = new float[3];
        store.pull(42, value, 0);
        float[] expected = new float[3];
        spec.initializer().initialize(42, expected, 0, 3);
        assertThat(value).containsExactly(expected);
        assertThat(store.holds(42)).isTrue();
        assertThat(store.holds(41)).isFalse();
        assertThat(store.kind(42)).isEqualTo(SlotKind.OWNED);
        assertThat(store.kind(41)).isNull();
    }

    @Test
    void replicasAndOwnedRowsAreTold() {
        TableStore store = new TableStore(spec);
        store.allocate(1, SlotKind.OWNED);
        store.allocate(2, SlotKind.REPLICA);
        assertThat(store.kind(1)).isEqualTo(SlotKind.OWNED);
        assertThat(store.kind(2)).isEqualTo(SlotKind.REPLICA);
        assertThat(store.heldRows()).isEqualTo(2);
    }

    @Test
    void constantChurnReusesSlots() {
        TableStore store = new TableStore(spec.withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f)));
        float[] update = {1f, 2f, 3f};
        for (int round = 0; round < 50; round++) {
            for (long row = 0; row < 100; row++) {
                store.allocate((row * 7 + round) % 1000, SlotKind.OWNED);
                store.push((row * 7 + round) % 1000, update, 0);
            }
            for (long row = 0; row < 100; row++) {
                assertThat(store.takeOut((row * 7 + round) % 1000, null, 0)).isTrue();
            }
        }
        assertThat(store.heldRows()).isZero();
        assertThat(store.slotHighWaterMark()).isEqualTo(100);
        // A reused slot starts from the initial value and a fresh (zero) accumulator.
        store.allocate(5, SlotKind.OWNED);
        store.push(5, update, 0);
        float[] value = new float[3];
        store.pull(5, value, 0);
        float[] expected = new float[3];
        spec.initializer().initialize(5, expected, 0, 3);
        for (int i = 0; i < 3; i++) {
            // First Adagrad step: w - lr * g / (|g| + eps)
            expected[i] -= 0.1f * update[i] / ((float) Math.sqrt(update[i] * update[i]) + 1e-6f);
        }
        assertThat(value).containsExactly(expected);
    }

    @Test
    void holdingTwiceIsRefusedAndRowsNotHeldAreReported() {
        TableStore store = new TableStore(spec);
        store.allocate(3, SlotKind.OWNED);
        assertThatThrownBy(() -> store.allocate(3, SlotKind.REPLICA)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=3 of table 't' is already held as OWNED (expected a row not held here)");
        float[] buffer = {7f, 8f, 9f};
        assertThat(store.takeOut(4, null, 0)).isFalse();
        assertThat(store.push(4, buffer, 0)).isFalse();
        assertThat(store.set(4, buffer, 0)).isFalse();
        assertThat(store.pull(4, new float[3], 0)).isFalse();
        assertThat(store.kind(3)).isEqualTo(SlotKind.OWNED);
        assertThat(store.heldRows()).isEqualTo(1);
    }

    @Test
    void takeOutMovesValueAndRuleStateToAnInstall() {
        TableSpec adagrad = spec.withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f));
        TableStore from = new TableStore(adagrad);
        TableStore to = new TableStore(adagrad);
        from.allocate(9, SlotKind.OWNED);
        float[] update = {1f, -2f, 0.5f};
        from.push(9, update, 0);
        float[] moved = new float[from.stride()];
        assertThat(from.stride()).isEqualTo(6);
        assertThat(from.takeOut(9, moved, 0)).isTrue();
        assertThat(from.holds(9)).isFalse();
        to.install(9, SlotKind.OWNED, moved, 0);
        // The same second step on both sides of a move: the accumulator moved with the value.
        TableStore reference = new TableStore(adagrad);
        reference.allocate(9, SlotKind.OWNED);
        reference.push(9, update, 0);
        reference.push(9, update, 0);
        to.push(9, update, 0);
        float[] actual = new float[3];
        float[] expected = new float[3];
        to.pull(9, actual, 0);
        reference.pull(9, expected, 0);
        assertThat(actual).containsExactly(expected);
    }

    /**
     * Pushes race with the row leaving and coming back (as relocation does); a push that finds
     * the row gone is retried, as the node retries it elsewhere. No push may be lost or applied
     * twice, and no read may see a reused slot's other row.
     */
    @Test
    void accessesRacingWithTakeOutAndInstallNeverLoseOrDuplicateUpdates() throws Exception {
        TableStore store = new TableStore(TableSpec.of("t", 4, 3));
        for (long row = 0; row < 4; row++) {
            store.allocate(row, SlotKind.OWNED);
        }
        int pushesPerThread = 20_000;
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread mover = new Thread(() -> {
            float[] moved = new float[3];
            long round = 0;
            while (!done.get()) {
                long row = round++ % 4;
                if (store.takeOut(row, moved, 0)) {
                    // Another row takes the freed slot for a moment, then the row comes back.
                    long other = (row + 1) % 4;
                    float[] otherValue = new float[3];
                    if (store.takeOut(other, otherValue, 0)) {
                        store.install(other, SlotKind.OWNED, otherValue, 0);
                    }
                    store.install(row, SlotKind.OWNED, moved, 0);
                }
            }
        });
        mover.start();
        io.adaps.testing.Concurrently.run(2, thread -> {
            float[] one = {1f, 1f, 1f};
            float[] seen = new float[3];
            for (int i = 0; i < pushesPerThread; i++) {
                long row = i % 4;
                while (!store.push(row, one, 0)) {
                    Thread.onSpinWait();
                }
                if (store.pull(row, seen, 0)) {
                    assertThat(seen[0]).isEqualTo(seen[1]).isEqualTo(seen[2]);
                }
            }
        });
        done.set(true);
        mover.join();
        float[] value = new float[3];
        for (long row = 0; row < 4; row++) {
            while (!store.pull(row, value, 0)) {
                Thread.onSpinWait();
            }
            assertThat(value).as("row %d", row).containsExactly(2f * pushesPerThread / 4, 2f * pushesPerThread / 4,
                    2f * pushesPerThread / 4);
        }
        assertThat(store.slotHighWaterMark()).isLessThanOrEqualTo(5);
    }

    @Test
    void tablesLargerThanOneChunkSpanSeveralChunks() {
        // 2^22 floats per chunk: 600k rows of 8 floats need two chunks.
        TableSpec large = TableSpec.of("large", 600_000, 8).withInitializer(Initializers.uniform(-1f, 1f, 3));
        TableStore store = new TableStore(large);
        store.allocateAll(SlotKind.OWNED);
        float[] value = new float[8];
        float[] expected = new float[8];
        for (long row : new long[] {0, 524_287, 524_288, 599_999}) {
            store.pull(row, value, 0);
            large.initializer().initialize(row, expected, 0, 8);
            assertThat(value).as("row %d", row).containsExactly(expected);
        }
        assertThat(store.heldRows()).isEqualTo(600_000);
    }
}
