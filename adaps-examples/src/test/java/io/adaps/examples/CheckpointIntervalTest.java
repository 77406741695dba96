package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CheckpointIntervalTest {
    @Test
    void aNumberIsEpochsAndANumberWithAUnitADuration() {
        assertThat(CheckpointInterval.parse("3", "--every")).isEqualTo(CheckpointInterval.everyEpochs(3));
        assertThat(CheckpointInterval.parse("500ms", "--every").period()).isEqualTo(Duration.ofMillis(500));
        assertThat(CheckpointInterval.parse("30s", "--every").period()).isEqualTo(Duration.ofSeconds(30));
        assertThat(CheckpointInterval.parse("2m", "--every").period()).isEqualTo(Duration.ofMinutes(2));
        assertThat(CheckpointInterval.parse("1h", "--every").period()).isEqualTo(Duration.ofHours(1));
        assertThat(CheckpointInterval.parse("30s", "--every").midEpoch()).isTrue();
        assertThat(CheckpointInterval.parse("30", "--every").midEpoch()).isFalse();
    }

    @Test
    void checkpointsAreDueAtTheEndOfEveryNthEpochWithoutAPeriod() {
        CheckpointInterval everyTwo = CheckpointInterval.everyEpochs(2);
        assertThat(everyTwo.dueAfter(1)).isFalse();
        assertThat(everyTwo.dueAfter(2)).isTrue();
        assertThat(everyTwo.dueAfter(4)).isTrue();
        assertThat(CheckpointInterval.every(Duration.ofSeconds(1)).dueAfter(1)).isFalse();
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"abc", "", "-1", "1.5s", "30 s", "30S", "s", "3d", "PT30S", "99999999999",
        "9999999999999999999ms", "9999999999999999h"})
    void otherValuesAreRefusedNamingThem(String value) {
        assertThatThrownBy(() -> CheckpointInterval.parse(value, "--checkpoint-every"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--checkpoint-every=" + value + " (expected EPOCHS or a duration such as 30s)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0", "0s", "00ms"})
    void zeroIsRefused(String value) {
        assertThatThrownBy(() -> CheckpointInterval.parse(value, "--checkpoint-every"))
                .hasMessage("--checkpoint-every=" + value + " (expected > 0)");
    }

    @Test
    void anIntervalIsEpochsOrAPeriod() {
        assertThatThrownBy(() -> new CheckpointInterval(2, Duration.ofSeconds(1)))
                .hasMessage("epochs=2, period=PT1S (expected epochs > 0 or a positive period)");
        assertThatThrownBy(() -> CheckpointInterval.every(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CheckpointInterval.everyEpochs(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
