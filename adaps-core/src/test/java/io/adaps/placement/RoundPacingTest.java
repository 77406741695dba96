package io.adaps.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Rounds take at most their share of the manager thread, and come at least the minimum interval apart. */
class RoundPacingTest {

    @Test
    void aRoundWaitsThreeTimesItsDurationAtAQuarterShare() {
        RoundPacing pacing = new RoundPacing(0.25, 1_000);
        assertThat(pacing.due(0)).isTrue();
        pacing.ran(10_000, 4_000); // a 4 us round ending at 10 us: the next waits 12 us
        assertThat(pacing.due(21_999)).isFalse();
        assertThat(pacing.due(22_000)).isTrue();
    }

    @Test
    void tellsHowLongUntilTheNextRoundIsDueForTheManagerToParkThatLong() {
        RoundPacing pacing = new RoundPacing(0.25, 1_000);
        assertThat(pacing.untilDue(0)).isLessThanOrEqualTo(0);
        pacing.ran(10_000, 4_000);
        assertThat(pacing.untilDue(12_000)).isEqualTo(10_000);
        assertThat(pacing.untilDue(22_000)).isZero();
    }

    @Test
    void shortRoundsAreSpacedByTheMinimumInterval() {
        RoundPacing pacing = new RoundPacing(0.25, 1_000_000);
        pacing.ran(5_000_000, 10);
        assertThat(pacing.due(5_999_999)).isFalse();
        assertThat(pacing.due(6_000_000)).isTrue();
    }

    @Test
    void issue13_aRoundAWorkerAskedForKeepsTheNextPacedOneOnlyTheMinimumIntervalAway() {
        RoundPacing pacing = new RoundPacing(0.25, 1_000);
        pacing.ranOnRequest(50_000); // however long it took: a bsp clock's first round waits for the whole cluster
        assertThat(pacing.due(50_999)).isFalse();
        assertThat(pacing.due(51_000)).isTrue();

        pacing.ran(60_000, 40_000); // a paced round: the next waits its share, 120 us
        pacing.ranOnRequest(70_000);
        assertThat(pacing.untilDue(70_000)).isEqualTo(110_000);
    }

    @Test
    void aShareOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> new RoundPacing(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("share=0.0 (expected 0 < share <= 1)");
        assertThatThrownBy(() -> new RoundPacing(1.5, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
