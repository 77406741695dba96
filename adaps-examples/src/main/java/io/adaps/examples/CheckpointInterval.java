package io.adaps.examples;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How often the examples checkpoint ({@code --checkpoint-every}): after every {@link #epochs()}-th
 * epoch, or, with a {@link #period()}, at the first cut of an epoch after the period has passed
 * (mid-epoch; see {@link EpochCuts}). Either way also after the last epoch.
 *
 * @param epochs epochs between checkpoints; 0 with a period
 * @param period the time between checkpoints, or {@code null} for a number of epochs
 */
public record CheckpointInterval(int epochs, Duration period) {
    private static final Pattern EPOCHS = Pattern.compile("\\d+");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");
    private static final Map<String, ChronoUnit> UNITS = Map.of("ms", ChronoUnit.MILLIS, "s", ChronoUnit.SECONDS,
            "m", ChronoUnit.MINUTES, "h", ChronoUnit.HOURS);

    /**
     * Checks the interval.
     *
     * @throws IllegalArgumentException unless exactly one of the two is given and positive
     */
    public CheckpointInterval {
        if (period == null ? epochs <= 0 : epochs != 0 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("epochs=" + epochs + ", period=" + period
                    + " (expected epochs > 0 or a positive period)");
        }
    }

    /** A checkpoint after every {@code epochs}-th epoch. */
    public static CheckpointInterval everyEpochs(int epochs) {
        return new CheckpointInterval(epochs, null);
    }

    /** A checkpoint at the first cut after every {@code period}. */
    public static CheckpointInterval every(Duration period) {
        return new CheckpointInterval(0, period);
    }

    /**
     * {@code text}, the value of option {@code name}: a number of epochs ({@code 2}) or a duration
     * with a unit of {@code ms}, {@code s}, {@code m} or {@code h} ({@code 30s}).
     *
     * @throws IllegalArgumentException naming the option and the value, if it is neither or not positive
     */
    public static CheckpointInterval parse(String text, String name) {
        Matcher duration = DURATION.matcher(text);
        try {
            if (EPOCHS.matcher(text).matches()) {
                int epochs = Integer.parseInt(text);
                return epochs > 0 ? everyEpochs(epochs) : notPositive(text, name);
            } else if (duration.matches()) {
                Duration period = Duration.of(Long.parseLong(duration.group(1)), UNITS.get(duration.group(2)));
                return period.isZero() ? notPositive(text, name) : every(period);
            }
        } catch (NumberFormatException | ArithmeticException tooLarge) {
            // Refused below, as any other value that is not an interval.
        }
        throw new IllegalArgumentException(name + "=" + text + " (expected EPOCHS or a duration such as 30s)");
    }

    private static CheckpointInterval notPositive(String text, String name) {
        throw new IllegalArgumentException(name + "=" + text + " (expected > 0)");
    }

    /** Whether checkpoints are taken mid-epoch, at the cuts of {@link EpochCuts}: with a period. */
    public boolean midEpoch() {
        return period != null;
    }

    /** Whether a checkpoint is due at the end of epoch {@code epoch}: every {@link #epochs()}-th, without a period. */
    public boolean dueAfter(int epoch) {
        return period == null && epoch % epochs == 0;
    }
}
