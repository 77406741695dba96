package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three node JVMs push to, pull from and {@code localize} the few rows of a small table all at
 * once, so that rows move between the nodes while the others access them (see
 * {@link RelocationNode}, which checks every pull): no update is lost or applied twice, each
 * node sees the same, exact sum at the end, and rows really moved.
 */
class RelocationSumsIT {
    private static final int NODES = 3;
    private static final Pattern PUSHED = Pattern.compile("^pushed (\\d+)$", Pattern.MULTILINE);
    private static final Pattern SEEN = Pattern.compile("^sum seen (\\d+)$", Pattern.MULTILINE);
    private static final Pattern MOVES = Pattern.compile("^relocations in (\\d+) out (\\d+) forwarded (\\d+)$",
            Pattern.MULTILINE);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void pushesAddUpExactlyOnEveryNodeWhileRowsMove() throws Exception {
        NodeOutput output = NodeJvms.run(NODES, RelocationNode.class, List.of(), Duration.ofSeconds(60));
        long pushed = 0;
        long[] seen = new long[NODES];
        long movedIn = 0;
        long movedOut = 0;
        long forwarded = 0;
        for (int node = 0; node < NODES; node++) {
            pushed += output.number(node, PUSHED, 1);
            seen[node] = output.number(node, SEEN, 1);
            movedIn += output.number(node, MOVES, 1);
            movedOut += output.number(node, MOVES, 2);
            forwarded += output.number(node, MOVES, 3);
        }
        assertThat(pushed).as("increments pushed by all nodes").isPositive();
        for (int node = 0; node < NODES; node++) {
            assertThat(seen[node]).as("sum of all rows seen from node %d (all nodes pushed %d)", node, pushed)
                    .isEqualTo(pushed);
        }
        assertThat(movedIn).as("rows moved in, over all nodes").isPositive().isEqualTo(movedOut);
        assertThat(forwarded).as("requests forwarded, over all nodes").isPositive();
    }
}
