package io.adaps.sampling;

import java.util.SplittableRandom;

import io.adaps.api.KeyDistribution;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.store.TableStore;

/**
 * {@link io.adaps.api.SamplingScheme#LOCAL}: prefers rows this node holds, owned or as a replica
 * (NuPS's local sampling, bounded). Each row of a sample is drawn from the distribution {@code p};
 * a draw whose row is not readable here ({@link TableStore#holdsReadable}: absent, a pending
 * replica, or draining) is drawn again, at most {@value #ATTEMPTS} draws in all; if every draw
 * was remote the last one is kept.
 *
 * <h2>The effective distribution</h2>
 * With {@code L} the probability mass of the rows held here at prepare time and {@code R =}
 * {@value #ATTEMPTS}, a row {@code k} is drawn with
 * <pre>
 *   q(k) = p(k) * (1 - (1 - L)^R) / L     if k is local   (accepted at any of the R draws)
 *   q(k) = p(k) * (1 - L)^(R - 1)         if k is remote  (every draw before the last was remote)
 * </pre>
 * ({@code q = p} if {@code L = 0} or {@code L = 1}). Within the local rows and within the remote
 * rows the distribution keeps its shape; only the mass moves from remote to local rows. The
 * total-variation distance to {@code p} is
 * <pre>
 *   TV(q, p) = (1 - L) * (1 - (1 - L)^(R - 1))
 * </pre>
 * which is 0 at both ends and at most 0.65 for {@code R = 8} (at {@code L} about 0.26, where
 * {@code 1 - L = R^(-1/(R-1))}); for example 0.50 at {@code L = 0.5}, 0.30 at
 * {@code L = 0.7}, 0.10 at {@code L = 0.9} (about {@code 1 - L} once {@code (1 - L)^(R-1)} is small).
 * Rows are drawn independently of each other. Locality is decided at prepare time: placement may
 * change before the pull, which then reads the row wherever it is.
 *
 * <p>Cost: one index and one pending-flag load per draw; the expected number of draws per row is
 * {@code (1 - (1 - L)^R) / L}, at most {@code R}.
 */
final class LocalSampler implements Sampler {
    /** The most draws per row: the bias above grows with it, and so does the cost when little is local. */
    static final int ATTEMPTS = SamplingScheme.LOCAL_ATTEMPTS;

    private final KeyDistribution distribution;
    private final Table table;
    private final TableStore store;

    LocalSampler(KeyDistribution distribution, Table table, TableStore store) {
        this.distribution = distribution;
        this.table = table;
        this.store = store;
    }

    @Override
    public int draw(SplittableRandom random, long[] rows, int n) {
        int redraws = 0;
        for (int i = 0; i < n; i++) {
            long row = Sampler.drawRow(distribution, table, random);
            for (int attempt = 1; attempt < ATTEMPTS && !store.holdsReadable(row); attempt++) {
                row = Sampler.drawRow(distribution, table, random);
                redraws++;
            }
            rows[i] = row;
        }
        return redraws;
    }
}
