package io.adaps.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Under an eager model a node's rounds come every half bound of its workers' clocks, at least 1 and at most 2. */
class EagerRoundClocksTest {

    @Test
    void halfTheBoundAtLeastOne() {
        assertThat(AdaptiveManager.eagerRoundClocks(0)).isEqualTo(1);
        assertThat(AdaptiveManager.eagerRoundClocks(1)).isEqualTo(1);
        assertThat(AdaptiveManager.eagerRoundClocks(3)).isEqualTo(1);
        assertThat(AdaptiveManager.eagerRoundClocks(4)).isEqualTo(2);
    }

    /** Issue 13: under essp:16 rounds every 8 clocks let 4 nodes' replicas drift apart for an epoch, and MF diverged. */
    @Test
    void issue13_aLargeBoundStillGetsARoundEveryTwoClocks() {
        assertThat(AdaptiveManager.eagerRoundClocks(16)).isEqualTo(AdaptiveManager.MAX_EAGER_ROUND_CLOCKS);
        assertThat(AdaptiveManager.eagerRoundClocks(1 << 20)).isEqualTo(2);
    }
}
