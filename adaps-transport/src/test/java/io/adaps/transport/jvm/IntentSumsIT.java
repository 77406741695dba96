package io.adaps.transport.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.adaps.api.Technique;

/**
 * The guarantees of every {@link Technique} across three node JVMs whose workers signal intent
 * ahead of their accesses, under a workload that makes the adaptive manager both replicate (hot
 * keys used by every node) and relocate (keys used mostly by one node): see {@link IntentNode},
 * which checks that every worker reads its own writes and never a torn value. Here: every node
 * sees every key's exact total over all nodes' pushes after {@code waitSync} and a barrier (no
 * update lost or doubled, replicas converged), relocations in and out add up over the nodes, and
 * each technique did what it is for (replicas, relocations, or nothing at all under STATIC).
 *
 * <p>The workload's seed is {@value #DEFAULT_SEED}, or the system property {@code intent.seed}.
 */
class IntentSumsIT {
    private static final int NODES = IntentNode.NODES;
    private static final long DEFAULT_SEED = 1;
    private static final String COUNTS = "((?:\\d+ )*\\d+)";
    private static final Pattern PUSHED = Pattern.compile("^pushed per key " + COUNTS + "$", Pattern.MULTILINE);
    private static final Pattern AFTER_SYNC = Pattern.compile("^seen after sync " + COUNTS + "$", Pattern.MULTILINE);
    private static final Pattern AT_END = Pattern.compile("^seen at end " + COUNTS + "$", Pattern.MULTILINE);
    private static final Pattern QUIET = Pattern.compile("^manager quiet (true|false)$", Pattern.MULTILINE);
    private static final Pattern MOVES = Pattern.compile("^moves in (\\d+) out (\\d+) replicas created (\\d+) "
            + "held (\\d+) dropped (\\d+) managed (\\d+) sync rounds (\\d+)$", Pattern.MULTILINE);

    /** The numbers of a node's {@link #MOVES} line. */
    private record Moves(long in, long out, long created, long held, long dropped, long managed, long syncRounds) {
        static Moves of(NodeOutput output, int node) {
            long[] n = new long[7];
            Arrays.setAll(n, i -> output.number(node, MOVES, i + 1));
            return new Moves(n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Technique.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyNodeSeesEveryKeysExactTotalAndTheTechniquePlacesKeys(Technique technique) throws Exception {
        long seed = Long.getLong("intent.seed", DEFAULT_SEED);
        NodeOutput output = NodeJvms.run(NODES, IntentNode.class, List.of(technique.name(), Long.toString(seed)),
                Duration.ofSeconds(45));

        long[] pushed = new long[IntentNode.ROWS];
        List<Moves> moves = new ArrayList<>();
        for (int node = 0; node < NODES; node++) {
            long[] own = counts(output, node, PUSHED);
            Arrays.setAll(pushed, key -> pushed[key] + own[key]);
            moves.add(Moves.of(output, node));
        }
        for (int node = 0; node < NODES; node++) {
            assertSameCounts(counts(output, node, AFTER_SYNC), pushed, String.format("%s, seed %d: keys whose value seen "
                    + "from node %d after waitSync and the barrier is not the sum of all nodes' pushes", technique, seed, node));
            assertSameCounts(counts(output, node, AT_END), pushed, String.format("%s, seed %d: keys whose value seen "
                    + "from node %d at the end is not the sum of all nodes' pushes", technique, seed, node));
        }
        assertThat(Arrays.stream(pushed).sum()).as("increments pushed by all nodes")
                .isEqualTo((long) NODES * IntentNode.WORKERS * IntentNode.CLOCKS * IntentNode.KEYS_PER_CLOCK);

        String what = technique + ", seed " + seed + ", per node " + moves;
        long in = moves.stream().mapToLong(Moves::in).sum();
        long out = moves.stream().mapToLong(Moves::out).sum();
        long created = moves.stream().mapToLong(Moves::created).sum();
        long held = moves.stream().mapToLong(Moves::held).sum();
        for (int node = 0; node < NODES; node++) {
            // Else a relocation may have been in flight when the nodes read their counters.
            assertThat(output.group(node, QUIET, 1)).as("node %d's manager became quiet after the run; %s",
                    node, what).isEqualTo("true");
        }
        assertThat(in).as("relocations in = out, over all nodes; %s", what).isEqualTo(out);
        switch (technique) {
            case ADAPTIVE -> {
                assertThat(created).as("replicas created; %s", what).isPositive();
                assertThat(in).as("relocations; %s", what).isPositive();
            }
            case RELOCATION_ONLY -> {
                assertThat(in).as("relocations; %s", what).isPositive();
                assertThat(created + held).as("replicas (nothing is replicated); %s", what).isZero();
            }
            case REPLICATION_ONLY -> {
                assertThat(created).as("replicas created; %s", what).isPositive();
                assertThat(in).as("relocations (nothing moves); %s", what).isZero();
            }
            case STATIC -> assertThat(moves).as("nothing moved or was replicated; %s", what)
                    .allSatisfy(node -> assertThat(List.of(node.in(), node.out(), node.created(), node.held(),
                            node.dropped(), node.managed())).containsOnly(0L));
            case FULL_REPLICATION -> {
                assertThat(in).as("relocations (intents are ignored); %s", what).isZero();
                int homeRows = (IntentNode.ROWS + NODES - 1) / NODES; // range partitioning, ROWS divisible by NODES
                assertThat(moves).as("every node holds a replica of every key it is not the home of; %s", what)
                        .allSatisfy(node -> assertThat(node.held()).isEqualTo(IntentNode.ROWS - homeRows));
            }
        }
    }

    /** Fails with {@code what} and every key whose count in {@code seen} differs from {@code expected}. */
    private static void assertSameCounts(long[] seen, long[] expected, String what) {
        StringBuilder wrong = new StringBuilder();
        for (int key = 0; key < expected.length; key++) {
            if (seen[key] != expected[key]) {
                wrong.append(String.format("%n  key %d: seen %d, pushed %d", key, seen[key], expected[key]));
            }
        }
        if (wrong.length() > 0) {
            fail(what + ":" + wrong);
        }
    }

    private static long[] counts(NodeOutput output, int node, Pattern pattern) {
        long[] counts = Arrays.stream(output.group(node, pattern, 1).split(" ")).mapToLong(Long::parseLong).toArray();
        assertThat(counts).as("keys on the line of node %d matching '%s'", node, pattern).hasSize(IntentNode.ROWS);
        return counts;
    }
}
