package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.adaps.examples.ThreadCpu.Kind;

class NodeCpuTest {
    private static final String KINDS = "training=2.10 manager=0.40 transport=0.30 jit=0.10 gc=0.05 other=0.05";

    @Test
    void parsesASingleNodesLineAndTheLaunchersLinesOfEveryNode() {
        List<String> output = List.of(
                "CPU node=0 epochs=1 wall=3.00 training=2.10 manager=0.40 transport=0.30 jit=1.10 gc=0.05 other=0.10",
                "[node 0] RESULT epoch=1 seconds=3.000 rmse=0.3 local=1.0 bytes=10 entries=5",
                "[node 1] CPU node=1 epochs=2-10 wall=27.00 " + KINDS,
                "[node 0] node 0 summary: sent 1 bytes (0.0 MiB), 100.0% of its accesses local, 0 intents signalled",
                "  CPU node=0 epochs=1 wall=1 indented, so not a CPU line",
                "CPUs: 2");
        List<NodeCpu> cpu = NodeCpu.parseAll(output);
        assertThat(cpu).containsExactly(
                Runs.cpu(0, 1, 1, 3.0, 2.10, 0.40, 0.30, 1.10, 0.05, 0.10),
                Runs.cpu(1, 2, 10, 27.0, 2.10, 0.40, 0.30, 0.10, 0.05, 0.05));
        NodeCpu steady = cpu.get(1);
        assertThat(steady.epochs()).isEqualTo(9);
        assertThat(steady.perEpoch(Kind.TRAINING)).isCloseTo(2.10 / 9, within(1e-12));
        assertThat(steady.idlePerEpoch()).as("wall less every thread's time").isCloseTo((27.0 - 3.0) / 9, within(1e-12));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            CPU node=0 epochs=1 wall=3.00 training=2.10 ; (expected exactly the keys KEYS)
            CPU node=0 epochs=1 wall=3.00 KINDS idle=0.1 ; (expected exactly the keys KEYS)
            CPU node=0 node=0 epochs=1 wall=3.00 KINDS ; (expected distinct key=value pairs, not 'node=0')
            CPU node=0 epochs=2..10 wall=3.00 KINDS ; (expected epochs=N or epochs=N-M)
            CPU node=0 epochs=10-2 wall=3.00 KINDS ; (expected epochs=N-M with N <= M)
            CPU node=0 epochs=0 wall=3.00 KINDS ; (expected epochs=N or epochs=N-M)
            CPU node=zero epochs=1 wall=3.00 KINDS ; (expected numbers: For input string: "zero")
            CPU node=0 epochs=1 wall=3,00 KINDS ; (expected numbers: For input string: "3,00")
            [node 1] CPU node=0 epochs=1 wall=3.00 KINDS ; (expected node=1, the node of its prefix)
            """)
    void aMalformedCpuLineIsAnErrorNamingTheLineAndWhatWasExpected(String line, String expected) {
        String full = line.replace("KINDS", KINDS);
        assertThatThrownBy(() -> NodeCpu.parseAll(List.of("RESULT is fine", full)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line='" + full + "' "
                        + expected.replace("KEYS", "node, epochs, wall, training, manager, transport, jit, gc, other"));
    }
}
