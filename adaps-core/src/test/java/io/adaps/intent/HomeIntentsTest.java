package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.adaps.api.Technique;

/** The placement rule at a key's home, decision by decision. */
class HomeIntentsTest {
    private static final long KEY = 7;
    private static final int HOME = 0;
    private final List<String> decided = new ArrayList<>();
    private final HomeIntents.Decisions record = (key, action, target) ->
            decided.add((action == HomeIntents.RELOCATE ? "relocate " : "replicate ") + key + " to " + target);

    @Test
    void intentOnOneNodeMovesTheKeyThereAtOnceWithoutDelay() {
        HomeIntents intents = new HomeIntents(4, 0);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, false, HOME, true, 0, record);
        assertThat(decided).containsExactly("relocate 7 to 2");
        assertThat(intents.nodes(KEY)).isEqualTo(1L << 2);
    }

    @Test
    void intentsThatArriveTogetherReplicateOnEachNonOwner() {
        HomeIntents intents = new HomeIntents(4, 50);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, false, HOME, true, 0, record);
        assertThat(decided).as("waits for others").isEmpty();
        intents.onIntent(KEY, 3, Technique.ADAPTIVE, false, HOME, true, 10, record);
        assertThat(decided).containsExactly("replicate 7 to 2", "replicate 7 to 3");
        intents.releaseDue(100, key -> HOME, record);
        assertThat(decided).hasSize(2);
        intents.onIntent(KEY, HOME, Technique.ADAPTIVE, false, HOME, true, 20, record);
        assertThat(decided).as("the owner's own intent changes nothing").hasSize(2);
    }

    @Test
    void aDeferredRelocationHappensWhenDueIfTheIntentIsStillAlone() {
        HomeIntents intents = new HomeIntents(4, 50);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, false, HOME, true, 0, record);
        intents.releaseDue(49, key -> HOME, record);
        assertThat(decided).isEmpty();
        assertThat(intents.hasDeferred()).isTrue();
        intents.releaseDue(50, key -> HOME, record);
        assertThat(decided).containsExactly("relocate 7 to 2");
        assertThat(intents.hasDeferred()).isFalse();
    }

    @Test
    void anIntentThatEndsBeforeItsRelocationIsDueMovesNothing() {
        HomeIntents intents = new HomeIntents(4, 50);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, false, HOME, true, 0, record);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, true, HOME, true, 10, record);
        intents.releaseDue(100, key -> HOME, record);
        assertThat(decided).isEmpty();
        assertThat(intents.nodes(KEY)).isZero();
    }

    @Test
    void theOtherTechniquesFollowTheirOwnRules() {
        HomeIntents intents = new HomeIntents(4, 50);
        intents.onIntent(1, 2, Technique.RELOCATION_ONLY, false, HOME, true, 0, record);
        intents.onIntent(2, 2, Technique.REPLICATION_ONLY, false, HOME, true, 0, record);
        intents.onIntent(3, 2, Technique.REPLICATION_ONLY, false, HOME, false, 0, record);
        intents.onIntent(4, 2, Technique.STATIC, false, HOME, true, 0, record);
        intents.onIntent(5, 2, Technique.FULL_REPLICATION, false, HOME, true, 0, record);
        assertThat(decided).containsExactly("relocate 1 to 2", "replicate 2 to 2");
    }

    @Test
    void keysWhoseRuleDoesNotAccumulateAreNeverReplicated() {
        HomeIntents intents = new HomeIntents(4, 0);
        intents.onIntent(KEY, 2, Technique.ADAPTIVE, false, HOME, false, 0, record);
        intents.onIntent(KEY, 3, Technique.ADAPTIVE, false, 2, false, 0, record);
        assertThat(decided).containsExactly("relocate 7 to 2");
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new HomeIntents(65, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("clusterSize=65 (expected 1..64)");
        assertThatThrownBy(() -> new HomeIntents(2, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delayNanos=-1 (expected >= 0)");
    }
}
