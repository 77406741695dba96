package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/** The tracker agrees with a brute-force model of its contract, and the listener hears exactly the changes. */
class IntentTrackerProperties {

    /** One intent in the model: pending until reached, active until over, then done for good. */
    static final class ModelIntent {
        final int worker;
        final long[] keys;
        final long from;
        final long to;
        String state = "pending";

        ModelIntent(int worker, long[] keys, long from, long to) {
            this.worker = worker;
            this.keys = keys;
            this.from = from;
            this.to = to;
        }
    }

    /** Records the listener's calls within one advance: per key, its changes in order ('+' active, '-' inactive). */
    static final class Changes implements IntentTracker.Listener {
        final Map<Long, String> perKey = new TreeMap<>();

        @Override
        public void onActive(long key, long fromClock, long toClock) {
            perKey.merge(key, "+", String::concat);
        }

        @Override
        public void onInactive(long key) {
            perKey.merge(key, "-", String::concat);
        }
    }

    /** {@code steps} random adds and advances drawn from {@code seed}; shrinking keeps a prefix of them. */
    record Scenario(long seed, int workers, int keySpace, boolean fixedWindow, int steps) {
        static Scenario draw(Gen gen) {
            return new Scenario(gen.longs(), gen.intIn(1, 4), gen.intIn(1, 12), gen.booleans(), gen.sized(200));
        }
    }

    @Test
    void activeKeysMatchTheModel() {
        Property.forAll(300, Scenario::draw, IntentTrackerProperties::activeKeysMatchTheModel);
    }

    private static void activeKeysMatchTheModel(Scenario scenario) {
        int workers = scenario.workers();
        int keySpace = scenario.keySpace();
        boolean fixedWindow = scenario.fixedWindow();
        Random random = new Random(scenario.seed());
        IntentTracker tracker = new IntentTracker(workers);
        List<ModelIntent> model = new ArrayList<>();
        long[] clocks = new long[workers];
        boolean advanced = false;
        long fixed = random.nextInt(4);
        for (int step = 0; step < scenario.steps(); step++) {
            if (random.nextInt(3) > 0) {
                int worker = random.nextInt(workers);
                long[] keys = new long[random.nextInt(4)];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = random.nextInt(keySpace) - keySpace / 2; // negative keys too
                }
                // Mostly ahead of the worker, sometimes behind it; any order.
                long from = clocks[worker] + random.nextInt(12) - 4;
                long to = from + 1 + random.nextInt(5);
                tracker.add(worker, keys, 0, keys.length, from, to);
                ModelIntent intent = new ModelIntent(worker, keys, from, to);
                if (keys.length == 0 || (advanced && to <= clocks[worker])) {
                    intent.state = "done";
                }
                model.add(intent);
            } else {
                for (int w = 0; w < workers; w++) {
                    clocks[w] += random.nextInt(4) == 0 ? random.nextInt(6) : 0;
                }
                long window = fixedWindow ? fixed : random.nextInt(5);
                // An advance replays the starts and ends the clocks passed, in clock order (a start
                // before an end at the same clock), then activates the rest of the window: a key can
                // end and start again in one advance.
                Changes expected = new Changes();
                Map<Long, Integer> counts = activeCounts(model);
                List<ModelIntent> passed = new ArrayList<>();
                for (ModelIntent intent : model) {
                    long clock = clocks[intent.worker];
                    if (intent.state.equals("pending") && intent.from <= clock
                            || intent.state.equals("active") && intent.to <= clock) {
                        passed.add(intent);
                    }
                }
                passed.sort(Comparator.comparingLong((ModelIntent i) -> i.state.equals("pending") ? i.from : i.to)
                        .thenComparing(i -> i.state.equals("pending") ? 0 : 1));
                for (ModelIntent intent : passed) {
                    if (intent.state.equals("pending")) {
                        activate(intent, clocks, counts, expected);
                    } else {
                        intent.state = "done";
                        for (long key : intent.keys) {
                            if (counts.merge(key, -1, Integer::sum) == 0) {
                                counts.remove(key);
                                expected.onInactive(key);
                            }
                        }
                    }
                }
                for (ModelIntent intent : model) {
                    if (intent.state.equals("pending") && intent.from <= clocks[intent.worker] + window) {
                        activate(intent, clocks, counts, expected);
                    }
                }
                Set<Long> after = activeKeys(model);

                Changes changes = new Changes();
                tracker.advance(clocks.clone(), window, changes);
                advanced = true;

                assertThat(changes.perKey).isEqualTo(expected.perKey);
                if (fixedWindow) {
                    // With one window throughout, the contract is the closed form of the paper.
                    Set<Long> closedForm = new HashSet<>();
                    for (ModelIntent intent : model) {
                        long clock = clocks[intent.worker];
                        if (intent.from <= clock + fixed && intent.to > clock) {
                            Collections.addAll(closedForm, box(intent.keys));
                        }
                    }
                    assertThat(after).isEqualTo(closedForm);
                }
            }
            Set<Long> active = activeKeys(model);
            assertThat(tracker.activeKeys()).isEqualTo(active.size());
            for (long key = -keySpace; key <= keySpace; key++) {
                assertThat(tracker.isActive(key)).as("key %d", key).isEqualTo(active.contains(key));
            }
            assertThat(tracker.pendingIntents())
                    .isEqualTo((int) model.stream().filter(i -> i.state.equals("pending")).count());
        }
    }

    /** A pending intent of the model becomes active, or done if its worker's clock is past it. */
    private static void activate(ModelIntent intent, long[] clocks, Map<Long, Integer> counts, Changes changes) {
        if (intent.to <= clocks[intent.worker]) {
            intent.state = "done";
            return;
        }
        intent.state = "active";
        for (long key : intent.keys) {
            if (counts.merge(key, 1, Integer::sum) == 1) {
                changes.onActive(key, intent.from, intent.to);
            }
        }
    }

    /** Per key, how many of the model's active intents hold it (a key twice in one intent counts twice). */
    private static Map<Long, Integer> activeCounts(List<ModelIntent> model) {
        Map<Long, Integer> counts = new HashMap<>();
        for (ModelIntent intent : model) {
            if (intent.state.equals("active")) {
                for (long key : intent.keys) {
                    counts.merge(key, 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    private static Set<Long> activeKeys(List<ModelIntent> model) {
        Set<Long> keys = new HashSet<>();
        for (ModelIntent intent : model) {
            if (intent.state.equals("active")) {
                Collections.addAll(keys, box(intent.keys));
            }
        }
        return keys;
    }

    private static Long[] box(long[] keys) {
        Long[] boxed = new Long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            boxed[i] = keys[i];
        }
        return boxed;
    }
}
