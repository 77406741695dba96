package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.placement.AdaptiveManager;
import io.adaps.placement.HomePlacement;
import io.adaps.store.SlotKind;
import io.adaps.testing.Concurrently;

/**
 * The adaptive manager's timing decisions follow the node's clock, not the wall clock: with the
 * clock stopped, a relocation waits at the home for its decision delay and a replica whose intent
 * ended lingers, however long the test waits in real time; moving the clock past the delay or
 * the linger period lets them happen.
 */
class ControlledClockTest {
    private static final AtomicInteger PORTS = new AtomicInteger(50_000);
    /** Real time the test lets pass to show that nothing happens while the clock stands still. */
    private static final long STILL_MILLIS = 300;
    /** Rows homed at node 0 that nodes 1 and 2 use together: replicated there. */
    private static final long[] SHARED_ROWS = {4, 5};
    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<AdaPS> nodes = new ArrayList<>();

    @AfterEach
    void close() {
        nodes.forEach(AdaPS::close);
    }

    private void start(int count) throws InterruptedException {
        start(count, Consistency.asp());
    }

    private void start(int count, Consistency consistency) throws InterruptedException {
        InJvmNetwork network = new InJvmNetwork();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            addresses.add("injvm:" + PORTS.getAndIncrement());
        }
        AdaPS[] started = new AdaPS[count];
        try {
            Concurrently.run(count, Duration.ofSeconds(30), id -> started[id] = NodeBootstrap.start(AdaPS.builder()
                    .table(TableSpec.of("t", 30, 2).withConsistency(consistency)).technique(Technique.ADAPTIVE)
                    .nodeId(id).peers(addresses).transport(new InJvmTransport(network)).settings(), clock));
        } finally {
            for (AdaPS node : started) {
                if (node != null) {
                    nodes.add(node);
                }
            }
        }
    }

    @Test
    void aRelocationWaitsAtTheHomeForItsDecisionDelayOnTheNodesClock() throws Exception {
        start(2);
        Table table = nodes.get(0).table("t");
        long[] rows = {1, 2, 3}; // homed at node 0
        Worker worker = nodes.get(1).worker();
        worker.table("t").intent(rows, 0, 100);

        Thread.sleep(STILL_MILLIS);
        for (long row : rows) {
            assertThat(Internals.kindOf(nodes.get(0), table, row)).as("row %d at its home", row).isEqualTo(SlotKind.OWNED);
        }

        clock.advance(TimeUnit.MILLISECONDS.toNanos(HomePlacement.DECISION_DELAY_MILLIS));
        awaitTrue("rows moved to node 1", () -> allOwnedBy(1, table, rows));
        worker.close();
    }

    @Test
    void aReplicaWhoseIntentEndedLingersUntilTheNodesClockMovesOn() throws Exception {
        start(3);
        Table table = nodes.get(0).table("t");
        Worker[] workers = replicateOnNodes1And2(table, 1);

        for (Worker worker : workers) {
            worker.advanceClock(); // the intents end: the keys linger
        }
        Thread.sleep(STILL_MILLIS);
        assertThat(allHeldAs(SlotKind.REPLICA, table, SHARED_ROWS, 1, 2)).as("replicas kept while the clock stands")
                .isTrue();

        // Past the longest linger, and again every half second: on a busy machine a manager may
        // take in the intents' end only after the jump, and then lingers from there.
        long[] checks = {0};
        awaitTrue("replicas dropped", () -> {
            if (checks[0]++ % 100 == 0) {
                clock.advance(TimeUnit.SECONDS.toNanos(6));
            }
            return allHeldAs(null, table, SHARED_ROWS, 1, 2);
        });
        for (Worker worker : workers) {
            worker.close();
        }
    }

    /**
     * Issue 13: under an eager model the workers' clocks run the rounds, and a paced round only
     * comes after {@link AdaptiveManager#EAGER_ROUND_INTERVAL_MILLIS} ms per clock between eager
     * rounds ({@link AdaptiveManager#eagerRoundClocks}, 2 under {@code essp:4}) without one; under the
     * others rounds are paced at least {@link AdaptiveManager#ROUND_INTERVAL_MICROS} us apart.
     * Replicas held, clocks standing: moving the node's clock by the short interval runs a round
     * under {@code asp}, not under {@code essp}, and the eager interval runs one.
     */
    @Test
    void issue13EagerModelPacesRoundsOnlyAfterItsLongerInterval() throws Exception {
        for (Consistency consistency : new Consistency[] {Consistency.asp(), Consistency.essp(4)}) {
            start(3, consistency);
            Worker[] workers = replicateOnNodes1And2(nodes.get(0).table("t"), 1_000);
            Thread.sleep(STILL_MILLIS); // the rounds due at the replicas' creation run
            long settled = rounds(1);
            Thread.sleep(STILL_MILLIS);
            assertThat(rounds(1)).as("%s: rounds while the clock stands", consistency).isEqualTo(settled);

            clock.advance(TimeUnit.MICROSECONDS.toNanos(2 * AdaptiveManager.ROUND_INTERVAL_MICROS));
            if (consistency.isEager()) {
                Thread.sleep(STILL_MILLIS);
                assertThat(rounds(1)).as("%s: rounds 2 ms after the last", consistency).isEqualTo(settled);
                clock.advance(TimeUnit.MILLISECONDS.toNanos(AdaptiveManager.EAGER_ROUND_INTERVAL_MILLIS - 1));
                Thread.sleep(STILL_MILLIS);
                assertThat(rounds(1)).as("%s: rounds 21 ms after the last (20 ms per clock between rounds)",
                        consistency).isEqualTo(settled);
                clock.advance(TimeUnit.MILLISECONDS.toNanos(AdaptiveManager.EAGER_ROUND_INTERVAL_MILLIS
                        * (AdaptiveManager.eagerRoundClocks(consistency.staleness()) - 1) + 1));
            }
            awaitTrue(consistency + ": a paced round", () -> rounds(1) > settled);
            for (Worker worker : workers) {
                worker.close();
            }
            close();
            nodes.clear();
        }
    }

    /**
     * Issue 13: under {@code essp:4} an eager round comes when the node's workers have advanced
     * two clocks since the last round ({@link AdaptiveManager#eagerRoundClocks}), not at every
     * clock. The node's clock stands still, so no paced round interferes.
     */
    @Test
    void issue13EagerRoundsComeEveryHalfBoundOfTheWorkersClocks() throws Exception {
        start(3, Consistency.essp(4));
        Worker[] workers = replicateOnNodes1And2(nodes.get(0).table("t"), 1_000);
        Thread.sleep(STILL_MILLIS);
        long settled = rounds(1);
        for (Worker worker : workers) {
            worker.advanceClock();
        }
        Thread.sleep(STILL_MILLIS);
        assertThat(rounds(1)).as("rounds after one clock").isEqualTo(settled);
        for (Worker worker : workers) {
            worker.advanceClock();
        }
        awaitTrue("a round after two", () -> rounds(1) > settled);
        for (Worker worker : workers) {
            worker.close();
        }
    }

    /** Workers of nodes 1 and 2 signal intent for {@link #SHARED_ROWS}, replicated there: returns them. */
    private Worker[] replicateOnNodes1And2(Table table, long toClock) throws InterruptedException {
        Worker[] workers = {nodes.get(1).worker(), nodes.get(2).worker()};
        for (Worker worker : workers) {
            worker.table("t").intent(SHARED_ROWS, 0, toClock);
        }
        awaitTrue("replicas on nodes 1 and 2", () -> allHeldAs(SlotKind.REPLICA, table, SHARED_ROWS, 1, 2));
        return workers;
    }

    private long rounds(int node) {
        return nodes.get(node).metrics().replication().syncRounds();
    }

    private boolean allOwnedBy(int node, Table table, long[] rows) {
        for (long row : rows) {
            if (Internals.kindOf(nodes.get(node), table, row) != SlotKind.OWNED) {
                return false;
            }
        }
        return true;
    }

    private boolean allHeldAs(SlotKind kind, Table table, long[] rows, int... on) {
        for (int node : on) {
            for (long row : rows) {
                if (Internals.kindOf(nodes.get(node), table, row) != kind) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Waits, in real time, for what the manager threads do once the clock allows it. */
    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what + " within 20 s").isNegative();
            Thread.sleep(5);
        }
    }
}
