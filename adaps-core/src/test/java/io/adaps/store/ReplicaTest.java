package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import org.junit.jupiter.api.Test;

import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;

/** Replicas in a {@link TableStore}: one method and edge case at a time, with the add rule unless said. */
class ReplicaTest {
    private final TableSpec spec = TableSpec.of("t", 100, 3).withInitializer(Initializers.uniform(0f, 1f, 7));
    private final TableSpec adagrad = TableSpec.of("a", 100, 3).withUpdateRule(UpdateRules.adagrad(0.1f, 1e-3f));

    private static float[] pulled(TableStore store, long row) {
        float[] value = new float[store.spec().valueLength()];
        assertThat(store.pull(row, value, 0)).as("pull row %d", row).isTrue();
        return value;
    }

    private float[] initial(long row) {
        float[] value = new float[3];
        spec.initializer().initialize(row, value, 0, 3);
        return value;
    }

    @Test
    void installedReplicaHoldsTheGivenValueAndIsToldApart() {
        TableStore store = new TableStore(spec);
        store.installReplica(4, new float[] {9f, 1f, 2f, 3f}, 1);
        store.allocate(5, SlotKind.OWNED);
        assertThat(pulled(store, 4)).containsExactly(1f, 2f, 3f);
        assertThat(store.kind(4)).isEqualTo(SlotKind.REPLICA);
        assertThat(store.holds(4)).isTrue();
        assertThat(store.owns(4)).isFalse();
        assertThat(store.owns(5)).isTrue();
        assertThat(store.kind(6)).isNull();
        assertThat(store.owns(6)).isFalse();
        assertThat(store.heldRows()).isEqualTo(2);
        assertThat(store.replicaRows()).isEqualTo(1);
        assertThat(store.slotHighWaterMark()).isEqualTo(1);
        assertThat(store.replicaSlotHighWaterMark()).isEqualTo(1);
    }

    @Test
    void allocatingAReplicaStartsAtTheInitialValueWithNothingPending() {
        TableStore store = new TableStore(spec);
        store.allocate(8, SlotKind.REPLICA);
        store.installReplica(9, null, 0);
        assertThat(pulled(store, 8)).containsExactly(initial(8));
        assertThat(pulled(store, 9)).containsExactly(initial(9));
        assertThat(store.snapshotDelta(8, new float[3], 0)).isEqualTo(TableStore.ZERO_DELTA);
    }

