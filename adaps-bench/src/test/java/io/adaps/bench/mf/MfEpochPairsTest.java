package io.adaps.bench.mf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class MfEpochPairsTest {
    @Test
    void theSummaryGivesTheMedianOfTheJvmsMediansTheirRangeAndTheMedianOfAllPairs() {
        String summary = MfEpochPairs.summary(List.of(new double[] {3.0, 1.0, 2.0}, new double[] {1.5},
                new double[] {1.2, 1.4}));

        // Medians 2.0, 1.5 and 1.3; all six pairs sorted: 1.0 1.2 1.4 1.5 2.0 3.0.
        assertThat(summary).contains("median of 3 JVMs' medians 1.500 (1.300-2.000)")
                .contains("median of all 6 pairs 1.450");
    }

    @Test
    void aSummaryWithoutRatiosNamesWhatIsMissing() {
        assertThatThrownBy(() -> MfEpochPairs.summary(List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ratiosPerJvm=[]");
        assertThatThrownBy(() -> MfEpochPairs.summary(List.of(new double[] {1.0}, new double[0])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ratios of JVM 2=[]");
    }

    @Test
    void badCountsAreRefusedByName() {
        assertThatThrownBy(() -> MfEpochPairs.main(new String[] {"0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("jvms=0 (expected a positive integer)");
        assertThatThrownBy(() -> MfEpochPairs.main(new String[] {"2", "x"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("pairs=x (expected a positive integer)");
        assertThatThrownBy(() -> MfEpochPairs.main(new String[] {"2", "3", "4"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("args=2 3 4 (expected [jvms] [pairs])");
    }
}
