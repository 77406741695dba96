package io.adaps.api;

import java.util.Arrays;

/**
 * What the reads of one table saw under its {@link Consistency} model, and what the bound cost.
 * A read is one pull call (by global keys: one of each table among its keys); its staleness is
 * the reader's clock minus the clock its values are known to reflect: the cluster's watermark for
 * rows owned here or read from their owner (every update of earlier clocks had reached its owner),
 * a replica's tag for replicas (the watermark when the round that last refreshed it started). So
 * a read at clock {@code c} of staleness {@code k} reflects every update of the clocks before
 * {@code c - k}; under {@code ssp(s)}, {@code k <= s}.
 *
 * @param table            the table's name
 * @param consistency      its model
 * @param readsByStaleness reads by staleness: entry {@code k} for {@code k} clocks, the last entry for
 *                         {@value #BUCKETS} or more
 * @param replicaWaitNanos time workers waited for replicas of this table to be refreshed
 * @param clockWaitNanos   time workers waited in {@link Worker#advanceClock()} for the slowest worker,
 *                         counted for the tables whose bound is the node's strictest
 */
public record StalenessMetrics(String table, Consistency consistency, long[] readsByStaleness, long replicaWaitNanos,
                               long clockWaitNanos) {
    /** Staleness values counted one by one; larger ones share the last entry. */
    public static final int BUCKETS = 64;

    /** Copies the counts. */
    public StalenessMetrics {
        readsByStaleness = readsByStaleness.clone();
        if (readsByStaleness.length != BUCKETS + 1) {
            throw new IllegalArgumentException("readsByStaleness.length=" + readsByStaleness.length + " (expected "
                    + (BUCKETS + 1) + ")");
        }
    }

    /** A copy of the counts. */
    @Override
    public long[] readsByStaleness() {
        return readsByStaleness.clone();
    }

    /** Reads counted. */
    public long reads() {
        long sum = 0;
        for (long count : readsByStaleness) {
            sum += count;
        }
        return sum;
    }

    /** The mean staleness (reads of {@value #BUCKETS} or more counted as {@value #BUCKETS}); 0 without reads. */
    public double meanStaleness() {
        long reads = reads();
        if (reads == 0) {
            return 0;
        }
        double sum = 0;
        for (int k = 0; k <= BUCKETS; k++) {
            sum += (double) k * readsByStaleness[k];
        }
        return sum / reads;
    }

    /**
     * The least staleness that {@code quantile} of the reads do not exceed ({@value #BUCKETS} stands
     * for that or more); 0 without reads.
     *
     * @throws IllegalArgumentException unless 0 <= quantile <= 1
     */
    public int staleness(double quantile) {
        if (!(quantile >= 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile=" + quantile + " (expected 0..1)");
        }
        long reads = reads();
        long rank = (long) Math.ceil(quantile * reads);
        long seen = 0;
        for (int k = 0; k <= BUCKETS; k++) {
            seen += readsByStaleness[k];
            if (seen >= rank && seen > 0) {
                return k;
            }
        }
        return 0;
    }

    /** The largest staleness seen ({@value #BUCKETS} for that or more); 0 without reads. */
    public int maxStaleness() {
        for (int k = BUCKETS; k >= 0; k--) {
            if (readsByStaleness[k] > 0) {
                return k;
            }
        }
        return 0;
    }

    /** One line: model, reads, mean, p99 and max staleness, waits. */
    public String describe() {
        return String.format("table %s (%s): %d reads, staleness mean %.2f, p99 %d, max %d clocks; waited %.3f s for "
                        + "the slowest worker, %.3f s for fresh replicas", table, consistency, reads(), meanStaleness(),
                staleness(0.99), maxStaleness(), clockWaitNanos / 1e9, replicaWaitNanos / 1e9);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StalenessMetrics that && table.equals(that.table) && consistency.equals(that.consistency)
                && Arrays.equals(readsByStaleness, that.readsByStaleness) && replicaWaitNanos == that.replicaWaitNanos
                && clockWaitNanos == that.clockWaitNanos;
    }

    @Override
    public int hashCode() {
        return table.hashCode() * 31 + Arrays.hashCode(readsByStaleness);
    }

    @Override
    public String toString() {
        return describe();
    }
}
