package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** What the multi-JVM tests rely on: the nodes' set-up, and how a failed or hanging run is reported. */
class NodeJvmsIT {
    private static final Pattern ENVIRONMENT =
            Pattern.compile("^id=(\\d+) peers=(\\S+) cluster=(\\S+) flags=(.*)$", Pattern.MULTILINE);

    /** A node that does what its argument says, to test {@link NodeJvms} with. */
    public static final class Stub {
        public static void main(String[] args) throws InterruptedException {
            int node = Integer.parseInt(System.getenv("ADAPS_NODE_ID"));
            switch (args[0]) {
                case "environment" -> System.out.println("id=" + node + " peers=" + System.getenv("ADAPS_PEERS")
                        + " cluster=" + System.getenv("ADAPS_CLUSTER_ID")
                        + " flags=" + ManagementFactory.getRuntimeMXBean().getInputArguments());
                case "fail" -> {
                    // Node 2 fails first; node 0 later, as if for want of node 2 (a delay longer than
                    // the JVMs' start-up skew).
                    if (node == 0) {
                        Thread.sleep(2_000);
                    }
                    if (node != 1) {
                        System.err.println(ChildMain.FAILURE + " of worker 0: node " + node);
                        System.exit(1);
                    }
                }
                case "hang" -> {
                    if (node == 1) {
                        Thread.sleep(Long.MAX_VALUE);
                    }
                }
                default -> throw new IllegalArgumentException("args[0]=" + args[0]
                        + " (expected environment, fail or hang)");
            }
        }
    }

    @Test
    void everyNodeGetsItsIdTheSamePeersAndClusterAndTheAgronaFlag() throws Exception {
        NodeOutput output = NodeJvms.run(3, Stub.class, List.of("environment"), Duration.ofSeconds(30));

        Set<String> peers = new HashSet<>();
        Set<String> clusters = new HashSet<>();
        for (int node = 0; node < 3; node++) {
            assertThat(output.number(node, ENVIRONMENT, 1)).isEqualTo(node);
            peers.add(output.group(node, ENVIRONMENT, 2));
            clusters.add(output.group(node, ENVIRONMENT, 3));
            assertThat(output.group(node, ENVIRONMENT, 4))
                    .contains("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
        }
        assertThat(clusters).singleElement().asString().startsWith("test-");
        assertThat(peers).singleElement().satisfies(list -> assertThat(list.split(","))
                .hasSize(3).doesNotHaveDuplicates().allMatch(peer -> peer.startsWith("127.0.0.1:")));
    }

    @Test
    void failedNodesAreReportedWithTheirOutputInTheOrderTheyReportedAFailure() {
        assertThatThrownBy(() -> NodeJvms.run(3, Stub.class, List.of("fail"), Duration.ofSeconds(30)))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("Stub [fail]: exit codes [1, 0, 1]; failed nodes in the order they reported it: "
                        + "[2, 0]")
                .hasMessageContaining("--- output of node 2 (exit code 1):\nFAILURE of worker 0: node 2")
                .hasMessageContaining("--- output of node 0 (exit code 1):\nFAILURE of worker 0: node 0")
                .hasMessageNotContaining("output of node 1");
    }

    @Test
    void nodesStillRunningAtTheTimeoutAreStopped() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> NodeJvms.run(2, Stub.class, List.of("hang"), Duration.ofSeconds(3)))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("Stub [hang]: exit codes [0, " + (128 + 15) + "] (nodes still running after 3 s "
                        + "were stopped); failed nodes in the order they reported it: [1]");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the run with its stop")
                .isLessThan(Duration.ofSeconds(3 + 5 + 5));
    }
}
