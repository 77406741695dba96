package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.adaps.api.AdaPS;
import org.junit.jupiter.api.Test;

class ClusterRmseTest {
    @Test
    void eachRoundCombinesItsOwnSums() {
        try (AdaPS node = AdaPS.builder().table(ClusterRmse.spec(3)).build()) {
            ClusterRmse rmse = new ClusterRmse(node);
            ClusterRmse.Rmse first = rmse.combine(0, 8.0, 2, 27.0, 3);
            assertThat(first.train()).isCloseTo(2.0, offset(1e-6));
            assertThat(first.test()).isCloseTo(3.0, offset(1e-6));

            // A later round starts from zero: nothing of round 0 is left in it.
            ClusterRmse.Rmse second = rmse.combine(1, 0.25, 4, 1.0, 1);
            assertThat(second.train()).isCloseTo(0.25, offset(1e-6));
            assertThat(second.test()).isCloseTo(1.0, offset(1e-6));

            assertThat(rmse.combine(2, 0, 0, 0, 0).test()).isNaN();
        }
    }

    @Test
    void refusesBadArguments() {
        assertThatThrownBy(() -> ClusterRmse.spec(0)).hasMessage("rounds=0 (expected > 0)");
        try (AdaPS node = AdaPS.builder().table(ClusterRmse.spec(1)).build()) {
            ClusterRmse rmse = new ClusterRmse(node);
            assertThatThrownBy(() -> rmse.combine(1, 1, 1, 1, 1)).hasMessageStartingWith("row=1 (expected 0..0");
            assertThatThrownBy(() -> rmse.combine(0, 1, -1, 1, 1)).hasMessage("trainEntries=-1 (expected >= 0)");
        }
    }
}