    @Test
    void holdingTwiceInAnyFormIsRefused() {
        TableStore store = new TableStore(spec);
        store.allocate(1, SlotKind.OWNED);
        store.installReplica(2, null, 0);
        assertThatThrownBy(() -> store.installReplica(1, null, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=1 of table 't' is already held as OWNED (expected a row not held here)");
        assertThatThrownBy(() -> store.installReplica(2, null, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=2 of table 't' is already held as REPLICA (expected a row not held here)");
        assertThatThrownBy(() -> store.install(2, SlotKind.OWNED, new float[3], 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("row=2 of table 't' is already held as REPLICA (expected a row not held here)");
        assertThatThrownBy(() -> store.allocate(2, SlotKind.OWNED)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.promote(1, new float[3], 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("row=1 of table 't' is already held as OWNED (expected a replica or a row not held here)");
        assertThatThrownBy(() -> store.install(3, SlotKind.REPLICA, new float[3], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("installReplica");
        assertThat(store.holds(3)).isFalse();
        assertThat(store.heldRows()).isEqualTo(2);
    }

    @Test
    void pushToAReplicaChangesItsValueAndAccumulatesTheRawUpdate() {
        TableStore store = new TableStore(spec);
        store.installReplica(3, new float[] {10f, 20f, 30f}, 0);
        assertThat(store.push(3, new float[] {1f, 2f, 3f}, 0)).isTrue();
        assertThat(store.push(3, new float[] {0f, 0f, 4f}, 0)).isTrue();
        assertThat(pulled(store, 3)).containsExactly(11f, 22f, 37f);
        float[] delta = new float[5];
        assertThat(store.snapshotDelta(3, delta, 1)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(0f, 1f, 2f, 7f, 0f);
        // The snapshot zeroed the delta and left the value; a zero delta is not copied out.
        assertThat(store.snapshotDelta(3, delta, 1)).isEqualTo(TableStore.ZERO_DELTA);
        assertThat(delta).containsExactly(0f, 1f, 2f, 7f, 0f);
        assertThat(pulled(store, 3)).containsExactly(11f, 22f, 37f);
    }

    @Test
    void anUpdateInPlaceOfAReplicaChangesItsValueAndAddsTheChangeToItsDelta() {
        TableStore store = new TableStore(spec);
        store.installReplica(3, new float[] {10f, 20f, 30f}, 0);
        store.tagReplica(3, 5);
        store.allocate(6, SlotKind.OWNED);
        float[] owned = pulled(store, 6);
        long tag = TableStore.updateHeld(store, 3, 5, store, 6, Long.MIN_VALUE, (a, ao, b, bo) -> {
            a[ao] += 1f;
            a[ao + 2] -= 4f;
            b[bo + 1] += 2f;
        });
        assertThat(tag).as("what the values reflect: the replica's tag").isEqualTo(5);
        assertThat(pulled(store, 3)).containsExactly(11f, 20f, 26f);
        assertThat(pulled(store, 6)).containsExactly(owned[0], owned[1] + 2f, owned[2]);
        float[] delta = new float[3];
        assertThat(store.snapshotDelta(3, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(1f, 0f, -4f);
        // One replica named twice: one lock, the change counted once.
        tag = TableStore.updateHeld(store, 3, 0, store, 3, 0, (a, ao, b, bo) -> {
            assertThat(b).isSameAs(a);
            assertThat(bo).isEqualTo(ao);
            a[ao + 1] += 3f;
        });
        assertThat(tag).isEqualTo(5);
        assertThat(store.snapshotDelta(3, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(0f, 3f, 0f);
        assertThat(TableStore.updateHeld(store, 6, 0, store, 6, 0, (a, ao, b, bo) -> { }))
                .as("two owned rows").isEqualTo(TableStore.OWNED_TAG);
    }

    @Test
    void updatesInPlaceRefusePendingStaleDroppedAndAbsentRowsAndChangeNothing() {
        TableStore store = new TableStore(spec);
        store.allocate(6, SlotKind.OWNED);
        float[] owned = pulled(store, 6);
        int[] runs = new int[1];
        InPlaceUpdate addOne = (a, ao, b, bo) -> {
            runs[0]++;
            a[ao] += 1f;
            b[bo] += 1f;
        };
        assertThat(TableStore.updateHeld(store, 4, 0, store, 6, 0, addOne)).as("row 4 is not held")
                .isEqualTo(TableStore.NOT_HELD_TAG);
        assertThat(store.tryInstallPendingReplica(4)).isTrue();
        assertThat(TableStore.updateHeld(store, 6, 0, store, 4, 0, addOne)).as("pending")
                .isEqualTo(TableStore.NOT_HELD_TAG);
        assertThat(store.refreshReplica(4, new float[] {1f, 1f, 1f}, 0)).isTrue();
        store.tagReplica(4, 7);
        assertThat(TableStore.updateHeld(store, 6, 0, store, 4, 8, addOne)).as("reflects 7, 8 needed")
                .isEqualTo(TableStore.NOT_HELD_TAG);
        assertThat(runs[0]).isZero();
        assertThat(pulled(store, 6)).containsExactly(owned);
        assertThat(pulled(store, 4)).containsExactly(1f, 1f, 1f);
        assertThat(store.snapshotDelta(4, new float[3], 0)).isEqualTo(TableStore.ZERO_DELTA);
        assertThat(TableStore.updateHeld(store, 6, 0, store, 4, 7, addOne)).isEqualTo(7);
        assertThat(store.dropReplica(4, new float[3], 0)).isTrue();
        assertThat(TableStore.updateHeld(store, 6, 0, store, 4, 0, addOne)).as("dropped")
                .isEqualTo(TableStore.NOT_HELD_TAG);
        assertThat(runs[0]).isEqualTo(1);
    }

    @Test
    void updatesThatCancelOutLeaveAZeroDelta() {
        for (TableSpec table : new TableSpec[] {spec, adagrad}) {
            TableStore store = new TableStore(table);
            store.installReplica(3, new float[] {0.5f, 2f, 0f}, 0);
            store.push(3, new float[] {1f, -2f, 0f}, 0);
            store.push(3, new float[] {-1f, 2f, 0f}, 0);
            assertThat(store.snapshotDelta(3, new float[3], 0)).as(table.name()).isEqualTo(TableStore.ZERO_DELTA);
        }
    }

    @Test
    void underTheAdditiveRuleTheDeltaIsWhatTheValueDidAsRounded() {
        TableStore store = new TableStore(spec);
        store.installReplica(3, new float[] {0.3f, 1e8f, 0f}, 0);
        // 0.3 + 1 - 1 is not 0.3 in float, and 1e8 + 1 is 1e8: the owner gets what the replica's value did.
        store.push(3, new float[] {1f, 1f, 0f}, 0);
        store.push(3, new float[] {-1f, 0f, 0f}, 0);
        float[] delta = new float[3];
        assertThat(store.snapshotDelta(3, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly((0.3f + 1f - 1f) - 0.3f, 0f, 0f);
        assertThat(store.refreshReplica(3, new float[] {7f, 8f, 9f}, 0)).isTrue();
        assertThat(pulled(store, 3)).as("nothing pushed since the snapshot: the owner's value")
                .containsExactly(7f, 8f, 9f);
    }

    @Test
    void ownedOnlyAccessesAndSetRefuseAReplicaAndChangeNothing() {
        TableStore store = new TableStore(spec);
        store.installReplica(3, new float[] {1f, 2f, 3f}, 0);
        float[] buffer = {7f, 8f, 9f};
        assertThat(store.set(3, buffer, 0)).isFalse();
        assertThat(store.setOwned(3, buffer, 0)).isFalse();
        assertThat(store.pushOwned(3, buffer, 0)).isFalse();
        assertThat(store.pullOwned(3, new float[3], 0)).isFalse();
        assertThat(store.takeOut(3, null, 0)).isFalse();
        assertThat(pulled(store, 3)).containsExactly(1f, 2f, 3f);
        assertThat(store.snapshotDelta(3, new float[3], 0)).isEqualTo(TableStore.ZERO_DELTA);
        assertThat(store.kind(3)).isEqualTo(SlotKind.REPLICA);
    }

    @Test
    void ownedOnlyAccessesServeOwnedRows() {
        TableStore store = new TableStore(spec);
        store.install(3, SlotKind.OWNED, new float[] {1f, 2f, 3f}, 0);
        assertThat(store.pushOwned(3, new float[] {1f, 1f, 1f}, 0)).isTrue();
        float[] value = new float[4];
        assertThat(store.pullOwned(3, value, 1)).isTrue();
        assertThat(value).containsExactly(0f, 2f, 3f, 4f);
        assertThat(store.setOwned(3, new float[] {5f, 6f, 7f}, 0)).isTrue();
        assertThat(pulled(store, 3)).containsExactly(5f, 6f, 7f);
        // Nothing of the replica API applies to an owned row.
        float[] untouched = {-1f, -1f, -1f};
        assertThat(store.snapshotDelta(3, untouched, 0)).isEqualTo(TableStore.NOT_HELD);
        assertThat(store.refreshReplica(3, new float[3], 0)).isFalse();
        assertThat(store.dropReplica(3, untouched, 0)).isFalse();
        assertThat(untouched).containsExactly(-1f, -1f, -1f);
        assertThat(pulled(store, 3)).containsExactly(5f, 6f, 7f);
    }

    @Test
    void rowsNotHeldAreReportedByEveryAccess() {
        TableStore store = new TableStore(spec);
        float[] buffer = {1f, 2f, 3f};
        assertThat(store.pull(4, new float[3], 0)).isFalse();
        assertThat(store.push(4, buffer, 0)).isFalse();
        assertThat(store.set(4, buffer, 0)).isFalse();
        assertThat(store.pullOwned(4, new float[3], 0)).isFalse();
        assertThat(store.pushOwned(4, buffer, 0)).isFalse();
        assertThat(store.setOwned(4, buffer, 0)).isFalse();
        assertThat(store.snapshotDelta(4, buffer, 0)).isEqualTo(TableStore.NOT_HELD);
        assertThat(store.refreshReplica(4, buffer, 0)).isFalse();
        assertThat(store.dropReplica(4, buffer, 0)).isFalse();
        assertThat(buffer).containsExactly(1f, 2f, 3f);
        assertThat(store.kind(4)).isNull();
    }

    @Test
    void refreshRebasesOnTheOwnersValueKeepingLaterLocalUpdates() {
        TableStore store = new TableStore(spec);
        store.installReplica(2, new float[] {10f, 10f, 10f}, 0);
        store.push(2, new float[] {1f, 2f, 3f}, 0);
        float[] delta = new float[3];
        assertThat(store.snapshotDelta(2, delta, 0)).isEqualTo(TableStore.DELTA);
        // Pushed after the snapshot: not in the owner's answer, must survive the refresh.
        store.push(2, new float[] {100f, 0f, 0f}, 0);
        // The owner applied our delta and others' updates: 10 + delta + 5.
        float[] fresh = {0f, 16f, 17f, 18f};
        assertThat(store.refreshReplica(2, fresh, 1)).isTrue();
        assertThat(pulled(store, 2)).containsExactly(116f, 17f, 18f);
        assertThat(store.snapshotDelta(2, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(100f, 0f, 0f);
        // A second refresh without pushes in between sets the value to the owner's.
        assertThat(store.refreshReplica(2, new float[] {200f, 30f, 40f}, 0)).isTrue();
        assertThat(pulled(store, 2)).containsExactly(200f, 30f, 40f);
    }

    @Test
    void dropRemovesTheReplicaAndHandsOverItsPendingDelta() {
        TableStore store = new TableStore(spec);
        store.installReplica(2, new float[] {10f, 10f, 10f}, 0);
        store.push(2, new float[] {1f, 2f, 3f}, 0);
        store.snapshotDelta(2, new float[3], 0);
        store.push(2, new float[] {4f, 5f, 6f}, 0);
        float[] delta = new float[4];
        assertThat(store.dropReplica(2, delta, 1)).isTrue();
        assertThat(delta).containsExactly(0f, 4f, 5f, 6f);
        assertThat(store.holds(2)).isFalse();
        assertThat(store.kind(2)).isNull();
        assertThat(store.pull(2, new float[3], 0)).isFalse();
        assertThat(store.push(2, new float[3], 0)).isFalse();
        assertThat(store.snapshotDelta(2, new float[3], 0)).isEqualTo(TableStore.NOT_HELD);
        assertThat(store.dropReplica(2, null, 0)).isFalse();
        assertThat(store.replicaRows()).isZero();
        assertThat(store.heldRows()).isZero();
    }

    @Test
    void reinstallAfterDropStartsAfreshInTheReusedSlot() {
        TableStore store = new TableStore(adagrad);
        for (int round = 0; round < 20; round++) {
            store.installReplica(round % 3, new float[] {1f, 1f, 1f}, 0);
            store.push(round % 3, new float[] {2f, 2f, 2f}, 0);
            assertThat(store.dropReplica(round % 3, null, 0)).isTrue();
            store.installReplica(50, new float[] {1f, 1f, 1f}, 0);
            store.push(50, new float[] {2f, 2f, 2f}, 0);
            float[] delta = new float[3];
            assertThat(store.dropReplica(50, delta, 0)).isTrue();
            // Nothing left from the previous occupant: the delta is one push, the value one first step.
            assertThat(delta).containsExactly(2f, 2f, 2f);
        }
        store.installReplica(7, new float[] {1f, 1f, 1f}, 0);
        store.push(7, new float[] {2f, 2f, 2f}, 0);
        float expected = 1f - 0.1f * 2f / ((float) Math.sqrt(4f) + 1e-3f);
        assertThat(pulled(store, 7)).containsExactly(expected, expected, expected);
        assertThat(store.replicaSlotHighWaterMark()).isEqualTo(1);
        assertThat(store.slotHighWaterMark()).isZero();
    }

    @Test
    void replicaPushesRunTheRuleOnTheReplicasOwnState() {
        TableStore replica = new TableStore(adagrad);
        TableStore reference = new TableStore(adagrad);
        replica.installReplica(5, new float[] {1f, 2f, 3f}, 0);
        reference.install(5, SlotKind.OWNED, new float[] {1f, 2f, 3f, 0f, 0f, 0f}, 0);
        float[][] updates = {{1f, -2f, 0.5f}, {3f, 1f, -1f}, {0f, 2f, 2f}};
        for (float[] update : updates) {
            replica.push(5, update, 0);
            reference.push(5, update, 0);
            assertThat(pulled(replica, 5)).containsExactly(pulled(reference, 5));
        }
        float[] delta = new float[3];
        assertThat(replica.snapshotDelta(5, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(4f, 1f, 1.5f);
        // The accumulator is not reset by synchronization: the next step is as small as the reference's.
        replica.refreshReplica(5, pulled(reference, 5), 0);
        replica.push(5, updates[0], 0);
        reference.push(5, updates[0], 0);
        assertThat(pulled(replica, 5)).containsExactly(pulled(reference, 5));
    }

    @Test
    void promoteAppliesThePendingDeltaToTheHandedOverValue() {
        TableStore store = new TableStore(spec);
        store.installReplica(6, new float[] {0f, 0f, 0f}, 0);
        store.push(6, new float[] {1f, 2f, 3f}, 0);
        store.snapshotDelta(6, new float[3], 0);
        store.push(6, new float[] {10f, 20f, 30f}, 0);
        // The previous owner's value includes the first (snapshotted) push and others' updates.
        store.promote(6, new float[] {-1f, 101f, 102f, 103f}, 1);
        assertThat(store.kind(6)).isEqualTo(SlotKind.OWNED);
        assertThat(pulled(store, 6)).containsExactly(111f, 122f, 133f);
        assertThat(store.replicaRows()).isZero();
        assertThat(store.heldRows()).isEqualTo(1);
        assertThat(store.snapshotDelta(6, new float[3], 0)).isEqualTo(TableStore.NOT_HELD);
        assertThat(store.set(6, new float[] {1f, 1f, 1f}, 0)).isTrue();
        assertThat(store.takeOut(6, null, 0)).isTrue();
        // The replica slot was freed.
        store.installReplica(7, null, 0);
        assertThat(store.replicaSlotHighWaterMark()).isEqualTo(1);
    }

    @Test
    void promoteHandsOverTheRuleStateAndAppliesTheDeltaThroughTheRule() {
        TableStore store = new TableStore(adagrad);
        store.installReplica(6, new float[] {5f, 5f, 5f}, 0);
        store.push(6, new float[] {1f, 2f, 3f}, 0);
        store.push(6, new float[] {1f, 0f, -1f}, 0);
        float[] handed = {4f, 5f, 6f, 9f, 16f, 25f};
        store.promote(6, handed, 0);
        // As if the previous owner had kept the row and received the summed update.
        TableStore reference = new TableStore(adagrad);
        reference.install(6, SlotKind.OWNED, handed, 0);
        reference.push(6, new float[] {2f, 2f, 2f}, 0);
        float[] actual = new float[6];
        float[] expected = new float[6];
        assertThat(store.takeOut(6, actual, 0)).isTrue();
        reference.takeOut(6, expected, 0);
        assertThat(actual).containsExactly(expected);
    }

    @Test
    void promoteWithAZeroDeltaKeepsTheHandedValueAndStateExactly() {
        TableStore store = new TableStore(adagrad);
        store.installReplica(6, null, 0);
        store.push(6, new float[] {1f, 2f, 3f}, 0);
        store.snapshotDelta(6, new float[3], 0);
        float[] handed = {4f, 5f, 6f, 9f, 16f, 25f};
        store.promote(6, handed, 0);
        float[] actual = new float[6];
        store.takeOut(6, actual, 0);
        assertThat(actual).containsExactly(handed);
    }

    @Test
    void promotingARowNotHeldInstallsItOwned() {
        TableStore store = new TableStore(adagrad);
        store.promote(3, new float[] {1f, 2f, 3f, 4f, 5f, 6f}, 0);
        assertThat(store.kind(3)).isEqualTo(SlotKind.OWNED);
        float[] moved = new float[6];
        store.takeOut(3, moved, 0);
        assertThat(moved).containsExactly(1f, 2f, 3f, 4f, 5f, 6f);
    }

    @Test
    void replicaRowsAreCollected() {
        TableStore store = new TableStore(spec);
        store.installReplica(3, null, 0);
        store.installReplica(70, null, 0);
        store.installReplica(12, null, 0);
        store.allocate(4, SlotKind.OWNED);
        store.dropReplica(70, null, 0);
        store.promote(12, new float[3], 0);
        store.installReplica(99, null, 0);
        LongArrayList rows = new LongArrayList();
        rows.add(-5);
        store.collectReplicaRows(rows);
        assertThat(rows.toLongArray()).containsExactlyInAnyOrder(-5L, 3L, 99L);
        assertThat(store.replicaRows()).isEqualTo(2);
        assertThat(store.heldRows()).isEqualTo(4);
    }

    @Test
    void allRowsCanBeReplicas() {
        TableStore store = new TableStore(spec);
        store.allocateAll(SlotKind.REPLICA);
        assertThat(store.replicaRows()).isEqualTo(100);
        assertThat(pulled(store, 99)).containsExactly(initial(99));
        LongArrayList rows = new LongArrayList();
        store.collectReplicaRows(rows);
        assertThat(rows.toLongArray()).hasSize(100);
    }

    @Test
    void isZeroTellsAllZeroRanges() {
        assertThat(TableStore.isZero(new float[] {1f, 0f, -0f, 1f}, 1, 2)).isTrue();
        assertThat(TableStore.isZero(new float[] {0f, Float.NaN}, 0, 2)).isFalse();
        assertThat(TableStore.isZero(new float[] {0f, 1e-30f}, 0, 2)).isFalse();
        assertThat(TableStore.isZero(new float[0], 0, 0)).isTrue();
    }

    /** What LOCAL sampling counts as local: rows a worker reads here without waiting. */
    @Test
    void readableRowsAreOwnedRowsAndFetchedReplicasOnly() {
        TableStore store = new TableStore(spec);
        store.allocate(1, SlotKind.OWNED);
        assertThat(store.holdsReadable(1)).as("owned").isTrue();
        assertThat(store.holdsReadable(2)).as("absent").isFalse();
        assertThat(store.tryInstallPendingReplica(2)).isTrue();
        assertThat(store.holds(2)).isTrue();
        assertThat(store.holdsReadable(2)).as("pending replica").isFalse();
        assertThat(store.refreshReplica(2, new float[3], 0)).isTrue();
        assertThat(store.holdsReadable(2)).as("fetched replica").isTrue();
        assertThat(store.dropReplica(2, null, 0)).isTrue();
        assertThat(store.holdsReadable(2)).as("dropped replica, draining").isFalse();
        store.drained(2);
        assertThat(store.holdsReadable(2)).as("drained, absent").isFalse();
        assertThat(store.takeOut(1, null, 0)).isTrue();
        assertThat(store.holdsReadable(1)).as("handed over").isFalse();
    }
}
