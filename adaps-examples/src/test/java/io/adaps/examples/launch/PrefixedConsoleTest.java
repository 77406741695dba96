package io.adaps.examples.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

class PrefixedConsoleTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final PrefixedConsole console = new PrefixedConsole(new PrintWriter(out), new PrintWriter(err));

    @Test
    void prefixesLinesOfEachStreamWithTheirNode() {
        console.line(0, false, "epoch 1");
        console.line(1, true, "warning");
        console.note("node 1 exited");
        assertThat(out.toString()).isEqualTo("[node 0] epoch 1" + System.lineSeparator());
        assertThat(err.toString()).isEqualTo("[node 1] warning" + System.lineSeparator()
                + "[launch] node 1 exited" + System.lineSeparator());
    }

    @Test
    void aRedrawnLineIsDrawnInPlaceAndItsNodesNextLineReplacesIt() {
        console.redraw(0, true, "10%");
        console.redraw(0, true, "50%");
        console.line(0, true, "100%");
        assertThat(err.toString()).isEqualTo("\r[node 0] 10%\r[node 0] 50%\r[node 0] 100%" + System.lineSeparator());
    }

    @Test
    void anotherSourceEndsARedrawnLineBeforeItsOwnLine() {
        console.redraw(0, true, "10%");
        console.line(1, true, "hello");
        console.redraw(0, true, "20%");
        console.line(0, false, "done");
        String newline = System.lineSeparator();
        assertThat(err.toString()).isEqualTo("\r[node 0] 10%" + newline + "[node 1] hello" + newline
                + "\r[node 0] 20%" + newline);
        assertThat(out.toString()).isEqualTo("[node 0] done" + newline);
    }
}
