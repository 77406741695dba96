package io.adaps.node;

import java.util.SplittableRandom;

/**
 * What the values of rows may be, given which operations on them have started and completed: the
 * judge of a {@link RelocationRun}. Rows are passed exactly as the operation named them (they may
 * repeat in one operation); values are laid out row after row, {@code valueLength} floats each.
 */
interface RowOracle {
    /** The check of a pull's values, run once the pull has completed; throws {@link AssertionError}. */
    interface PullCheck {
        void completed(float[] values);
    }

    /** Whether a pull or push of {@code rows} may start now (localizes always may). */
    boolean mayAccess(long[] rows);

    /** Fills {@code updates} for a push of {@code rows} that starts now, and records that it started. */
    void startPush(long[] rows, float[] updates, SplittableRandom random);

    /** Records that the push of {@code rows} with {@code updates} has completed. */
    void pushCompleted(long[] rows, float[] updates);

    /** Records that a pull of {@code rows} starts now; returns the check of its values. */
    PullCheck startPull(long[] rows);

    /** Checks the value of {@code row}, read at {@code values[offset ..]} once everything is complete. */
    void checkFinal(long row, float[] values, int offset);
}
