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
 * add {@code -Dadaps.trace=true} to print every operation and delivery.
 *
 * <p>The invariants hold trivially for a protocol that never moves anything, so every
 * {@link Technique#RELOCATION_ONLY} test also requires that rows did move: some row ends away from
 * its home in every seed. Under {@link Technique#STATIC} no row may move.
 */
class RelocationProtocolTest {
    private static final Long ONLY_SEED = Long.getLong("adaps.seed");
    private static final boolean TRACE = Boolean.getBoolean("adaps.trace");

    /** Links deliver in order, as the transport contract promises. */
    @Test
    void additiveUpdatesOverInOrderLinks() {
        runSeeds(200, false, UpdateRules.add(), Technique.RELOCATION_ONLY);
    }

    /** Links may reorder messages: beyond the contract, but the protocol claims to stay correct. */
    @Test
    void additiveUpdatesOverReorderingLinks() {
        runSeeds(200, true, UpdateRules.add(), Technique.RELOCATION_ONLY);
    }

    /** Adagrad's accumulator must move with its row: pulls and final values match a serial replay. */
    @Test
    void adagradStateTravelsWithItsRow() {
        UpdateRule adagrad = UpdateRules.adagrad(0.5f, 1e-3f);
        runSeeds(40, false, adagrad, Technique.RELOCATION_ONLY);
        runSeeds(40, true, adagrad, Technique.RELOCATION_ONLY);
    }

    /** The same schedules on the classic parameter server: localize completes and moves nothing. */
    @Test
    void staticTechniqueKeepsEveryRowAtHome() {
        runSeeds(50, false, UpdateRules.add(), Technique.STATIC);
        runSeeds(50, true, UpdateRules.add(), Technique.STATIC);
    }

    private static void runSeeds(int seeds, boolean reorderWithinLink, UpdateRule rule, Technique technique) {
        List<Long> stayedHome = new ArrayList<>();
        List<Long> moved = new ArrayList<>();
        long localizes = 0;
        for (long seed : ONLY_SEED != null ? new long[] {ONLY_SEED} : LongStream.range(0, seeds).toArray()) {
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
