package io.adaps.examples.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.adaps.examples.CommandRun;
import io.adaps.examples.Examples;

/** The launcher with real processes: environment, failures, the watchdog and clean-up. */
class LauncherIT {
    private static final int NODES = 3;

    @AfterEach
    void leavesNoProcessBehind() {
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anApplicationFailingOnEveryNodeFailsTheLaunchWithItsExitCode() {
        CommandRun run = CommandRun.run("launch", "--nodes=" + NODES, "--heap=128m", "--", "mf", "--bogus");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        for (int node = 0; node < NODES; node++) {
            assertThat(run.err()).contains("[node " + node + "] Unknown option: '--bogus'");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aloneEachJvmIsASingleNodeTrainingItsPart() {
        CommandRun run = CommandRun.run("launch", "--nodes=2", "--alone", "--heap=256m", "--", "mf", "--rows=200",
                "--cols=100", "--entries=20000", "--rank=8", "--epochs=1", "--threads=1");

        assertThat(run.exitCode()).as(run.err()).isZero();
        for (int node = 0; node < 2; node++) {
            assertThat(run.out()).contains("[node " + node + "] training: 1 node(s) x 1 thread(s)")
                    .containsPattern("\\[node " + node + "] part " + node + " of 2, alone: trains on \\d+ entries")
                    .containsPattern("\\[node " + node + "] CPU node=" + node + " epochs=1 ");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aPartIsRefusedOnTheNodesOfACluster() {
        CommandRun run = CommandRun.run("launch", "--nodes=2", "--heap=256m", "--", "mf", "--rows=200", "--cols=100",
                "--entries=20000", "--rank=8", "--epochs=1", "--threads=1", "--part=0/2");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("--part=0/2 (expected only on a single node: the 2 nodes of this cluster "
                + "train their shares together)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyNodeGetsItsIdThePeersAndOneFreshClusterId() throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        try (LocalCluster cluster = LocalCluster.start(stubs(-1), output)) {
            String cluster0 = null;
            for (int node = 0; node < NODES; node++) {
                output.awaitLine(node, "waiting", Duration.ofSeconds(30));
                String environment = output.awaitLine(node, "peers=", Duration.ZERO).text();
                assertThat(environment).startsWith("peers=" + String.join(",", cluster.peers()) + " cluster=local-");
                cluster0 = cluster0 == null ? environment : cluster0;
                assertThat(environment).isEqualTo(cluster0);
                cluster.process(node).getOutputStream().close();
            }
            assertThat(cluster.peers()).hasSize(NODES).allMatch(peer -> peer.startsWith("127.0.0.1:"));
            assertThat(cluster.await(Duration.ofSeconds(30)).exitCodes()).containsExactly(0, 0, 0);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void whenOneNodeFailsTheWatchdogStopsTheOthersAfterTheGracePeriod() throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        try (LocalCluster cluster = LocalCluster.start(stubs(1), output)) {
            for (int node : new int[] {0, 2}) {
                output.awaitLine(node, "waiting", Duration.ofSeconds(30));
            }
            long start = System.nanoTime();
            LocalCluster.Outcome outcome = cluster.await(Duration.ofSeconds(30));
            Duration waited = Duration.ofNanos(System.nanoTime() - start);

            // Node 1 exited 3 by itself; the others were stopped (SIGTERM: 128 + 15).
            assertThat(outcome.exitCodes()).containsExactly(128 + 15, 3, 128 + 15);
            assertThat(outcome.failedNode()).isEqualTo(1);
            assertThat(outcome.exitCode()).isEqualTo(3);
            assertThat(outcome.timedOut()).isFalse();
            assertThat(waited).isLessThan(Duration.ofSeconds(10));
            assertThat(output.text(-1)).contains("node 1 exited with code 3; stopping the other nodes in 1 s");
            assertThat(output.text(1)).contains("failing on purpose");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closeStopsEveryNodeThatStillRuns() throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        LocalCluster cluster = LocalCluster.start(stubs(-1), output);
        for (int node = 0; node < NODES; node++) {
            output.awaitLine(node, "waiting", Duration.ofSeconds(30));
        }
        long start = System.nanoTime();
        cluster.close();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        for (int node = 0; node < NODES; node++) {
            assertThat(cluster.process(node).isAlive()).isFalse();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLauncherThatIsStoppedStopsItsNodes() throws Exception {
        RecordingOutput output = new RecordingOutput(true);
        // The launcher itself as the only "node" of a cluster, so that this test can stop it like Ctrl-C does.
        LocalCluster.Spec launcher = new LocalCluster.Spec(1, Examples.class.getName(), List.of("launch", "--nodes=2",
                "--heap=128m", "--", "mf", "--rows=200", "--cols=100", "--entries=20000", "--epochs=100000",
                "--threads=1"), System.getProperty("java.class.path"), "64m", Duration.ofSeconds(1));
        try (LocalCluster running = LocalCluster.start(launcher, output)) {
            output.awaitLine(0, "[node 0] epoch   1:", Duration.ofSeconds(40));
            List<ProcessHandle> nodes = running.process(0).children().toList();
            assertThat(nodes).hasSize(2).allMatch(ProcessHandle::isAlive);

            running.process(0).toHandle().destroy(); // SIGTERM, which runs the shutdown hook as SIGINT does
            LocalCluster.Outcome outcome = running.await(Duration.ofSeconds(20));

            assertThat(outcome.timedOut()).isFalse();
            assertThat(outcome.exitCodes()).containsExactly(128 + 15);
            for (ProcessHandle node : nodes) {
                node.onExit().get(10, TimeUnit.SECONDS);
                assertThat(node.isAlive()).isFalse();
            }
        }
    }

    /** Stub nodes of which node {@code failing} (none if -1) exits with code 3. */
    private static LocalCluster.Spec stubs(int failing) {
        return new LocalCluster.Spec(NODES, StubNode.class.getName(), List.of(Integer.toString(failing), "3"),
                System.getProperty("java.class.path"), "64m", Duration.ofSeconds(1));
    }
}
