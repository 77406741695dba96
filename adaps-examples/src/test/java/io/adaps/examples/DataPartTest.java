package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DataPartTest {
    @Test
    void aPartIsOneOfItsCountAndSaysWhoTrainsIt() {
        assertThat(new DataPart(1, 2, false).describe()).isEqualTo("node 1 of 2");
        assertThat(new DataPart(1, 2, true).describe()).isEqualTo("part 1 of 2, alone");
        assertThat(new DataPart(0, 1, false).isShare()).isFalse();
        assertThat(new DataPart(0, 4, true).isShare()).isTrue();
    }

    @Test
    void aPartOutsideItsCountIsRefused() {
        assertThatThrownBy(() -> new DataPart(2, 2, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("index=2 (expected 0..1)");
        assertThatThrownBy(() -> new DataPart(-1, 2, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("index=-1 (expected 0..1)");
        assertThatThrownBy(() -> new DataPart(0, 0, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count=0 (expected > 0)");
    }
}
