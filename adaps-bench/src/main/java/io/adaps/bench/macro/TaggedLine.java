package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A machine-readable line of an example's output: a tag ({@code RESULT}, {@code CPU}) and
 * {@code key=value} pairs, on its own or behind the launcher's {@code [node i] } prefix. Every kind
 * of line is read and refused the same way, so that {@link EpochResult} and {@link NodeCpu} differ
 * only in their keys.
 *
 * @param line   the whole line, for messages
 * @param prefix the node of the launcher's prefix, if the line has one
 * @param body   what follows the tag: the pairs, not yet checked
 */
record TaggedLine(String line, OptionalInt prefix, String body) {
    /**
     * {@code line} if it is a {@code tag} line (the tag at its start or right after the prefix,
     * followed by something); empty otherwise.
     */
    static Optional<TaggedLine> match(String tag, String line) {
        Matcher matcher = Pattern.compile("^(?:\\[node (\\d+)] )?" + Pattern.quote(tag) + "\\s+(\\S.*)$").matcher(line);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        OptionalInt prefix = matcher.group(1) == null ? OptionalInt.empty()
                : OptionalInt.of(Integer.parseInt(matcher.group(1)));
        return Optional.of(new TaggedLine(line, prefix, matcher.group(2).trim()));
    }

    /**
     * What {@code parser} makes of each of {@code lines} (a run's stdout) that it takes, in order.
     *
     * @throws IllegalArgumentException from the parser, for a malformed line
     */
    static <T> List<T> all(Iterable<String> lines, Function<String, Optional<T>> parser) {
        List<T> parsed = new ArrayList<>();
        for (String line : lines) {
            parser.apply(line).ifPresent(parsed::add);
        }
        return parsed;
    }

    /** Whether the line is node 0's: prefixed with {@code [node 0] }, or a single node's line without prefix. */
    boolean isNodeZero() {
        return prefix.isEmpty() || prefix.getAsInt() == 0;
    }

    /**
     * The pairs, in their order.
     *
     * @throws IllegalArgumentException if the body is not all distinct {@code key=value} pairs
     */
    Map<String, String> pairs() {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String pair : body.split("\\s+")) {
            int equals = pair.indexOf('=');
            if (equals <= 0 || pairs.put(pair.substring(0, equals), pair.substring(equals + 1)) != null) {
                throw malformed("distinct key=value pairs, not '" + pair + "'");
            }
        }
        return pairs;
    }

    /** The error that this line is not what was {@code expected}: {@code line='…' (expected …)}. */
    IllegalArgumentException malformed(String expected) {
        return new IllegalArgumentException("line='" + line + "' (expected " + expected + ")");
    }
}
