package io.adaps.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.adaps.examples.launch.LocalCluster;
import io.adaps.examples.launch.RecordingOutput;

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
        RecordingOutput output = new RecordingOutput(true);
        // A long grace: the survivors are not to be stopped by the watchdog, they must exit on their own.
        LocalCluster.Spec spec = new LocalCluster.Spec(NODES, ChurnNode.class.getName(), List.of(),
                System.getProperty("java.class.path"), "128m", Duration.ofSeconds(60));
        try (LocalCluster cluster = LocalCluster.start(spec, output)) {
            for (int node = 0; node < NODES; node++) {
                output.awaitLine(node, "running", Duration.ofSeconds(45));
            }
            long killed = System.nanoTime();
            cluster.process(VICTIM).destroyForcibly();

            for (int node = 0; node < NODES; node++) {
                if (node == VICTIM) {
                    continue;
                }
                for (int worker = 0; worker < ChurnNode.WORKERS; worker++) {
                    RecordingOutput.Line report = output.awaitLine(node, "worker " + worker + " saw", REPORT_BOUND);
                    assertThat(report.text()).startsWith("worker " + worker + " saw PeerFailedException peer=" + VICTIM
                            + ": node " + VICTIM + " failed: ");
                    assertThat(Duration.ofNanos(report.nanos() - killed)).isLessThan(REPORT_BOUND);
                }
                cluster.process(node).getOutputStream().close();
            }
            LocalCluster.Outcome outcome = cluster.await(Duration.ofSeconds(30));

            assertThat(outcome.timedOut()).isFalse();
            assertThat(outcome.exitCodes()).as("exit codes; output:\n%s", output.events())
                    .containsExactly(0, 0, 128 + 9);
        }
    }
}
