package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.adaps.api.TableSpec;
import io.adaps.testing.Concurrently;

/**
 * Workers push to replicas while another thread synchronizes them (snapshot, owner applies the
 * delta, refresh), drops and reinstalls them, or promotes them: with the add rule and pushes of
 * ones, every push must end up in the owner's value exactly once, and no read may be torn (all
 * components of a row always move together).
 */
class ReplicaRaceTest {
    private static final int ROWS = 4;
    private static final int L = 3;
    private static final int PUSHERS = 3;
    private static final int PUSHES_PER_THREAD = 30_000;

    /** The simulated owners' values: one counter per row (all components are equal). */
    private final long[] owner = new long[ROWS];

    private static void pushOnes(TableStore store, AtomicLong sentToOwner, boolean retry) {
        float[] one = {1f, 1f, 1f};
        float[] seen = new float[L];
        for (int i = 0; i < PUSHES_PER_THREAD; i++) {
            long row = i % ROWS;
            if (retry) {
                while (!store.push(row, one, 0)) {
                    Thread.onSpinWait();
                }
            } else if (!store.push(row, one, 0)) {
                // Not held here (dropped): the node would send the push to the owner.
                sentToOwner.incrementAndGet();
            }
            if (store.pull(row, seen, 0)) {
                assertThat(seen[1]).isEqualTo(seen[0]);
                assertThat(seen[2]).isEqualTo(seen[0]);
            }
        }
    }

    /** Snapshots {@code row}, hands the delta to the owner and refreshes from the owner's value. */
    private void synchronize(TableStore store, int row, float[] delta) {
        int result = store.snapshotDelta(row, delta, 0);
        if (result == TableStore.NOT_HELD) {
            return;
        }
        if (result == TableStore.DELTA) {
            assertThat(delta[1]).isEqualTo(delta[0]);
            assertThat(delta[2]).isEqualTo(delta[0]);
            assertThat(delta[0]).isNotZero();
            owner[row] += (long) delta[0];
        }
        float fresh = owner[row];
        assertThat(store.refreshReplica(row, new float[] {fresh, fresh, fresh}, 0)).isTrue();
    }

    private static Thread background(AtomicReference<Throwable> failure, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "test-background");
        thread.start();
        return thread;
    }

    @Test
    void pushesRacingWithSynchronizationAreEachSentOnce() throws Exception {
        TableStore store = new TableStore(TableSpec.of("t", ROWS, L));
        for (int row = 0; row < ROWS; row++) {
            store.installReplica(row, null, 0);
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread synchronizer = background(failure, () -> {
            float[] delta = new float[L];
            for (long round = 0; !done.get(); round++) {
                synchronize(store, (int) (round % ROWS), delta);
            }
        });
        Concurrently.run(PUSHERS, thread -> pushOnes(store, null, true));
        done.set(true);
        synchronizer.join();
        assertThat(failure.get()).isNull();
        float[] delta = new float[L];
        float[] value = new float[L];
        for (int row = 0; row < ROWS; row++) {
            synchronize(store, row, delta);
            assertThat(owner[row]).as("row %d", row).isEqualTo((long) PUSHERS * PUSHES_PER_THREAD / ROWS);
            // Nothing pushed since the last snapshot: the replica shows the owner's value.
            store.pull(row, value, 0);
            assertThat(value).containsExactly(owner[row], owner[row], owner[row]);
        }
    }

    @Test
    void pushesRacingWithDropAndReinstallAreEachSentOnce() throws Exception {
        TableStore store = new TableStore(TableSpec.of("t", ROWS, L));
        for (int row = 0; row < ROWS; row++) {
            store.installReplica(row, null, 0);
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong sentToOwner = new AtomicLong();
        Thread churner = background(failure, () -> {
            float[] delta = new float[L];
            for (long round = 0; !done.get(); round++) {
                int row = (int) (round % ROWS);
                synchronize(store, row, delta);
                if (round % 3 == 0 && store.dropReplica(row, delta, 0)) {
                    owner[row] += (long) delta[0];
                    float fresh = owner[row];
                    store.installReplica(row, new float[] {fresh, fresh, fresh}, 0);
                }
            }
        });
        Concurrently.run(PUSHERS, thread -> pushOnes(store, sentToOwner, false));
        done.set(true);
        churner.join();
        assertThat(failure.get()).isNull();
        long total = sentToOwner.get();
        float[] delta = new float[L];
        for (int row = 0; row < ROWS; row++) {
            assertThat(store.dropReplica(row, delta, 0)).isTrue();
            total += owner[row] + (long) delta[0];
        }
        assertThat(total).isEqualTo((long) PUSHERS * PUSHES_PER_THREAD);
        assertThat(store.replicaSlotHighWaterMark()).isLessThanOrEqualTo(ROWS);
    }

    @Test
    void pushesRacingWithSynchronizationAndPromotionAreEachAppliedOnce() throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            java.util.Arrays.fill(owner, 0);
            TableStore store = new TableStore(TableSpec.of("t", ROWS, L));
            for (int row = 0; row < ROWS; row++) {
                store.installReplica(row, null, 0);
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong progress = new AtomicLong();
            Thread promoter = background(failure, () -> {
                float[] delta = new float[L];
                for (int row = 0; row < ROWS; row++) {
                    // Synchronize a while, then take over the row while the pushers are at it.
                    long until = (long) PUSHES_PER_THREAD * (row + 1) / (ROWS + 1);
                    while (progress.get() < until) {
                        synchronize(store, row, delta);
                    }
                    float handed = owner[row];
                    store.promote(row, new float[] {handed, handed, handed}, 0);
                }
            });
            Concurrently.run(PUSHERS, thread -> {
                float[] one = {1f, 1f, 1f};
                for (int i = 0; i < PUSHES_PER_THREAD; i++) {
                    // A push never fails here: the row is a replica or, after promotion, owned.
                    assertThat(store.push(i % ROWS, one, 0)).isTrue();
                    if (thread == 0) {
                        progress.set(i);
                    }
                }
            });
            promoter.join();
            assertThat(failure.get()).isNull();
            float[] value = new float[L];
            for (int row = 0; row < ROWS; row++) {
                assertThat(store.kind(row)).isEqualTo(SlotKind.OWNED);
                assertThat(store.pullOwned(row, value, 0)).isTrue();
                float expected = (float) PUSHERS * PUSHES_PER_THREAD / ROWS;
                assertThat(value).as("row %d", row).containsExactly(expected, expected, expected);
            }
            assertThat(store.replicaRows()).isZero();
        }
    }
}
