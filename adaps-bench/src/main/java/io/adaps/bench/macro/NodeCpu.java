package io.adaps.bench.macro;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaps.examples.ThreadCpu;
import io.adaps.examples.ThreadCpu.Kind;

/**
 * Where one node's processor time went during a range of training epochs, as every node of the
 * examples prints it at the end ({@link ThreadCpu}): {@code CPU node=0 epochs=2-10 wall=3.00
 * training=2.10 manager=0.40 transport=0.30 jit=0.10 gc=0.05 other=0.10}, behind the launcher's
 * {@code [node i] } prefix on a cluster. Every node's lines are read, unlike the RESULT lines that
 * only node 0 prints, because the cost of a cluster is per node: which of its threads take the
 * core that training would otherwise have.
 *
 * @param node       the node
 * @param firstEpoch the first epoch of the range, from 1
 * @param lastEpoch  the last epoch of the range
 * @param wall       the wall time of the range's training phases, in seconds
 * @param seconds    processor seconds by kind of thread over the range, for every kind
 */
record NodeCpu(int node, int firstEpoch, int lastEpoch, double wall, Map<Kind, Double> seconds) {
    private static final String TAG = "CPU";
    private static final Pattern EPOCHS = Pattern.compile("([1-9]\\d*)(?:-([1-9]\\d*))?");
    /** The keys of a CPU line, in the order the examples print them. */
    private static final Set<String> KEYS = keys();

    /** Copies the seconds and checks that every kind has them. */
    NodeCpu {
        seconds = Collections.unmodifiableMap(new EnumMap<>(seconds));
        if (seconds.size() != Kind.values().length) {
            throw new IllegalArgumentException("seconds=" + seconds + " (expected every kind of thread)");
        }
    }

    /** The epochs of the range. */
    int epochs() {
        return lastEpoch - firstEpoch + 1;
    }

    /** The wall time per epoch of the range. */
    double wallPerEpoch() {
        return wall / epochs();
    }

    /** The processor seconds of {@code kind} per epoch of the range. */
    double perEpoch(Kind kind) {
        return seconds.get(kind) / epochs();
    }

    /** The wall time per epoch of the range less every thread's processor time: how long the core was left idle. */
    double idlePerEpoch() {
        return (wall - seconds.values().stream().mapToDouble(Double::doubleValue).sum()) / epochs();
    }

    /**
     * The CPU line {@code line}, if it is one (of any node).
     *
     * @throws IllegalArgumentException if it is a CPU line whose keys are not exactly node, epochs,
     *                                  wall and the kinds of thread, whose values are not numbers (an
     *                                  epoch or a range {@code first-last} for epochs), or whose node
     *                                  is not that of its prefix
     */
    static Optional<NodeCpu> parse(String line) {
        Optional<TaggedLine> match = TaggedLine.match(TAG, line);
        if (match.isEmpty()) {
            return Optional.empty();
        }
        TaggedLine tagged = match.get();
        Map<String, String> pairs = tagged.pairs();
        if (!pairs.keySet().equals(KEYS)) {
            throw tagged.malformed("exactly the keys " + String.join(", ", KEYS));
        }
        Matcher epochs = EPOCHS.matcher(pairs.get("epochs"));
        if (!epochs.matches()) {
            throw tagged.malformed("epochs=N or epochs=N-M");
        }
        try {
            int node = Integer.parseInt(pairs.get("node"));
            if (tagged.prefix().isPresent() && tagged.prefix().getAsInt() != node) {
                throw tagged.malformed("node=" + tagged.prefix().getAsInt() + ", the node of its prefix");
            }
            int first = Integer.parseInt(epochs.group(1));
            int last = epochs.group(2) == null ? first : Integer.parseInt(epochs.group(2));
            if (last < first) {
                throw tagged.malformed("epochs=N-M with N <= M");
            }
            Map<Kind, Double> seconds = new EnumMap<>(Kind.class);
            for (Kind kind : Kind.values()) {
                seconds.put(kind, Double.parseDouble(pairs.get(kind.label())));
            }
            return Optional.of(new NodeCpu(node, first, last, Double.parseDouble(pairs.get("wall")), seconds));
        } catch (NumberFormatException e) {
            throw tagged.malformed("numbers: " + e.getMessage());
        }
    }

    /**
     * The CPU lines of every node among {@code lines} (a run's stdout), in order; other lines are skipped.
     *
     * @throws IllegalArgumentException if a CPU line is malformed (see {@link #parse})
     */
    static List<NodeCpu> parseAll(Iterable<String> lines) {
        return TaggedLine.all(lines, NodeCpu::parse);
    }

    private static Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>(List.of("node", "epochs", "wall"));
        for (Kind kind : Kind.values()) {
            keys.add(kind.label());
        }
        return Collections.unmodifiableSet(keys);
    }
}
