package io.adaps.node;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The judge of a zero-initialized table with the {@code add} rule, where every push adds
 * {@code c * (1, 2, ..., valueLength)} for a small positive integer {@code c}. Every consistent
 * value of a row is then {@code s * (1, 2, ..., valueLength)} for an integer {@code s}, the sum of
 * the {@code c}s applied, and it only grows. All sums stay far below 2^24, so floats hold them
 * exactly. A completed pull must show:
 * <ul>
 *   <li>a consistent value: component {@code i} is {@code (i + 1)} times component 0; anything
 *       else is a torn value, or parts of two different values;</li>
 *   <li>{@code s} at least the sum of the pushes of the row that had completed before the pull
 *       started, and at least any {@code s} a pull of the row had returned before the pull
 *       started, by any worker: a row has one value at a time (it is never copied, only moved),
 *       and that value never decreases, so an operation cannot read an older state than one
 *       observed before it started. Less means a lost update or a stale copy;</li>
 *   <li>{@code s} at most the sum of the pushes of the row started so far; more means an update
 *       applied twice.</li>
 * </ul>
 * Pulls that overlap in time are not compared with each other, not even pulls of one worker: a
 * row may move between them, so the later-started one may be served first.
 */
final class AdditiveOracle implements RowOracle {
    private final int valueLength;
    /** Per row: the sum of the multiples of the pushes started, of those completed, and the largest multiple pulled. */
    private final long[] started;
    private final long[] completed;
    private final long[] pulled;

    AdditiveOracle(int rows, int valueLength) {
        this.valueLength = valueLength;
        this.started = new long[rows];
        this.completed = new long[rows];
        this.pulled = new long[rows];
    }

    @Override
    public boolean mayAccess(long[] rows) {
        return true;
    }

    @Override
    public void startPush(long[] rows, float[] updates, SplittableRandom random) {
        for (int j = 0; j < rows.length; j++) {
            int multiple = 1 + random.nextInt(3);
            for (int i = 0; i < valueLength; i++) {
                updates[j * valueLength + i] = multiple * (i + 1);
            }
            started[(int) rows[j]] += multiple;
        }
    }

    @Override
    public void pushCompleted(long[] rows, float[] updates) {
        for (int j = 0; j < rows.length; j++) {
            completed[(int) rows[j]] += (long) updates[j * valueLength];
        }
    }

    @Override
    public PullCheck startPull(long[] rows) {
        long[] atLeast = new long[rows.length];
        for (int j = 0; j < rows.length; j++) {
            int row = (int) rows[j];
            atLeast[j] = Math.max(completed[row], pulled[row]);
        }
        return values -> {
            for (int j = 0; j < rows.length; j++) {
                int row = (int) rows[j];
                long multiple = multipleOf(row, values, j * valueLength);
                if (multiple < atLeast[j]) {
                    throw new AssertionError("pull of row " + row + " returned " + multiple + " x (1, 2, ...), less than "
                            + atLeast[j] + ", what pushes completed (" + completed[row] + " now) or pulls returned before it"
                            + " started: a lost update or a stale copy");
                }
                if (multiple > started[row]) {
                    throw new AssertionError("pull of row " + row + " returned " + multiple + " x (1, 2, ...), more than "
                            + started[row] + ", the sum of every push of it started: an update applied twice");
                }
                pulled[row] = Math.max(pulled[row], multiple);
            }
        };
    }

    @Override
    public void checkFinal(long row, float[] values, int offset) {
        long multiple = multipleOf(row, values, offset);
        if (multiple != started[(int) row]) {
            throw new AssertionError("row " + row + " is " + multiple + " x (1, 2, ...) at the end (expected "
                    + started[(int) row] + ", the sum of all its pushes)");
        }
    }

    /** The {@code s} of a value {@code s * (1, 2, ...)}; throws if the value is not of that form. */
    private long multipleOf(long row, float[] values, int offset) {
        float first = values[offset];
        boolean consistent = first == (long) first && first >= 0;
        for (int i = 1; i < valueLength && consistent; i++) {
            consistent = values[offset + i] == first * (i + 1);
        }
        if (!consistent) {
            throw new AssertionError("row " + row + " has value "
                    + Arrays.toString(Arrays.copyOfRange(values, offset, offset + valueLength))
                    + " (expected a non-negative integer times (1, 2, ...): a torn or mixed value)");
        }
        return (long) first;
    }
}
