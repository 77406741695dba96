package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

import org.junit.jupiter.api.Test;

import io.adaps.api.Technique;

/** The placement rule at a key's home, decision by decision. */
class HomeIntentsTest {
    private static final long KEY = 7;
    private static final int HOME = 0;
    /** Keys of tables whose nodes' clocks are kept in step ({@code bsp}). */
    private static final LongPredicate IN_STEP = key -> true;
    private final List<String> decided = new ArrayList<>();
    private final HomeIntents.Decisions record = (key, action, target, clock) -> decided.add(switch (action) {
        case HomeIntents.RELOCATE -> "relocate " + key + " to " + target;
        case HomeIntents.REPLICATE -> "replicate " + key + " to " + target;
        default -> "release " + key + " at " + target + " for clock " + clock;
    });

    /** An adaptive start of {@code node}'s intent for {@link #KEY} in clocks {@code [from, from + 4)}. */
    private void use(HomeIntents intents, int node, long from, int owner, long now) {
        intents.onStart(KEY, node, Technique.ADAPTIVE, from, from + 4, owner, true, now, record);
    }

    /** A start of {@code node}'s intent for clocks {@code [0, 10)}, concurrent with every other such start. */
    private void start(HomeIntents intents, long key, int node, Technique technique, int owner, boolean accumulates,
                       long now) {
        intents.onStart(key, node, technique, 0, 10, owner, accumulates, now, record);
    }

    @Test
    void intentOnOneNodeMovesTheKeyThereAtOnceWithoutDelay() {
        HomeIntents intents = new HomeIntents(4, 0, IN_STEP);
        start(intents, KEY, 2, Technique.ADAPTIVE, HOME, true, 0);
        assertThat(decided).containsExactly("relocate 7 to 2");
        assertThat(intents.nodes(KEY)).isEqualTo(1L << 2);
    }

