package io.adaps.bench.macro;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One epoch as an example reports it in its machine-readable line, printed by node 0 only (under
 * the launcher, prefixed with {@code [node 0] }): {@code RESULT} followed by {@code key=value}
 * pairs ({@link TaggedLine}). Every workload reports {@code epoch}, {@code seconds}, {@code local},
 * {@code bytes} and {@code entries}; its quality figures are further pairs, e.g. {@code rmse=0.1162}
 * ({@code mf}) or {@code loss=… heldout=… similarity=…} ({@code w2v}). Parsing the pairs generically
 * keeps one parser for every workload, and new figures need no change here.
 *
 * @param epoch     the epoch, from 1
 * @param seconds   the epoch's training time (the cluster's)
 * @param local     the fraction of the cluster's training accesses in the epoch that were local
 * @param bytesSent the bytes node 0 had sent by the end of the epoch
 * @param entries   the cluster's training entries in the epoch (mf: ratings; w2v: words)
 * @param figures   the line's other pairs in their order, e.g. {@code rmse}; {@code NaN} if it diverged
 */
record EpochResult(int epoch, double seconds, double local, long bytesSent, long entries, Map<String, Double> figures) {
    private static final String TAG = "RESULT";
    private static final List<String> REQUIRED = List.of("epoch", "seconds", "local", "bytes", "entries");

    /** Copies the figures, keeping their order. */
    EpochResult {
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** The figure {@code key} of the line, if it had one. */
    OptionalDouble figure(String key) {
        Double value = figures.get(key);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /**
     * The result of {@code line}, if it is a RESULT line of node 0 (other nodes print none).
     *
     * @throws IllegalArgumentException if it is a RESULT line of node 0 that is not all
     *                                  {@code key=number} pairs, repeats a key or lacks one of epoch,
     *                                  seconds, local, bytes and entries
     */
    static Optional<EpochResult> parse(String line) {
        Optional<TaggedLine> tagged = TaggedLine.match(TAG, line).filter(TaggedLine::isNodeZero);
        if (tagged.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> pairs = tagged.get().pairs();
        if (!pairs.keySet().containsAll(REQUIRED)) {
            throw tagged.get().malformed("the keys " + String.join(", ", REQUIRED));
        }
        try {
            int epoch = Integer.parseInt(pairs.remove("epoch"));
            double seconds = Double.parseDouble(pairs.remove("seconds"));
            double local = Double.parseDouble(pairs.remove("local"));
            long bytes = Long.parseLong(pairs.remove("bytes"));
            long entries = Long.parseLong(pairs.remove("entries"));
            Map<String, Double> figures = new LinkedHashMap<>();
            for (Map.Entry<String, String> pair : pairs.entrySet()) {
                figures.put(pair.getKey(), Double.parseDouble(pair.getValue()));
            }
            return Optional.of(new EpochResult(epoch, seconds, local, bytes, entries, figures));
        } catch (NumberFormatException e) {
            throw tagged.get().malformed("numbers: " + e.getMessage());
        }
    }

    /**
     * The results of node 0 among {@code lines} (a run's stdout), in order; other lines are skipped.
     *
     * @throws IllegalArgumentException if a RESULT line of node 0 is malformed (see {@link #parse})
     */
    static List<EpochResult> parseAll(Iterable<String> lines) {
        return TaggedLine.all(lines, EpochResult::parse);
    }
}
