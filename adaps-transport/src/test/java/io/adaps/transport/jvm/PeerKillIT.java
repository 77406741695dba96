package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node JVM killed with SIGKILL in the middle of remote traffic: the other nodes' operations fail
 * with a {@link io.adaps.api.PeerFailedException} naming it, within the bound, and they shut down
 * cleanly.
 */
class PeerKillIT {
    private static final int NODES = 3;
    private static final int VICTIM = 2;
    private static final Duration REPORT_BOUND = Duration.ofSeconds(10);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void survivorsReportTheKilledNodeWithinTheBoundAndExitCleanly() throws Exception {
        try (NodeJvms jvms = NodeJvms.start(NODES, ChurnNode.class, List.of())) {
            NodeOutput output = jvms.output();
            for (int node = 0; node < NODES; node++) {
                output.awaitLine(node, "running", Duration.ofSeconds(45));
            }
            long killed = System.nanoTime();
            jvms.process(VICTIM).destroyForcibly();

            for (int node = 0; node < NODES; node++) {
                if (node == VICTIM) {
                    continue;
                }
                for (int worker = 0; worker < ChurnNode.WORKERS; worker++) {
                    NodeOutput.Line report = output.awaitLine(node, "worker " + worker + " saw", REPORT_BOUND);
                    assertThat(report.text()).startsWith("worker " + worker + " saw PeerFailedException peer=" + VICTIM
                            + ": node " + VICTIM + " failed: ");
                    assertThat(Duration.ofNanos(report.nanos() - killed)).isLessThan(REPORT_BOUND);
                }
                jvms.process(node).getOutputStream().close(); // the survivors exit on their own
            }
            NodeJvms.Exits exits = jvms.awaitExit(Duration.ofSeconds(30));

            assertThat(exits.timedOut()).isFalse();
            assertThat(exits.codes()).as("exit codes; output:%n%s", output).containsExactly(0, 0, 128 + 9);
        }
    }
}
