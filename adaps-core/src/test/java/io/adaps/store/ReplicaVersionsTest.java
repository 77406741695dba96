package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;

/** Pending and draining replicas, and the versions that let owners answer "unchanged" and checkpoints skip unchanged rows. */
class ReplicaVersionsTest {
    private final TableSpec spec = TableSpec.of("t", 10, 2);

    @Test
    void aPendingReplicaTakesPushesButIsReadOnlyAfterItsFirstRefresh() {
        TableStore store = new TableStore(spec);
        float[] value = new float[2];
        assertThat(store.tryInstallPendingReplica(3)).isTrue();
        assertThat(store.tryInstallPendingReplica(3)).as("already held").isFalse();
        assertThat(store.isPendingReplica(3)).isTrue();
        assertThat(store.push(3, new float[] {1f, 2f}, 0)).isTrue();
        assertThat(store.pull(3, value, 0)).as("not fetched yet").isFalse();
        assertThat(store.knownVersion(3)).isEqualTo(-1);

        float[] delta = new float[2];
        assertThat(store.snapshotDelta(3, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(1f, 2f);
        store.push(3, new float[] {10f, 10f}, 0); // after the snapshot: kept by the refresh
        assertThat(store.refreshReplica(3, new float[] {101f, 202f}, 0, 77L)).isTrue();
        assertThat(store.isPendingReplica(3)).isFalse();
        assertThat(store.pull(3, value, 0)).isTrue();
        assertThat(value).containsExactly(111f, 212f);
        assertThat(store.knownVersion(3)).isEqualTo(77L);
        store.confirmReplica(3, 78L);
        assertThat(store.knownVersion(3)).isEqualTo(78L);
    }

    @Test
    void aDroppedReplicaDrainsUntilItsDeltaArrived() {
        TableStore store = new TableStore(spec);
        store.installReplica(4, null, 0);
        store.push(4, new float[] {1f, 1f}, 0);
        float[] delta = new float[2];
        assertThat(store.dropReplica(4, delta, 0)).isTrue();
        assertThat(delta).containsExactly(1f, 1f);
        assertThat(store.holds(4)).isFalse();
        assertThat(store.isPendingReplica(4)).as("draining").isTrue();
        store.drained(4);
        assertThat(store.isPendingReplica(4)).isFalse();
    }

    @Test
    void versionsChangeWithEveryWriteAndEveryInstallAndDifferBetweenNodes() {
        TableStore store = new TableStore(spec, 1, 3);
        store.allocate(5, SlotKind.OWNED);
        float[] value = new float[2];
        long first = store.pullOwnedVersioned(5, value, 0);
        assertThat(first).isNotNegative();
        assertThat(store.pullOwnedVersioned(5, value, 0)).as("no write, same version").isEqualTo(first);
        store.push(5, new float[] {1f, 1f}, 0);
        long pushed = store.pullOwnedVersioned(5, value, 0);
        assertThat(pushed).isNotEqualTo(first);
        store.set(5, new float[] {0f, 0f}, 0);
        assertThat(store.pullOwnedVersioned(5, value, 0)).isNotIn(first, pushed);

        float[] slot = new float[2];
        store.takeOut(5, slot, 0);
        assertThat(store.pullOwnedVersioned(5, value, 0)).as("not owned").isEqualTo(-1);
        store.install(5, SlotKind.OWNED, slot, 0); // the same slot again, a new install
        assertThat(store.pullOwnedVersioned(5, value, 0)).isNotIn(first, pushed);

        TableStore other = new TableStore(spec, 2, 3);
        other.allocate(5, SlotKind.OWNED);
        TableStore same = new TableStore(spec, 1, 3);
        same.allocate(5, SlotKind.OWNED);
        assertThat(other.pullOwnedVersioned(5, value, 0)).as("another node's first install")
                .isNotEqualTo(same.pullOwnedVersioned(5, value, 0));
    }

    /**
     * What incremental checkpoints rely on: reading a row (its version, or a copy of value and rule
     * state) leaves its version, every write moves it, rule state included, and the three reads agree.
     */
    @Test
    void checkpointReadsLeaveTheVersionAndEveryWriteMovesIt() {
        TableStore store = new TableStore(TableSpec.of("a", 4, 2).withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f)));
        store.allocate(2, SlotKind.OWNED);
        float[] copy = new float[store.stride()];
        long version = store.ownedVersion(2);
        assertThat(store.copyOwned(2, copy, 0)).isEqualTo(version);
        assertThat(store.ownedVersion(2)).as("after the copy").isEqualTo(version)
                .isEqualTo(store.pullOwnedVersioned(2, new float[2], 0));
        store.push(2, new float[] {0.5f, 0f}, 0);
        long pushed = store.copyOwned(2, copy, 0);
        assertThat(pushed).isNotEqualTo(version).isEqualTo(store.ownedVersion(2));
        assertThat(copy[2]).as("Adagrad's accumulator, copied with the value").isEqualTo(0.25f);
        store.push(2, new float[] {0f, 0f}, 0); // changes no float, still a write
        assertThat(store.ownedVersion(2)).isNotIn(version, pushed);
        assertThat(store.ownedVersion(3)).as("not held").isEqualTo(-1);
        assertThat(store.copyOwned(3, copy, 0)).isEqualTo(-1);
    }

    @Test
    void replicasAreNeverVersionedAsOwned() {
        TableStore store = new TableStore(spec);
        store.installReplica(6, null, 0);
        assertThat(store.pullOwnedVersioned(6, new float[2], 0)).isEqualTo(-1);
    }
}
