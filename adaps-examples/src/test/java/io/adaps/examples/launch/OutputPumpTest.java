package io.adaps.examples.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class OutputPumpTest {
    @Test
    void splitsLinesRedrawsAndTheUnterminatedRest() {
        RecordingOutput output = new RecordingOutput(false);
        byte[] text = "first\n\rbar 1\rbar 2\rbar 3\nsecond ü\n\nrest".getBytes(StandardCharsets.UTF_8);
        new OutputPump(new ByteArrayInputStream(text), 2, true, output).run();

        assertThat(output.events()).containsExactly(
                "line 2 err: first",
                "redraw 2 err: bar 1",
                "redraw 2 err: bar 2",
                "line 2 err: bar 3",
                "line 2 err: second ü",
                "line 2 err: ",
                "line 2 err: rest");
    }
}
