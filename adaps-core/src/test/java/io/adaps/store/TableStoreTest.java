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
                store.release((row * 7 + round) % 1000);
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
    void holdingTwiceOrReleasingWhatIsNotHeldIsRefused() {
        TableStore store = new TableStore(spec);
        store.allocate(3, SlotKind.OWNED);
        assertThatThrownBy(() -> store.allocate(3, SlotKind.REPLICA)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=3 of table 't' is already held as OWNED (expected a row not held here)");
        assertThatThrownBy(() -> store.release(4)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=4 of table 't' is not held here (expected a held row)");
        assertThatThrownBy(() -> store.pull(4, new float[3], 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=4 of table 't' is not held here (expected a held row)");
        assertThat(store.kind(3)).isEqualTo(SlotKind.OWNED);
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
