package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class EpochResultTest {
    @Test
    void parsesTheMfLineOfASingleNode() {
        EpochResult result = EpochResult.parse("RESULT epoch=3 seconds=4.512 rmse=0.123457 local=0.9731 bytes=123456789 "
                + "entries=3600000").orElseThrow();
        assertThat(result).isEqualTo(new EpochResult(3, 4.512, 0.9731, 123_456_789L, 3_600_000L,
                Map.of("rmse", 0.123457)));
        assertThat(result.figure("rmse")).hasValue(0.123457);
        assertThat(result.figure("heldout")).isEmpty();
        assertThat(result.figure("entries")).as("entries is a field, not a figure").isEmpty();
    }

    @Test
    void parsesTheW2vLineKeepingItsFiguresInOrder() {
        EpochResult result = EpochResult.parse("[node 0] RESULT epoch=2 seconds=12.5 loss=2.75 heldout=2.875 "
                + "similarity=0.4125 local=0.8750 bytes=2048 entries=2744000").orElseThrow();
        assertThat(result.epoch()).isEqualTo(2);
        assertThat(result.seconds()).isEqualTo(12.5);
        assertThat(result.local()).isEqualTo(0.875);
        assertThat(result.bytesSent()).isEqualTo(2048);
        assertThat(result.entries()).isEqualTo(2_744_000);
        assertThat(result.figures()).containsExactly(Map.entry("loss", 2.75), Map.entry("heldout", 2.875),
                Map.entry("similarity", 0.4125));
    }

    @Test
    void parsesNodeZerosLinesUnderTheLauncherAndSkipsEverythingElse() {
        List<String> output = List.of(
                "[node 0] training: 2 node(s) x 1 thread(s), batches of 1024 entries; technique ADAPTIVE",
                "[node 0] epoch   1:  10.00 s,  0.36 M entries/s,  50.0% local,  0.50 s eval, test RMSE 0.3",
                "[node 0] RESULT epoch=1 seconds=10.000 rmse=0.300000 local=0.5000 bytes=1000 entries=7",
                "[node 1] RESULT epoch=1 seconds=9.000 rmse=0.300000 local=0.5000 bytes=999 entries=7",
                "[node 1] RESULT not node 0's, so not read",
                "  RESULT epoch=1 seconds=1.0 rmse=1 local=1 bytes=1 entries=1",
                "RESULTS are below",
                "[node 0] CPU node=0 epochs=1 wall=3.00 training=2.10 manager=0.40 transport=0.30 jit=1.10 gc=0.05 "
                        + "other=0.10",
                "[node 0] RESULT epoch=2 seconds=8.250 rmse=NaN local=1.0000 bytes=2048 entries=7  ");
        assertThat(EpochResult.parseAll(output)).containsExactly(
                new EpochResult(1, 10.0, 0.5, 1000, 7, Map.of("rmse", 0.3)),
                new EpochResult(2, 8.25, 1.0, 2048, 7, Map.of("rmse", Double.NaN)));
    }

    @Test
    void aResultLineWithBadNumbersIsAnError() {
        assertThatThrownBy(() -> EpochResult.parse("RESULT epoch=1 seconds=1.2.3 rmse=0.1 local=0.5 bytes=1 entries=1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("line='RESULT epoch=1 seconds=1.2.3 rmse=0.1 local=0.5 bytes=1 entries=1' "
                        + "(expected numbers");
        assertThatThrownBy(() -> EpochResult.parseAll(List.of(
                "[node 0] RESULT epoch=1 seconds=1 local=1 bytes=1 entries=1.5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(expected numbers");
    }

    @Test
    void aResultLineWithoutTheCommonKeysOrWithRepeatedOrBarePairsIsAnError() {
        assertThatThrownBy(() -> EpochResult.parse("RESULT epoch=1 seconds=1 heldout=2.5 local=1 bytes=1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line='RESULT epoch=1 seconds=1 heldout=2.5 local=1 bytes=1' "
                        + "(expected the keys epoch, seconds, local, bytes, entries)");
        assertThatThrownBy(() -> EpochResult.parse("RESULT epoch=1 seconds=1 local=1 bytes=1 entries=1 rmse=1 rmse=2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected distinct key=value pairs, not 'rmse=2')");
        assertThatThrownBy(() -> EpochResult.parse("RESULT epoch=1 seconds=1 local=1 bytes=1 entries=1 diverged"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected distinct key=value pairs, not 'diverged')");
    }
}
