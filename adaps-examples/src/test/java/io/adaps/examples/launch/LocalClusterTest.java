package io.adaps.examples.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class LocalClusterTest {
    /** The script runs the examples outside the launcher (a single node, the launcher itself): same JVM flags. */
    @Test
    void theExampleScriptPassesEveryNodeJvmFlag() throws IOException {
        Path script = Path.of("..", "bin", "adaps-example");
        String command = Files.readString(script, StandardCharsets.UTF_8).replace("\\\n", " ");
        String exec = command.lines().filter(line -> line.startsWith("exec java ")).findFirst().orElseThrow();
        assertThat(List.of(exec.split("\\s+"))).containsAll(LocalCluster.JVM_FLAGS);
    }

    @Test
    void freePortsAreDistinctAndBindable() throws IOException {
        List<Integer> ports = LocalCluster.freePorts(4);
        assertThat(ports).hasSize(4).doesNotHaveDuplicates().allMatch(port -> port > 0 && port < 65536);
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void specRefusesBadSettings() {
        Duration grace = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new LocalCluster.Spec(0, "Main", List.of(), "cp", "1g", grace))
                .hasMessage("nodes=0 (expected > 0)");
        assertThatThrownBy(() -> new LocalCluster.Spec(1, "Main", List.of(), "cp", "1x", grace))
                .hasMessage("heap=1x (expected a size such as 512m or 2g)");
        assertThatThrownBy(() -> new LocalCluster.Spec(1, "Main", List.of(), "cp", "0m", grace))
                .hasMessage("heap=0m (expected a size such as 512m or 2g)");
        assertThatThrownBy(() -> new LocalCluster.Spec(1, "Main", List.of(), "cp", "1g", Duration.ZERO))
                .hasMessage("failureGrace=PT0S (expected > 0)");
        assertThatThrownBy(() -> LocalCluster.freePorts(0)).hasMessage("count=0 (expected > 0)");
        assertThatThrownBy(() -> new LocalCluster.Spec(1, "Main", List.of(), "cp", "1g", grace, true, false, -1))
                .hasMessage("firstCore=-1 (expected >= 0)");
        assertThatThrownBy(() -> new LocalCluster.Spec(1, "Main", List.of(), "cp", "1g", grace, false, false, 1))
                .hasMessage("firstCore=1 (expected 0 without pinCores)");
        assertThat(new LocalCluster.Spec(2, "Main", List.of("a"), "cp", "512M", grace).heap()).isEqualTo("512M");
    }

    @Test
    void pinnedNodesStartAtTheFirstCoreAndWrapAroundTheProcessors() {
        Duration grace = Duration.ofSeconds(1);
        LocalCluster.Spec fromZero = new LocalCluster.Spec(4, "Main", List.of(), "cp", "1g", grace, true);
        LocalCluster.Spec fromOne = new LocalCluster.Spec(4, "Main", List.of(), "cp", "1g", grace, true, false, 1);
        assertThat(List.of(0, 1, 2, 3).stream().map(node -> fromZero.processorOf(node, 2)).toList())
                .containsExactly(0, 1, 0, 1);
        assertThat(List.of(0, 1, 2, 3).stream().map(node -> fromOne.processorOf(node, 2)).toList())
                .containsExactly(1, 0, 1, 0);
        assertThat(new LocalCluster.Spec(1, "Main", List.of(), "cp", "1g", grace, true, false, 3).processorOf(0, 4))
                .isEqualTo(3);
    }

    @Test
    void theOutcomeExitCodeIsTheFirstFailedNodes() {
        assertThat(new LocalCluster.Outcome(List.of(0, 0), -1, false).exitCode()).isZero();
        assertThat(new LocalCluster.Outcome(List.of(143, 3, 143), 1, false).exitCode()).isEqualTo(3);
        assertThat(new LocalCluster.Outcome(List.of(143, 143), -1, true).exitCode()).isEqualTo(1);
    }
}
