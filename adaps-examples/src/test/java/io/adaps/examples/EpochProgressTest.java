package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EpochProgressTest {
    @Test
    void itRoundTripsAsReadableText() {
        EpochProgress at = new EpochProgress(3, 4, 12, 90_000_000_000L);
        assertThat(new String(at.toBytes(), StandardCharsets.UTF_8)).isEqualTo("epoch=3 step=4 of=12 done=90000000000");
        assertThat(EpochProgress.parse(at.toBytes())).isEqualTo(at);
        assertThat(at.begun()).isTrue();
        assertThat(EpochProgress.start(2, 12)).isEqualTo(new EpochProgress(2, 0, 12, 0));
        assertThat(EpochProgress.start(2, 12).begun()).isFalse();
        assertThat(at.after(12, 5)).isEqualTo(new EpochProgress(3, 12, 12, 5));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"epoch=3", "garbage", "", "epoch=0 step=0 of=1 done=0", "epoch=1 step=5 of=4 done=0",
        "epoch=1 step=1 of=4 done=-1", "epoch=1 step=1 of=4 done=0 ", "epoch=99999999999 step=1 of=4 done=0"})
    void aSavedStateThatIsNoProgressIsRefusedShowingIt(String saved) {
        assertThatThrownBy(() -> EpochProgress.parse(saved.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("progress '" + saved + "' (expected 'epoch=E step=K of=N done=D' with E >= 1 and K <= N)");
    }

    @Test
    void aLongStateIsShownInPart() {
        String saved = "x".repeat(1000);
        assertThatThrownBy(() -> EpochProgress.parse(saved.getBytes(StandardCharsets.UTF_8)))
                .hasMessageStartingWith("progress '" + "x".repeat(80) + "...' (expected");
    }

    @Test
    void aPositionOutOfRangeIsRefused() {
        assertThatThrownBy(() -> new EpochProgress(1, 3, 2, 0))
                .hasMessage("epoch=1, step=3, steps=2, done=0 (expected epoch >= 1, 0 <= step <= steps and done >= 0)");
    }
}
