package io.adaps.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

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

    /** Records the listener's calls within one advance. */
    static final class Changes implements IntentTracker.Listener {
        final List<Long> activated = new ArrayList<>();
        final List<Long> deactivated = new ArrayList<>();

        @Override
        public void onActive(long key, long fromClock, long toClock) {
            activated.add(key);
        }

        @Override
        public void onInactive(long key) {
            deactivated.add(key);
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
                // An advance activates what starts by the clock, expires, then activates the rest
                // of the window: a key can end and start again in one advance.
                Set<Long> before = activeKeys(model);
                activate(model, clocks, 0);
                Set<Long> started = difference(activeKeys(model), before);
                Set<Long> beforeExpiry = activeKeys(model);
                for (ModelIntent intent : model) {
                    if (intent.state.equals("active") && intent.to <= clocks[intent.worker]) {
                        intent.state = "done";
                    }
                }
                Set<Long> afterExpiry = activeKeys(model);
                Set<Long> ended = difference(beforeExpiry, afterExpiry);
                activate(model, clocks, window);
                Set<Long> after = activeKeys(model);
                started.addAll(difference(after, afterExpiry));

                Changes changes = new Changes();
                tracker.advance(clocks.clone(), window, changes);
                advanced = true;

                assertThat(changes.activated).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(started);
                assertThat(changes.deactivated).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ended);
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

    /** The model's pending intents that start within {@code window} of their worker's clock become active (or done). */
    private static void activate(List<ModelIntent> model, long[] clocks, long window) {
        for (ModelIntent intent : model) {
            long clock = clocks[intent.worker];
            if (intent.state.equals("pending") && intent.from <= clock + window) {
                intent.state = intent.to <= clock ? "done" : "active";
            }
        }
    }

    private static Set<Long> difference(Set<Long> of, Set<Long> without) {
        Set<Long> rest = new TreeSet<>(of);
        rest.removeAll(without);
        return rest;
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
