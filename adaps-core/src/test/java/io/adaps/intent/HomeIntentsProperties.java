package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.adaps.api.Technique;
import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * Issue 13's promise at a key's home: nodes that use a key one after the other (their
 * {@link Technique#ADAPTIVE} intents' clocks disjoint, under {@code bsp}) never get a replica of
 * it, whatever order their starts reach the home in, and the key is always with the earliest use
 * that has begun and not ended. The starts may come any time before their use ends (a node announces them a window
 * ahead, and messages from different nodes overtake each other); a node's end comes before its next
 * start; the uses end in their order (a use begins only once the one before it has ended); every
 * release is carried out (no overlap, no hand-off left waiting). Decisions take effect at once.
 */
class HomeIntentsProperties {
    private static final long KEY = 7;

    /** {@code uses} consecutive uses of the key by {@code nodes} nodes, drawn from {@code seed}. */
    record Scenario(long seed, int nodes, int uses) {
        static Scenario draw(Gen gen) {
            return new Scenario(gen.longs(), gen.intIn(2, 5), 2 + gen.sized(10));
        }
    }

    /** One use: its node and clocks. */
    private record Use(int node, long from, long to) {
    }

    @Test
    void nodesThatUseAKeyOneAfterTheOtherGetItInTurnAndNeverAReplica() {
        Property.forAll(500, Scenario::draw, HomeIntentsProperties::handsOnInTurn);
    }

    private static void handsOnInTurn(Scenario scenario) {
        Random random = new Random(scenario.seed());
        List<Use> uses = new ArrayList<>();
        long clock = random.nextInt(3);
        int previous = -1;
        for (int i = 0; i < scenario.uses(); i++) {
            int node;
            do {
                node = random.nextInt(scenario.nodes());
            } while (node == previous);
            long from = clock + random.nextInt(3);
            long to = from + 1 + random.nextInt(4);
            uses.add(new Use(node, from, to));
            clock = to;
            previous = node;
        }
        List<String> log = new ArrayList<>();
        int[] owner = {0};
        HomeIntents.Decisions decisions = (key, action, target, at) -> {
            log.add(switch (action) {
                case HomeIntents.RELOCATE -> "relocate to " + target;
                case HomeIntents.REPLICATE -> "replicate to " + target;
                default -> "release at " + target + " for " + at;
            });
            assertThat(action).as("decisions %s", log).isNotEqualTo(HomeIntents.REPLICATE);
            if (action == HomeIntents.RELOCATE) {
                owner[0] = target;
            }
        };
        HomeIntents intents = new HomeIntents(scenario.nodes(), 0, key -> true);
        boolean[] started = new boolean[uses.size()];
        int ended = 0; // uses before this one have ended
        while (ended < uses.size()) {
            // What may happen next: the first unended use's end, once started, or a start whose
            // node has ended its uses before it.
            List<Integer> startable = new ArrayList<>();
            for (int i = ended; i < uses.size(); i++) {
                if (!started[i] && nodeIdleBefore(uses, started, ended, i)) {
                    startable.add(i);
                }
            }
            boolean end = started[ended] && (startable.isEmpty() || random.nextInt(3) == 0);
            if (end) {
                Use use = uses.get(ended);
                log.add("end " + use);
                intents.onEnd(KEY, use.node(), owner[0], 0, decisions);
                ended++;
            } else {
                int i = startable.get(random.nextInt(startable.size()));
                Use use = uses.get(i);
                log.add("start " + use);
                started[i] = true;
                intents.onStart(KEY, use.node(), Technique.ADAPTIVE, use.from(), use.to(), owner[0], true, 0, decisions);
            }
            if (ended < uses.size() && started[ended]) {
                assertThat(owner[0]).as("the owner while %s is the first use not ended; %s", uses.get(ended), log)
                        .isEqualTo(uses.get(ended).node());
            }
        }
        assertThat(intents.nodes(KEY)).as("no intent left; %s", log).isZero();
    }

    /** Whether use {@code i}'s node has started and ended every earlier use of its own. */
    private static boolean nodeIdleBefore(List<Use> uses, boolean[] started, int ended, int i) {
        for (int j = ended; j < i; j++) {
            if (uses.get(j).node() == uses.get(i).node()) {
                return false; // that earlier use has not ended yet
            }
        }
        return true;
    }
}
