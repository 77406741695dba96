package io.adaps.examples.mf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MfRunTest {
    @Test
    void theResultLineIsMachineReadable() {
        assertThat(MfRun.resultLine(3, 4.51234, 0.1234567, 0.97314, 123_456_789L, 3_600_000L))
                .isEqualTo("RESULT epoch=3 seconds=4.512 rmse=0.123457 local=0.9731 bytes=123456789 entries=3600000");
        assertThat(MfRun.resultLine(1, 0.5, Double.NaN, 1.0, 0, 1))
                .isEqualTo("RESULT epoch=1 seconds=0.500 rmse=NaN local=1.0000 bytes=0 entries=1");
    }
}
