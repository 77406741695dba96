package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class EpochResultTest {
    @Test
    void parsesTheLineOfASingleNode() {
        assertThat(EpochResult.parse("RESULT epoch=3 seconds=4.512 rmse=0.123457 local=0.9731 bytes=123456789"))
                .contains(new EpochResult(3, 4.512, 0.123457, 0.9731, 123_456_789L));
    }

    @Test
    void parsesNodeZerosLineUnderTheLauncherAndSkipsEverythingElse() {
        List<String> output = List.of(
                "[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique ADAPTIVE",
                "[node 0] epoch   1:  10.00 s,  0.36 M entries/s,  50.0% local,  0.50 s eval, train RMSE 0.3, test RMSE 0.3",
                "[node 0] RESULT epoch=1 seconds=10.000 rmse=0.300000 local=0.5000 bytes=1000",
                "[node 1] RESULT epoch=1 seconds=9.000 rmse=0.300000 local=0.5000 bytes=999",
                "RESULT epoch=x seconds=1 rmse=1 local=1 bytes=1",
                "  RESULT epoch=1 seconds=1.0 rmse=1 local=1 bytes=1",
                "[node 0] RESULT epoch=2 seconds=8.250 rmse=NaN local=1.0000 bytes=2048  ");
        assertThat(EpochResult.parseAll(output)).containsExactly(new EpochResult(1, 10.0, 0.3, 0.5, 1000),
                new EpochResult(2, 8.25, Double.NaN, 1.0, 2048));
    }

    @Test
    void aResultLineWithBadNumbersIsAnError() {
        assertThatThrownBy(() -> EpochResult.parse("RESULT epoch=1 seconds=1.2.3 rmse=0.1 local=0.5 bytes=1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("line='RESULT epoch=1 seconds=1.2.3 rmse=0.1 local=0.5 bytes=1' (expected numbers");
    }
}
