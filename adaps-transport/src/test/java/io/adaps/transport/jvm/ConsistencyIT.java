package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The staleness bound across three node JVMs ({@link ConsistencyNode}): under technique ADAPTIVE,
 * every read at clock {@code c} sees every update older than {@code c - s} and none more than
 * {@code s} clocks ahead, no update is lost, and the staleness metrics stay within the bound.
 */
class ConsistencyIT {
    private static final int NODES = 3;

    @ParameterizedTest
    @ValueSource(strings = {"ssp:1", "bsp"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readsStayWithinTheBoundAcrossProcesses(String model) throws Exception {
        // Fails unless every node exits 0.
        NodeOutput output = NodeJvms.run(NODES, ConsistencyNode.class, List.of(model), Duration.ofSeconds(90));

        long workers = (long) NODES * ConsistencyNode.WORKERS;
        for (int node = 0; node < NODES; node++) {
            assertThat(output.text(node))
                    .contains("sums exact: " + ConsistencyNode.KEYS + " keys = " + workers * ConsistencyNode.CLOCKS)
                    .contains("reads " + ConsistencyNode.WORKERS * ConsistencyNode.CLOCKS + ", out of bounds 0")
                    .contains("staleness " + model + ": max ");
        }
    }
}
