package io.adaps.bench.macro;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One epoch as the {@code mf} example reports it in its machine-readable line
 * {@code RESULT epoch=<n> seconds=<s> rmse=<r> local=<f> bytes=<b>}, printed by node 0 only (under
 * the launcher, prefixed with {@code [node 0] }).
 *
 * @param epoch     the epoch, from 1
 * @param seconds   the epoch's training time (the cluster's)
 * @param testRmse  the cluster's test RMSE after the epoch ({@code NaN} if it had none)
 * @param local     the fraction of the cluster's training accesses in the epoch that were local
 * @param bytesSent the bytes node 0 had sent by the end of the epoch
 */
record EpochResult(int epoch, double seconds, double testRmse, double local, long bytesSent) {
    /** A RESULT line, on its own or behind the launcher's prefix of node 0; other nodes' lines do not match. */
    private static final Pattern LINE = Pattern.compile("^(?:\\[node 0] )?RESULT epoch=(\\d+) seconds=(\\S+) "
            + "rmse=(\\S+) local=(\\S+) bytes=(\\d+)\\s*$");

    /**
     * The result of {@code line}, if it is a RESULT line of node 0.
     *
     * @throws IllegalArgumentException if it is a RESULT line whose numbers do not parse
     */
    static Optional<EpochResult> parse(String line) {
        Matcher matcher = LINE.matcher(line);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new EpochResult(Integer.parseInt(matcher.group(1)),
                    Double.parseDouble(matcher.group(2)), Double.parseDouble(matcher.group(3)),
                    Double.parseDouble(matcher.group(4)), Long.parseLong(matcher.group(5))));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line='" + line + "' (expected numbers: " + e.getMessage() + ")", e);
        }
    }

    /** The results of node 0 among {@code lines} (a run's stdout), in order; other lines are skipped. */
    static List<EpochResult> parseAll(Iterable<String> lines) {
        List<EpochResult> results = new ArrayList<>();
        for (String line : lines) {
            parse(line).ifPresent(results::add);
        }
        return results;
    }
}
