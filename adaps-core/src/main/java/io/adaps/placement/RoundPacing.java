package io.adaps.placement;

/**
 * When the next synchronization round may start: rounds take at most a share {@code s} of the
 * manager thread's time, so after a round of duration {@code d} the next waits
 * {@code d (1 - s) / s}, and at least a minimum interval. On a machine whose cores the training
 * threads need, synchronization must not starve them. Times are those of the node's clock,
 * passed in, so the rule is tested with any clock. Manager thread only.
 */
final class RoundPacing {
    private final double share;
    private final long minIntervalNanos;
    private long next;

    /**
     * @param share            the largest share of the thread's time rounds take, in (0, 1]
     * @param minIntervalNanos the least time between the starts of the waits and the next round
     */
    RoundPacing(double share, long minIntervalNanos) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share=" + share + " (expected 0 < share <= 1)");
        }
        this.share = share;
        this.minIntervalNanos = minIntervalNanos;
    }

    /** Whether a paced round may start at {@code now}. */
    boolean due(long now) {
        return now - next >= 0;
    }

    /** Nanoseconds from {@code now} until a paced round may start; 0 or less if it may now. */
    long untilDue(long now) {
        return next - now;
    }

    /** A round ended at {@code end} after {@code duration} nanoseconds: the next waits its share. */
    void ran(long end, long duration) {
        next = end + Math.max(minIntervalNanos, (long) (duration * (1 - share) / share));
    }

    /**
     * A round that a waiting worker asked for ended at {@code end}: it had to run whatever it
     * took, so it keeps the next paced round only the minimum interval away (or where the rounds
     * before put it, if that is later).
     */
    void ranOnRequest(long end) {
        next = Math.max(next, end + minIntervalNanos);
    }
}
