package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import java.util.SplittableRandom;

import io.adaps.examples.Checks;
import io.adaps.examples.Seeds;

/**
 * A seeded synthetic ratings matrix in the style of the synthetic matrix factorization task of the
 * parameter server papers: a true low-rank matrix {@code U V^T} plus Gaussian noise, observed at
 * zipf-skewed positions.
 *
 * <ul>
 *   <li>True factors {@code U} ({@code rows x trueRank}) and {@code V} ({@code cols x trueRank})
 *       have i.i.d. components with mean 0 and standard deviation {@code 1 / sqrt(trueRank)}.</li>
 *   <li>An entry is {@code (r, c, U_r . V_c + noise * N(0, 1))}.</li>
 *   <li>{@code r} and {@code c} are drawn independently from Zipf distributions over the rows and
 *       columns ({@link ZipfSampler}), so a few rows and columns hold most entries, as in real
 *       rating data; this skew is what makes parameter access hot or cold.</li>
 *   <li>Zipf ranks are mapped to ids through a seeded permutation, so the hot rows are spread over
 *       the id (and key) range rather than packed at its start, where a range partitioning would put
 *       them all on one node.</li>
 *   <li>Entries are drawn i.i.d. <em>with replacement</em>: a hot position can appear several times,
 *       each time with fresh noise. This keeps generation {@code O(entries)} with no set of seen
 *       positions, and SGD does not care.</li>
 * </ul>
 *
 * Everything is determined by {@link Spec#seed()}: each part (factors, id permutations, entries)
 * draws from its own stream derived from the seed, so {@link #sample()} returns equal data every
 * time, on every machine.
 */
public final class SyntheticMatrix {
    private static final long FACTOR_STREAM = 1;
    private static final long ROW_ID_STREAM = 2;
    private static final long COL_ID_STREAM = 3;
    private static final long ENTRY_STREAM = 4;

    private final Spec spec;
    private final float[] rowFactors;
    private final float[] colFactors;
    private final int[] rowOfRank;
    private final int[] colOfRank;
    private final ZipfSampler rowSampler;
    private final ZipfSampler colSampler;

    /** Draws the true factors and id permutations of the matrix that {@code spec} describes. */
    public SyntheticMatrix(Spec spec) {
        this.spec = checkNotNull(spec, "spec");
        SplittableRandom factorRandom = stream(FACTOR_STREAM);
        double stddev = 1 / Math.sqrt(spec.trueRank());
        this.rowFactors = gaussians(spec.rows() * spec.trueRank(), stddev, factorRandom);
        this.colFactors = gaussians(spec.cols() * spec.trueRank(), stddev, factorRandom);
        this.rowOfRank = MfData.permutation(spec.rows(), Seeds.derive(spec.seed(), ROW_ID_STREAM, 0));
        this.colOfRank = MfData.permutation(spec.cols(), Seeds.derive(spec.seed(), COL_ID_STREAM, 0));
        this.rowSampler = new ZipfSampler(spec.rows(), spec.zipfExponent());
        this.colSampler = new ZipfSampler(spec.cols(), spec.zipfExponent());
    }

    private SplittableRandom stream(long stream) {
        return new SplittableRandom(Seeds.derive(spec.seed(), stream, 0));
    }

    private static float[] gaussians(int n, double stddev, SplittableRandom random) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (stddev * random.nextGaussian());
        }
        return values;
    }

    /**
     * The noise-free value {@code U_row . V_col}.
     *
     * @throws IllegalArgumentException if an id is out of range
     */
    public float trueValue(int row, int col) {
        if (row < 0 || row >= spec.rows() || col < 0 || col >= spec.cols()) {
            throw new IllegalArgumentException("row=" + row + ", col=" + col + " (expected 0.." + (spec.rows() - 1)
                    + " and 0.." + (spec.cols() - 1) + ")");
        }
        return dot(row, col);
    }

    private float dot(int row, int col) {
        int k = spec.trueRank();
        float sum = 0;
        for (int i = 0; i < k; i++) {
            sum += rowFactors[row * k + i] * colFactors[col * k + i];
        }
        return sum;
    }

    /** Draws the {@link Spec#entries()} observed entries; equal on every call. */
    public MfData sample() {
        int n = spec.entries();
        int[] rows = new int[n];
        int[] cols = new int[n];
        float[] values = new float[n];
        SplittableRandom random = stream(ENTRY_STREAM);
        for (int i = 0; i < n; i++) {
            int r = rowOfRank[rowSampler.sample(random)];
            int c = colOfRank[colSampler.sample(random)];
            rows[i] = r;
            cols[i] = c;
            values[i] = (float) (dot(r, c) + spec.noise() * random.nextGaussian());
        }
        return new MfData(spec.rows(), spec.cols(), rows, cols, values);
    }

    /**
     * What to generate.
     *
     * @param rows         rows of the matrix, > 0
     * @param cols         columns of the matrix, > 0
     * @param entries      observed entries to draw, > 0
     * @param trueRank     rank of the noise-free matrix, > 0
     * @param noise        standard deviation of the Gaussian noise on each entry, >= 0
     * @param zipfExponent skew of row and column choice, >= 0 (0 is uniform)
     * @param seed         determines everything
     */
    public record Spec(int rows, int cols, int entries, int trueRank, double noise, double zipfExponent, long seed) {
        /**
         * Checks the parameters.
         *
         * @throws IllegalArgumentException naming the first one out of range
         */
        public Spec {
            checkPositive(rows, "rows");
            checkPositive(cols, "cols");
            checkPositive(entries, "entries");
            checkPositive(trueRank, "trueRank");
            Checks.checkNonNegativeFinite(noise, "noise");
            Checks.checkNonNegativeFinite(zipfExponent, "zipfExponent");
            long factorFloats = Math.max((long) rows, cols) * trueRank;
            if (factorFloats > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("rows=" + rows + ", cols=" + cols + ", trueRank=" + trueRank
                        + " (expected max(rows, cols) * trueRank < 2^31 true factor components)");
            }
        }
    }
}
