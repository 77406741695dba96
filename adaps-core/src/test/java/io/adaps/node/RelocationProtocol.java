package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.adaps.api.Technique;
import io.adaps.api.UpdateRule;
import io.adaps.api.UpdateRules;

/**
 * The relocation protocol (LOCALIZE to the home, RELINQUISH to the owner, HANDOVER to the
 * requester; requests forwarded to the holder, queued while a row is on its way) under many
 * random interleavings of messages between different pairs of nodes: each seed is one
 * {@link RelocationRun}, which says what is checked. Runs are deterministic per seed; a failure
 * prints the seed, the step and the latest events. Rerun one seed with {@code -Dadaps.seed=N}, and
 * add {@code -Dadaps.trace=true} to print every operation and delivery. (A failure that depends on
 * state the test's thread carried over from earlier seeds, such as a node's per-thread cache,
 * shows only when the seeds before it run too.)
 *
 * <p>The invariants hold trivially for a protocol that never moves anything, so every
 * {@link Technique#RELOCATION_ONLY} test also requires that rows did move: some row ends away from
 * its home in every seed. Under {@link Technique#STATIC} no row may move.
 *
 * <p>Written once and run at two sizes: a few hundred seeds as a unit test, thousands of other
 * seeds as an integration test.
 */
abstract class RelocationProtocol {
    private static final Long ONLY_SEED = Long.getLong("adaps.seed");
    private static final boolean TRACE = Boolean.getBoolean("adaps.trace");

    /** The first seed of each test's range. */
    abstract long firstSeed();

    /** Seeds per link mode of the additive tests; the others run fewer. */
    abstract int seeds();

    /** Links deliver in order, as the transport contract promises. */
    @Test
    void additiveUpdatesOverInOrderLinks() {
        runSeeds(seeds(), false, UpdateRules.add(), Technique.RELOCATION_ONLY);
    }

    /** Links may reorder messages: beyond the contract, but the protocol claims to stay correct. */
    @Test
    void additiveUpdatesOverReorderingLinks() {
        runSeeds(seeds(), true, UpdateRules.add(), Technique.RELOCATION_ONLY);
    }

    /** Adagrad's accumulator must move with its row: pulls and final values match a serial replay. */
    @Test
    void adagradStateTravelsWithItsRow() {
        UpdateRule adagrad = UpdateRules.adagrad(0.5f, 1e-3f);
        runSeeds(seeds() / 5, false, adagrad, Technique.RELOCATION_ONLY);
        runSeeds(seeds() / 5, true, adagrad, Technique.RELOCATION_ONLY);
    }

    /** The same schedules on the classic parameter server: localize completes and moves nothing. */
    @Test
    void staticTechniqueKeepsEveryRowAtHome() {
        runSeeds(seeds() / 4, false, UpdateRules.add(), Technique.STATIC);
        runSeeds(seeds() / 4, true, UpdateRules.add(), Technique.STATIC);
    }

    private void runSeeds(int seeds, boolean reorderWithinLink, UpdateRule rule, Technique technique) {
        List<Long> stayedHome = new ArrayList<>();
        List<Long> moved = new ArrayList<>();
        long localizes = 0;
        long[] range = LongStream.range(firstSeed(), firstSeed() + seeds).toArray();
        for (long seed : ONLY_SEED != null ? new long[] {ONLY_SEED} : range) {
            RelocationRun.Outcome outcome = new RelocationRun(seed, reorderWithinLink, rule, technique, TRACE).run();
            localizes += outcome.localizes();
            (outcome.rowsAway() == 0 ? stayedHome : moved).add(seed);
        }
        assertThat(localizes).isPositive();
        if (technique == Technique.STATIC) {
            assertThat(moved).as("seeds (reorderWithinLink=%s) after which some row was away from its home under STATIC",
                    reorderWithinLink).isEmpty();
        } else {
            assertThat(stayedHome)
                    .as("seeds (reorderWithinLink=%s, rule=%s) after which every row was at its home node, though %d"
                            + " localizes were started: has relocation been implemented?", reorderWithinLink, rule, localizes)
                    .isEmpty();
        }
    }
}