    @Test
    void intentsThatArriveTogetherReplicateOnEachNonOwner() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        start(intents, KEY, 2, Technique.ADAPTIVE, HOME, true, 0);
        assertThat(decided).as("waits for others").isEmpty();
        start(intents, KEY, 3, Technique.ADAPTIVE, HOME, true, 10);
        assertThat(decided).containsExactly("replicate 7 to 2", "replicate 7 to 3");
        intents.releaseDue(100, key -> HOME, key -> true, record);
        assertThat(decided).hasSize(2);
        start(intents, KEY, HOME, Technique.ADAPTIVE, HOME, true, 20);
        assertThat(decided).as("the owner's own intent changes nothing").hasSize(2);
    }

    @Test
    void aDeferredRelocationHappensWhenDueIfTheIntentIsStillAlone() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        start(intents, KEY, 2, Technique.ADAPTIVE, HOME, true, 0);
        intents.releaseDue(49, key -> HOME, key -> true, record);
        assertThat(decided).isEmpty();
        assertThat(intents.hasDeferred()).isTrue();
        intents.releaseDue(50, key -> HOME, key -> true, record);
        assertThat(decided).containsExactly("relocate 7 to 2");
        assertThat(intents.hasDeferred()).isFalse();
    }

    @Test
    void issue13_anOwnerWhoseIntentStartsWhileTheKeyMovesAwayGetsAReplicaWhenItIsGranted() {
        HomeIntents intents = new HomeIntents(2, 50, key -> false);
        start(intents, KEY, 1, Technique.ADAPTIVE, HOME, true, 0);
        intents.releaseDue(50, key -> HOME, key -> true, record);
        assertThat(decided).containsExactly("relocate 7 to 1");
        start(intents, KEY, HOME, Technique.ADAPTIVE, HOME, true, 60); // the relocation is on its way
        assertThat(decided).as("the owner's start is decided with the owner it has").hasSize(1);
        intents.onGranted(KEY, 1, true, record);
        assertThat(decided).containsExactly("relocate 7 to 1", "replicate 7 to 0");
        intents.onGranted(KEY, 1, true, record);
        assertThat(decided).as("once").hasSize(2);
    }

    @Test
    void anOwnerWhoseIntentEndedOrDoesNotReplicateGetsNoReplicaWhenItsKeyIsGranted() {
        HomeIntents intents = new HomeIntents(3, 0, key -> false);
        start(intents, KEY, HOME, Technique.ADAPTIVE, HOME, true, 0);
        start(intents, KEY, 2, Technique.RELOCATION_ONLY, HOME, true, 0);
        intents.onEnd(KEY, HOME, HOME, 10, record);
        intents.onGranted(KEY, 2, true, record);
        assertThat(decided).containsExactly("relocate 7 to 2");
        start(intents, 8, 1, Technique.RELOCATION_ONLY, 1, true, 20);
        start(intents, 8, 2, Technique.RELOCATION_ONLY, 1, true, 20);
        intents.onGranted(8, 2, true, record);
        assertThat(decided).as("a relocation-only owner is moved to, not replicated").endsWith("relocate 8 to 2");
        start(intents, 9, 1, Technique.ADAPTIVE, 1, false, 30);
        start(intents, 9, 2, Technique.RELOCATION_ONLY, 1, false, 30);
        intents.onGranted(9, 2, false, record);
        assertThat(decided).as("no replicas of a rule that does not accumulate").endsWith("relocate 9 to 2");
    }

    @Test
    void anIntentThatEndsBeforeItsRelocationIsDueMovesNothing() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        start(intents, KEY, 2, Technique.ADAPTIVE, HOME, true, 0);
        intents.onEnd(KEY, 2, HOME, 0, record);
        intents.releaseDue(100, key -> HOME, key -> true, record);
        assertThat(decided).isEmpty();
        assertThat(intents.nodes(KEY)).isZero();
    }

    @Test
    void theOtherTechniquesFollowTheirOwnRules() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        start(intents, 1, 2, Technique.RELOCATION_ONLY, HOME, true, 0);
        start(intents, 2, 2, Technique.REPLICATION_ONLY, HOME, true, 0);
        start(intents, 3, 2, Technique.REPLICATION_ONLY, HOME, false, 0);
        start(intents, 4, 2, Technique.STATIC, HOME, true, 0);
        start(intents, 5, 2, Technique.FULL_REPLICATION, HOME, true, 0);
        assertThat(decided).containsExactly("relocate 1 to 2", "replicate 2 to 2");
    }

    @Test
    void keysWhoseRuleDoesNotAccumulateAreNeverReplicated() {
        HomeIntents intents = new HomeIntents(4, 0, IN_STEP);
        start(intents, KEY, 2, Technique.ADAPTIVE, HOME, false, 0);
        start(intents, KEY, 3, Technique.ADAPTIVE, 2, false, 0);
        assertThat(decided).containsExactly("relocate 7 to 2");
    }

    @Test
    void aStartAfterTheOnlyOtherNodesIntentEndsIsAHandOffNotAReplica() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        int owner = 1;
        use(intents, 1, 0, owner, 0);
        use(intents, 2, 4, owner, 10);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4");
        assertThat(intents.waiting(KEY)).isEqualTo(2);
        intents.onEnd(KEY, 1, owner, 0, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "relocate 7 to 2");
        assertThat(intents.waiting(KEY)).isEqualTo(-1);
        assertThat(intents.nodes(KEY)).isEqualTo(1L << 2);

        decided.clear();
        owner = 2;
        use(intents, 1, 8, owner, 20);
        assertThat(decided).as("and back").containsExactly("release 7 at 2 for clock 8");
        intents.onEnd(KEY, 2, owner, 0, record);
        assertThat(decided).containsExactly("release 7 at 2 for clock 8", "relocate 7 to 1");
    }

    @Test
    void aHandOffToTheOwnerOnlyReleasesTheOtherNode() {
        HomeIntents intents = new HomeIntents(4, 0, IN_STEP);
        use(intents, 1, 0, HOME, 0);
        decided.clear();
        use(intents, HOME, 4, HOME, 0);
        intents.onEnd(KEY, 1, HOME, 0, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4");
    }

    @Test
    void aHandOffReleasesTheEarlierNodesDeferredRelocationAtOnce() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 1, 0, HOME, 0);
        use(intents, 2, 4, HOME, 10);
        assertThat(decided).containsExactly("relocate 7 to 1", "release 7 at 1 for clock 4");
        assertThat(intents.nextDue()).as("only the hand-off's limit waits").isEqualTo(10 + 50 * HomeIntents.HANDOFF_DELAYS);
    }

    @Test
    void theLaterNodesStartArrivingFirstIsAHandOffTheOtherWay() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 2, 4, HOME, 0);
        assertThat(decided).as("deferred").isEmpty();
        use(intents, 1, 0, HOME, 1);
        assertThat(decided).containsExactly("relocate 7 to 1", "release 7 at 1 for clock 4");
        assertThat(intents.waiting(KEY)).isEqualTo(2);
        intents.onEnd(KEY, 1, 1, 0, record);
        assertThat(decided).containsExactly("relocate 7 to 1", "release 7 at 1 for clock 4", "relocate 7 to 2");
    }

    @Test
    void anEarlierStartTakesTheKeyFromANodeThatUsesItLater() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        int owner = 2;
        use(intents, 2, 8, owner, 0);
        use(intents, 1, 0, owner, 1);
        assertThat(decided).containsExactly("relocate 7 to 1", "release 7 at 1 for clock 8");
    }

    @Test
    void nodesThatAnnounceSeveralUsesAheadAreHandedTheKeyInTheOrderOfTheirClocks() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 0, 0, 0, 0);
        use(intents, 2, 8, 0, 1);
        use(intents, 1, 4, 0, 2);
        assertThat(decided).containsExactly("release 7 at 0 for clock 8", "release 7 at 0 for clock 4");
        intents.onEnd(KEY, 0, 0, 3, record);
        assertThat(decided).endsWith("relocate 7 to 1", "release 7 at 1 for clock 8");
        intents.onEnd(KEY, 1, 1, 4, record);
        assertThat(decided).endsWith("relocate 7 to 2");
        assertThat(intents.waiting(KEY)).isEqualTo(-1);
    }

    @Test
    void anOverlapReplicatesForTheWaitingNode() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        int owner = 1;
        use(intents, 1, 0, owner, 0);
        use(intents, 2, 4, owner, 10);
        intents.onOverlap(KEY, 1, 4, owner, true, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "replicate 7 to 2");
        intents.onEnd(KEY, 1, owner, 0, record);
        assertThat(decided).as("no hand-off waits any more").hasSize(2);

        decided.clear();
        use(intents, 3, 4, owner, 20);
        assertThat(decided).as("2's intent has no end clock that 3 follows").containsExactly("replicate 7 to 3");
    }

    /**
     * Issue 13 (a CI run replicated every column block of the blocked schedule): a release that
     * reaches the earlier node only after its next use of the key began is answered with an
     * overlap for the release's clock; by then the home has moved the key on, and the overlap
     * must not turn the sequence into replicas.
     */
    @Test
    void anOverlapThatAnswersAnOvertakenReleaseChangesNothing_issue13() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 1, 0, 1, 0);
        use(intents, 2, 4, 1, 10);
        intents.onEnd(KEY, 1, 1, 20, record);
        use(intents, 1, 8, 2, 30); // node 1's next use, after node 2's
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "relocate 7 to 2",
                "release 7 at 2 for clock 8");
        intents.onOverlap(KEY, 1, 4, 2, true, record); // the first release's late answer
        assertThat(decided).hasSize(3);
        intents.onOverlap(KEY, 2, 4, 2, true, record); // a clock that is not the waiting node's start
        assertThat(decided).hasSize(3);
        assertThat(intents.waiting(KEY)).isEqualTo(1);
        intents.onOverlap(KEY, 2, 8, 2, true, record);
        assertThat(decided).endsWith("replicate 7 to 1");
    }

    /**
     * Issue 13 (a CI run of HandOffTest left the block with node 1 while node 0 waited for it): node
     * 0's start arrived only after node 2's end had sent the key on to node 1, which uses it after
     * node 0; the home then sends it to node 0, but node 1's request reaches the directory last.
     */
    @Test
    void aRelocationThatCrossesAnEarlierNodesGoesBackToThatNode_issue13() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 2, 8, 2, 0);
        use(intents, 1, 16, 2, 10);
        intents.onEnd(KEY, 2, 2, 20, record);
        use(intents, 0, 12, 2, 30); // late: node 1 was told to take the key already
        assertThat(decided).containsExactly("release 7 at 2 for clock 16", "relocate 7 to 1", "relocate 7 to 0",
                "release 7 at 0 for clock 16");
        intents.onGranted(KEY, 0, true, record);
        assertThat(decided).as("granted where it should go").hasSize(4);
        intents.onGranted(KEY, 1, true, record); // node 1's request came last
        assertThat(decided).endsWith("relocate 7 to 0");
        intents.onGranted(KEY, 3, true, record); // a node without intent (a localize by hand) is left alone
        assertThat(decided).hasSize(5);
    }

    @Test
    void aHandOffNotDoneInTimeReplicatesAndStillMovesTheKeyWhenTheEarlierNodeLetsGo() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        int owner = 1;
        use(intents, 1, 0, owner, 0);
        use(intents, 2, 4, owner, 10);
        assertThat(intents.nextDue()).isEqualTo(10 + 50 * HomeIntents.HANDOFF_DELAYS);
        intents.releaseDue(10 + 50 * HomeIntents.HANDOFF_DELAYS - 1, key -> owner, key -> true, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4");
        intents.releaseDue(10 + 50 * HomeIntents.HANDOFF_DELAYS, key -> owner, key -> true, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "replicate 7 to 2");
        assertThat(intents.hasDeferred()).isFalse();
        intents.onEnd(KEY, 1, owner, 0, record);
        assertThat(decided).as("the replica becomes the owner")
                .containsExactly("release 7 at 1 for clock 4", "replicate 7 to 2", "relocate 7 to 2");
    }

    @Test
    void aHandOffNotDoneInTimeOfAKeyThatCannotBeReplicatedWaitsOn() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        intents.onStart(KEY, 1, Technique.ADAPTIVE, 0, 4, 1, false, 0, record);
        intents.onStart(KEY, 2, Technique.ADAPTIVE, 4, 8, 1, false, 10, record);
        intents.releaseDue(1_000, key -> 1, key -> false, record);
        intents.onEnd(KEY, 1, 1, 0, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "relocate 7 to 2");
    }

    @Test
    void aThirdNodeDuringAHandOffMakesTheUseConcurrent() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        int owner = 1;
        use(intents, 1, 0, owner, 0);
        use(intents, 2, 4, owner, 10);
        use(intents, 3, 4, owner, 11);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4", "replicate 7 to 2", "replicate 7 to 3");
        intents.onEnd(KEY, 1, owner, 0, record);
        assertThat(decided).hasSize(3);
    }

    @Test
    void theWaitingNodeGivingUpEndsTheHandOff() {
        HomeIntents intents = new HomeIntents(4, 50, IN_STEP);
        use(intents, 1, 0, 1, 0);
        use(intents, 2, 4, 1, 10);
        intents.onEnd(KEY, 2, 1, 0, record);
        intents.onEnd(KEY, 1, 1, 0, record);
        assertThat(decided).containsExactly("release 7 at 1 for clock 4");
        assertThat(intents.nodes(KEY)).isZero();
    }

    @Test
    void overlappingClocksOrOtherTechniquesAreNoHandOff() {
        HomeIntents intents = new HomeIntents(4, 0, IN_STEP);
        intents.onStart(1, 1, Technique.ADAPTIVE, 0, 5, 1, true, 0, record);
        intents.onStart(1, 2, Technique.ADAPTIVE, 4, 8, 1, true, 0, record);
        intents.onStart(2, 1, Technique.REPLICATION_ONLY, 0, 4, 1, true, 0, record);
        intents.onStart(2, 2, Technique.REPLICATION_ONLY, 4, 8, 1, true, 0, record);
        intents.onStart(3, 1, Technique.ADAPTIVE, Long.MIN_VALUE, Long.MAX_VALUE, 1, true, 0, record);
        intents.onStart(3, 2, Technique.ADAPTIVE, 4, 8, 1, true, 0, record);
        assertThat(decided).containsExactly("replicate 1 to 2", "replicate 2 to 2", "replicate 3 to 2");
    }

    @Test
    void aStartAfterNodesThatUseTheKeyAtOnceIsConcurrentUseNotASequence() {
        HomeIntents intents = new HomeIntents(4, 0, IN_STEP);
        intents.onStart(KEY, 1, Technique.ADAPTIVE, 0, 8, HOME, true, 0, record);
        intents.onStart(KEY, 2, Technique.ADAPTIVE, 4, 12, HOME, true, 0, record);
        decided.clear();
        use(intents, 3, 20, HOME, 0);
        assertThat(decided).containsExactly("replicate 7 to 3");
        assertThat(intents.waiting(KEY)).isEqualTo(-1);
    }

    @Test
    void issue13_intentsOneAfterTheOtherUnderAStaleModelAreConcurrentUse() {
        HomeIntents intents = new HomeIntents(4, 0, key -> false); // essp:4, as the mf example's Hogwild schedule
        int owner = 1;
        use(intents, 1, 4, owner, 0); // clocks [4, 8)
        use(intents, 2, 8, owner, 0); // [8, 12): node 2 may start clock 8 while node 1 is at 4
        assertThat(decided).containsExactly("replicate 7 to 2");
        assertThat(intents.waiting(KEY)).isEqualTo(-1);
        decided.clear();
        use(intents, 3, 100, owner, 0); // far apart: still no turns, a replica lingers where a sequence moves
        assertThat(decided).containsExactly("replicate 7 to 3");
        intents.onEnd(KEY, 1, owner, 0, record);
        assertThat(decided).as("no hand-off when the owner's intent ends").containsExactly("replicate 7 to 3");
    }

    @Test
    void endClocksAreForgottenWithTheLastIntent() {
        HomeIntents intents = new HomeIntents(2, 0, IN_STEP);
        for (long key = 0; key < 1000; key++) {
            intents.onStart(key, 0, Technique.ADAPTIVE, 0, 100, 1, true, 0, record);
        }
        for (long key = 0; key < 1000; key++) {
            intents.onEnd(key, 0, 0, 0, record);
        }
        decided.clear();
        intents.onStart(5, 0, Technique.ADAPTIVE, 200, 300, 0, true, 0, record);
        intents.onStart(5, 1, Technique.ADAPTIVE, 300, 400, 0, true, 0, record);
        assertThat(decided).as("a new intent's end clock, not the old one's").containsExactly("release 5 at 0 for clock 300");
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new HomeIntents(65, 0, IN_STEP)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("clusterSize=65 (expected 1..64)");
        assertThatThrownBy(() -> new HomeIntents(2, -1, IN_STEP)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delayNanos=-1 (expected >= 0)");
    }
}
