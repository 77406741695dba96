package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class W2vRunTest {
    @Test
    void theResultLineIsMachineReadable() {
        assertThat(W2vRun.resultLine(3, 4.51234, 2.1234567, 2.2345671, 0.81234, 0.97314, 123_456_789L, 2_744_000L))
                .isEqualTo("RESULT epoch=3 seconds=4.512 loss=2.123457 heldout=2.234567 similarity=0.8123 "
                        + "local=0.9731 bytes=123456789 entries=2744000");
        assertThat(W2vRun.resultLine(1, 0.5, Double.NaN, 1.0, Double.NaN, 1.0, 0, 590))
                .isEqualTo("RESULT epoch=1 seconds=0.500 loss=NaN heldout=1.000000 similarity=NaN local=1.0000 bytes=0 "
                        + "entries=590");
    }
}
