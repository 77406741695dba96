package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.placement.HomePlacement;
import io.adaps.store.SlotKind;
import io.adaps.testing.Await;

/**
 * The adaptive manager leaves the keys of a table where they are while its node's workers read the
 * table in a few calls per clock (placing them would save at most a round trip per call), and
 * places them as intended while the workers read it in many.
 */
class BatchedReadsTest {
    private static final int ROWS = 200;
    /** Rows 0..99 are homed at node 0; node 1 intends and reads them. */
    private static final int HOMED_AT_0 = 100;
    private static final int PER_CLOCK = 5;
    private static final Duration WITHIN = Duration.ofSeconds(20);

    /**
     * What node 1's worker does, on a 2-node ADAPTIVE cluster with tables {@code t} and {@code u} of
     * {@value #ROWS} rows each.
     */
    private interface Scenario {
        void run(TestCluster cluster, AdaPS user, Table table, Worker worker, TableView view) throws Exception;
    }

    private static void onNodeOne(Scenario scenario) throws Exception {
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2,
                b -> b.table(TableSpec.of("t", ROWS, 2)).table(TableSpec.of("u", ROWS, 2))
                        .technique(Technique.ADAPTIVE))) {
            AdaPS user = cluster.node(1);
            try (Worker worker = user.worker()) {
                scenario.run(cluster, user, user.table("t"), worker, worker.table("t"));
            }
        }
    }

    @Test
    void keysOfATableReadOncePerClockStayAtTheirHome() throws Exception {
        onNodeOne((cluster, user, table, worker, view) -> {
            long clock = 0;
            // Rows 0..49 over and over, one pull per clock, until the manager has measured the rate.
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (user.metrics().replication().keysLeftInPlace() == 0) {
                assertThat(System.nanoTime()).as("keys left in place within %s", WITHIN).isLessThan(deadline);
                clock = readingClock(worker, view, rows(clock % 10 * PER_CLOCK), 1, clock);
            }
            // The homes' decisions on the intents tracked before reach node 1 within their delay;
            // it carries them out for the keys it still holds lingering.
            Thread.sleep(5L * HomePlacement.DECISION_DELAY_MILLIS);
            long relocations = user.metrics().replication().managedRelocations();
            long replicas = user.metrics().replication().replicasCreated();
            // Rows 50..99, new to the manager, intended and read once per clock: they stay at node 0.
            for (int i = 0; i < 10; i++) {
                clock = readingClock(worker, view, rows(50 + i * PER_CLOCK), 1, clock);
            }
            Thread.sleep(200); // time enough for placements, had there been any
            for (long row = 50; row < HOMED_AT_0; row++) {
                assertThat(Internals.kindOf(user, table, row)).as("row %d at node 1", row).isNull();
                assertThat(Internals.kindOf(cluster.node(0), table, row)).as("row %d at node 0", row)
                        .isEqualTo(SlotKind.OWNED);
            }
            assertThat(user.metrics().replication().managedRelocations()).isEqualTo(relocations);
            assertThat(user.metrics().replication().replicasCreated()).isEqualTo(replicas);
        });
    }

    /**
     * Issue 13: once a worker reads a table, the intents that follow wait until its rate is known,
     * so a table read once per clock is never placed, not even before its rate is first measured
     * (word2vec's first epoch relocated thousands of rows, then left them).
     */
    @Test
    void issue13_keysOfATableReadOncePerClockAreNeverPlaced() throws Exception {
        onNodeOne((cluster, user, table, worker, view) -> {
            view.pull(rows(150), new float[PER_CLOCK * 2]); // reading has begun (rows homed here)
            long clock = 0;
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (user.metrics().replication().keysLeftInPlace() == 0) {
                assertThat(System.nanoTime()).as("keys left in place within %s", WITHIN).isLessThan(deadline);
                clock = readingClock(worker, view, rows(clock % 20 * PER_CLOCK), 1, clock);
            }
            Thread.sleep(5L * HomePlacement.DECISION_DELAY_MILLIS); // time enough for placements, had there been any
            assertThat(user.metrics().replication().managedRelocations()).isZero();
            assertThat(user.metrics().replication().replicasCreated()).isZero();
            for (long row = 0; row < HOMED_AT_0; row++) {
                assertThat(Internals.kindOf(user, table, row)).as("row %d at node 1", row).isNull();
            }
        });
    }

    /** Before a worker reads a table, its intents are placed as intended: it may wait for its keys first. */
    @Test
    void keysIntendedBeforeAnyReadArePlacedWithoutOne() throws Exception {
        onNodeOne((cluster, user, table, worker, view) -> {
            long[] used = rows(0);
            view.intent(used, 0, 100);
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (!Arrays.stream(used).allMatch(row -> Internals.kindOf(user, table, row) == SlotKind.OWNED)) {
                assertThat(System.nanoTime()).as("rows relocated within %s", WITHIN).isLessThan(deadline);
                Thread.sleep(5);
            }
        });
    }

    @Test
    void keysOfATableReadInManyCallsPerClockAreRelocatedWhereIntended() throws Exception {
        onNodeOne((cluster, user, table, worker, view) -> {
            long clock = 0;
            long deadline = System.nanoTime() + WITHIN.toNanos();
            long[] used = rows(0);
            // The same rows every clock, each read in a call of its own, 4 times: 20 calls per clock.
            while (!Arrays.stream(used).allMatch(row -> Internals.kindOf(user, table, row) == SlotKind.OWNED)) {
                assertThat(System.nanoTime()).as("rows relocated within %s", WITHIN).isLessThan(deadline);
                clock = readingClock(worker, view, used, 4 * PER_CLOCK, clock);
            }
            long measured = System.nanoTime() + Duration.ofMillis(500).toNanos(); // a few measurements
            while (System.nanoTime() - measured < 0) {
                clock = readingClock(worker, view, used, 4 * PER_CLOCK, clock);
            }
            assertThat(user.metrics().replication().keysLeftInPlace()).isZero();
        });
    }

    @Test
    void readsByGlobalKeysCountForEveryTableTheyTouch() throws Exception {
        onNodeOne((cluster, user, table, worker, view) -> {
            Table other = user.table("u");
            TableView otherView = worker.table("u");
            long[] used = rows(0);
            long[] both = new long[2];
            float[] values = new float[4];
            long deadline = System.nanoTime() + WITHIN.toNanos();
            long measured = Long.MAX_VALUE;
            // Intents per table, reads by global keys of both tables at once, 20 calls per clock:
            // "u" is read as often as "t", though it is never a call's first key.
            for (long clock = 0; System.nanoTime() - measured < 0; clock++) {
                assertThat(System.nanoTime()).as("rows of u relocated within %s", WITHIN).isLessThan(deadline);
                view.intent(used, clock, clock + 1);
                otherView.intent(used, clock, clock + 1);
                for (int i = 0; i < 4 * PER_CLOCK; i++) {
                    both[0] = table.firstKey() + used[i % PER_CLOCK];
                    both[1] = other.firstKey() + used[i % PER_CLOCK];
                    worker.pull(both, values);
                }
                Thread.sleep(2);
                worker.advanceClock();
                if (measured == Long.MAX_VALUE
                        && Arrays.stream(used).allMatch(row -> Internals.kindOf(user, other, row) == SlotKind.OWNED)) {
                    measured = System.nanoTime() + Duration.ofMillis(500).toNanos(); // a few measurements more
                }
            }
            assertThat(user.metrics().replication().keysLeftInPlace()).isZero();
        });
    }

    /**
     * One clock of a worker that intends {@code rows} for this clock and reads them in
     * {@code calls} pull calls (one call for all when 1, else one row per call, round robin);
     * returns the next clock.
     */
    private static long readingClock(Worker worker, TableView view, long[] rows, int calls, long clock)
            throws InterruptedException {
        view.intent(rows, clock, clock + 1);
        float[] values = new float[rows.length * 2];
        if (calls == 1) {
            view.pull(rows, values);
        } else {
            for (int i = 0; i < calls; i++) {
                view.pull(rows[i % rows.length], values, 0);
            }
        }
        Thread.sleep(2);
        worker.advanceClock();
        return clock + 1;
    }

    private static long[] rows(long from) {
        long[] rows = new long[PER_CLOCK];
        Arrays.setAll(rows, i -> from + i);
        return rows;
    }
}
