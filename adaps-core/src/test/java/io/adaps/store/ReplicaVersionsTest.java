package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.adaps.api.InPlaceUpdate;
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

    /** Issue 13: most refreshes of a round find their row unchanged; the owner then copies nothing. */
    @Test
    void anOwnerAnswersARefreshAtTheReplicasVersionWithoutCopyingTheRow() {
        TableStore store = new TableStore(spec, 1, 3);
        store.allocate(7, SlotKind.OWNED);
        store.set(7, new float[] {3f, 4f}, 0);
        float[] value = new float[2];
        long known = store.pullOwnedVersioned(7, value, 0);
        float[] answer = {-1f, -1f};
        assertThat(store.pullOwnedIfChanged(7, known, answer, 0)).isEqualTo(known);
        assertThat(answer).as("nothing copied").containsExactly(-1f, -1f);

        store.push(7, new float[] {1f, 1f}, 0);
        long pushed = store.pullOwnedIfChanged(7, known, answer, 0);
        assertThat(pushed).isNotEqualTo(known).isEqualTo(store.ownedVersion(7));
        assertThat(answer).containsExactly(4f, 5f);
        assertThat(store.pullOwnedIfChanged(7, -1, answer, 0)).as("a replica that never had a version")
                .isEqualTo(pushed);

        float[] slot = new float[2];
        store.takeOut(7, slot, 0);
        assertThat(store.pullOwnedIfChanged(7, pushed, answer, 0)).as("not owned").isEqualTo(-1);
        store.install(7, SlotKind.OWNED, slot, 0);
        Arrays.fill(answer, -1f);
        assertThat(store.pullOwnedIfChanged(7, pushed, answer, 0)).as("installed again: a new version")
                .isNotIn(pushed, -1L);
        assertThat(answer).containsExactly(4f, 5f);
    }

    /**
     * Issue 13: a refresh that comes while a writer holds the row (an odd sequence number, which no
     * version handed out has) is never answered as unchanged: it waits for the write and copies it.
     */
    @Test
    void aRefreshDuringAWriteWaitsForItAndCopiesTheRow() throws Exception {
        TableStore store = new TableStore(spec, 1, 3);
        store.allocate(7, SlotKind.OWNED);
        store.set(7, new float[] {3f, 4f}, 0);
        long known = store.pullOwnedVersioned(7, new float[2], 0);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Long> writer = holdInPlace(threads, store, 7, 10f, release);
            // Let go a moment later, while this thread's refresh is (almost surely) waiting for it.
            threads.submit(() -> {
                TimeUnit.MILLISECONDS.sleep(50);
                release.countDown();
                return null;
            });
            float[] answer = {-1f, -1f};
            long refreshed = store.pullOwnedIfChanged(7, known, answer, 0);
            assertThat(writer.get(5, TimeUnit.SECONDS)).isEqualTo(TableStore.OWNED_TAG);
            assertThat(refreshed).isNotEqualTo(known).isEqualTo(store.ownedVersion(7));
            assertThat(answer).containsExactly(13f, 4f);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    /**
     * Issue 13: a replica whose lock a writer holds (an odd sequence number) is never clean, since a
     * mark is always even: a round's snapshot waits for the write in place and hands it out.
     */
    @Test
    void aSnapshotDuringAWriteInPlaceWaitsForItAndHandsItOut() throws Exception {
        TableStore store = new TableStore(spec);
        store.installReplica(1, new float[] {10f, 20f}, 0);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Long> write = holdInPlace(threads, store, 1, 1f, release);
            float[] delta = new float[2];
            Future<Integer> snapshot = threads.submit(() -> store.snapshotDelta(1, delta, 0));
            Thread.sleep(50);
            assertThat(snapshot.isDone()).as("waits for the writer").isFalse();

            release.countDown();
            assertThat(write.get(5, TimeUnit.SECONDS)).isNotEqualTo(TableStore.NOT_HELD_TAG);
            assertThat(snapshot.get(5, TimeUnit.SECONDS)).isEqualTo(TableStore.DELTA);
            assertThat(delta).containsExactly(1f, 0f);
            assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.ZERO_DELTA);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    /**
     * Issue 13: every way an update in place can fail takes one branch, which tries both locks
     * before it gives up: a busy lock on either row runs nothing and leaves the other row's lock free.
     */
    @Test
    void anUpdateInPlaceThatFindsEitherLockBusyRunsNothingAndLeavesTheOtherLockFree() throws Exception {
        TableStore store = new TableStore(spec);
        store.installReplica(1, new float[] {10f, 20f}, 0);
        store.install(2, SlotKind.OWNED, new float[] {1f, 2f}, 0);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        int[] runs = new int[1];
        InPlaceUpdate addOne = (first, firstOffset, second, secondOffset) -> {
            runs[0]++;
            first[firstOffset] += 1f;
            second[secondOffset] += 1f;
        };
        try {
            Future<Long> holder = holdInPlace(threads, store, 1, 0f, release);
            assertThat(TableStore.updateHeld(store, 2, Long.MIN_VALUE, store, 1, Long.MIN_VALUE, addOne))
                    .as("the second row's lock busy").isEqualTo(TableStore.NOT_HELD_TAG);
            assertThat(TableStore.updateHeld(store, 1, Long.MIN_VALUE, store, 2, Long.MIN_VALUE, addOne))
                    .as("the first row's lock busy").isEqualTo(TableStore.NOT_HELD_TAG);
            assertThat(runs[0]).isZero();
            // Tried without waiting: a lock left held would fail here, where a read would wait for it.
            assertThat(TableStore.updateHeld(store, 2, Long.MIN_VALUE, store, 2, Long.MIN_VALUE, addOne))
                    .as("row 2's lock let go").isEqualTo(TableStore.OWNED_TAG);
            float[] value = new float[2];
            assertThat(store.pull(2, value, 0)).isTrue();
            assertThat(value).as("row 2 named twice: two steps").containsExactly(3f, 2f);

            release.countDown();
            assertThat(holder.get(5, TimeUnit.SECONDS)).isNotEqualTo(TableStore.NOT_HELD_TAG);
            assertThat(TableStore.updateHeld(store, 2, Long.MIN_VALUE, store, 1, Long.MIN_VALUE, addOne))
                    .as("both free again").isNotEqualTo(TableStore.NOT_HELD_TAG);
            assertThat(store.pull(2, value, 0)).isTrue();
            assertThat(value).as("one step on row 2 named twice, one with row 1").containsExactly(4f, 2f);
            assertThat(runs[0]).isEqualTo(2);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    /**
     * Starts on one of {@code threads} an update in place of {@code row} named twice that adds
     * {@code add} to its first float and then holds the row's lock until {@code release}; returns its
     * result's future once it holds the lock.
     */
    private static Future<Long> holdInPlace(ExecutorService threads, TableStore store, long row, float add,
                                            CountDownLatch release) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Future<Long> holder = threads.submit(() -> TableStore.updateHeld(store, row, Long.MIN_VALUE, store, row,
                Long.MIN_VALUE, (first, firstOffset, second, secondOffset) -> {
                    first[firstOffset] += add;
                    holding.countDown();
                    awaitQuietly(release);
                }));
        assertThat(holding.await(5, TimeUnit.SECONDS)).as("row %d held", row).isTrue();
        return holder;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Issue 13: a round snapshots every replica, and most have had nothing pushed since the round
     * before; such a snapshot changes nothing (it skips the lock), whatever happened before it.
     */
    @Test
    void aSnapshotWithNothingPushedSinceTheLastSnapshotOrCleanRefreshHandsOutNothing() {
        TableStore store = new TableStore(spec);
        store.installReplica(1, new float[] {10f, 20f}, 0);
        float[] delta = {-1f, -1f};
        assertThat(store.snapshotDelta(1, delta, 0)).as("just installed").isEqualTo(TableStore.ZERO_DELTA);
        store.push(1, new float[] {1f, 2f}, 0);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(1f, 2f);
        Arrays.fill(delta, -1f);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.ZERO_DELTA);
        assertThat(delta).as("untouched").containsExactly(-1f, -1f);

        // A refresh with nothing pushed since the snapshot: clean, the value is the owner's.
        store.refreshReplica(1, new float[] {100f, 200f}, 0, 5L);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.ZERO_DELTA);
        store.refreshReplica(1, new float[] {101f, 201f}, 0, 6L);
        float[] value = new float[2];
        store.pull(1, value, 0);
        assertThat(value).containsExactly(101f, 201f);

        // A push between snapshot and refresh survives the refresh and is the next delta.
        store.push(1, new float[] {0.5f, 0.5f}, 0);
        store.refreshReplica(1, new float[] {102f, 202f}, 0, 7L);
        store.pull(1, value, 0);
        assertThat(value).containsExactly(102.5f, 202.5f);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(0.5f, 0.5f);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.ZERO_DELTA);

        // Dropped and installed again in the same slot: the new replica starts clean, and its pushes count.
        store.dropReplica(1, null, 0);
        store.drained(1);
        store.installReplica(1, null, 0);
        store.push(1, new float[] {2f, 0f}, 0);
        assertThat(store.snapshotDelta(1, delta, 0)).isEqualTo(TableStore.DELTA);
        assertThat(delta).containsExactly(2f, 0f);
        assertThat(store.snapshotDelta(2, delta, 0)).as("not held").isEqualTo(TableStore.NOT_HELD);
    }
}
