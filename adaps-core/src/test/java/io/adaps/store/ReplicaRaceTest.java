package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.adaps.api.InPlaceUpdate;
import io.adaps.api.TableSpec;
import io.adaps.testing.Concurrently;

/**
 * Workers push to replicas while another thread synchronizes them (snapshot, owner applies the
 * delta, refresh), drops and reinstalls them, or promotes them: with the add rule and pushes of
 * ones, every push must end up in the owner's value exactly once, and no read may be torn (all
 * components of a row always move together). Each test runs with pushes, and with updates in place
 * ({@link TableStore#updateHeld}) of pairs of rows that fall back to pushes where they do not run.
 */
class ReplicaRaceTest {
    private static final int ROWS = 4;
    private static final int L = 3;
    private static final int PUSHERS = 3;
    private static final int PUSHES_PER_THREAD = 30_000;
    /** Adds one to every component of both rows. */
    private static final InPlaceUpdate ADD_ONES = (a, ao, b, bo) -> {
        for (int i = 0; i < L; i++) {
            a[ao + i] += 1;
            b[bo + i] += 1;
        }
    };

    /** The simulated owners' values: one counter per row (all components are equal). */
    private final long[] owner = new long[ROWS];

    /**
     * Adds ones to the rows in turn: a push of ones to each or, {@code inPlace}, one update in place
     * of the row and the next (then each row gets twice as many); an addition the store does not
     * take (the row is not held here) is retried or, if not {@code retry}, counted as sent to the owner.
     */
    private static void addOnes(TableStore store, AtomicLong sentToOwner, boolean retry, boolean inPlace) {
        float[] one = {1f, 1f, 1f};
        float[] seen = new float[L];
        for (int i = 0; i < PUSHES_PER_THREAD; i++) {
            long row = i % ROWS;
            long next = (i + 1) % ROWS;
            if (!inPlace) {
                pushOne(store, row, one, sentToOwner, retry);
            } else if (!addedInPlace(store, row, next)) {
                pushOne(store, row, one, sentToOwner, retry);
                pushOne(store, next, one, sentToOwner, retry);
            }
            if (store.pull(row, seen, 0)) {
                assertThat(seen[1]).isEqualTo(seen[0]);
                assertThat(seen[2]).isEqualTo(seen[0]);
            }
        }
    }

    /** Whether the store added ones to {@code row} and {@code next} in place ({@link TableStore#updateHeld}). */
    private static boolean addedInPlace(TableStore store, long row, long next) {
        return TableStore.updateHeld(store, row, Long.MIN_VALUE, store, next, Long.MIN_VALUE, ADD_ONES)
                != TableStore.NOT_HELD_TAG;
    }

    private static void pushOne(TableStore store, long row, float[] one, AtomicLong sentToOwner, boolean retry) {
        if (retry) {
            while (!store.push(row, one, 0)) {
                Thread.onSpinWait();
            }
        } else if (!store.push(row, one, 0)) {
            // Not held here (dropped): the node would send the push to the owner.
            sentToOwner.incrementAndGet();
        }
    }

    /** Ones each row receives per thread: one per push, two per update in place of a pair. */
    private static long onesPerRow(boolean inPlace) {
        return (inPlace ? 2L : 1L) * PUSHES_PER_THREAD / ROWS;
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

    @ParameterizedTest(name = "in place: {0}")
    @ValueSource(booleans = {false, true})
    void pushesRacingWithSynchronizationAreEachSentOnce(boolean inPlace) throws Exception {
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
        Concurrently.run(PUSHERS, thread -> addOnes(store, null, true, inPlace));
        done.set(true);
        synchronizer.join();
        assertThat(failure.get()).isNull();
        float[] delta = new float[L];
        float[] value = new float[L];
        for (int row = 0; row < ROWS; row++) {
            synchronize(store, row, delta);
            assertThat(owner[row]).as("row %d", row).isEqualTo(PUSHERS * onesPerRow(inPlace));
            // Nothing pushed since the last snapshot: the replica shows the owner's value.
            store.pull(row, value, 0);
            assertThat(value).containsExactly(owner[row], owner[row], owner[row]);
        }
    }

    @ParameterizedTest(name = "in place: {0}")
    @ValueSource(booleans = {false, true})
    void pushesRacingWithDropAndReinstallAreEachSentOnce(boolean inPlace) throws Exception {
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
        Concurrently.run(PUSHERS, thread -> addOnes(store, sentToOwner, false, inPlace));
        done.set(true);
        churner.join();
        assertThat(failure.get()).isNull();
        long total = sentToOwner.get();
        float[] delta = new float[L];
        for (int row = 0; row < ROWS; row++) {
            assertThat(store.dropReplica(row, delta, 0)).isTrue();
            total += owner[row] + (long) delta[0];
        }
        assertThat(total).isEqualTo(PUSHERS * onesPerRow(inPlace) * ROWS);
        assertThat(store.replicaSlotHighWaterMark()).isLessThanOrEqualTo(ROWS);
    }

    @ParameterizedTest(name = "in place: {0}")
    @ValueSource(booleans = {false, true})
    void pushesRacingWithSynchronizationAndPromotionAreEachAppliedOnce(boolean inPlace) throws Exception {
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
                    int row = i % ROWS;
                    int next = (i + 1) % ROWS;
                    // A push never fails here: the row is a replica or, after promotion, owned.
                    if (!inPlace) {
                        assertThat(store.push(row, one, 0)).isTrue();
                    } else if (!addedInPlace(store, row, next)) {
                        assertThat(store.push(row, one, 0)).isTrue();
                        assertThat(store.push(next, one, 0)).isTrue();
                    }
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
                float expected = PUSHERS * onesPerRow(inPlace);
                assertThat(value).as("row %d", row).containsExactly(expected, expected, expected);
            }
            assertThat(store.replicaRows()).isZero();
        }
    }
}
