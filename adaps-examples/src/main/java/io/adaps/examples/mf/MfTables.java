package io.adaps.examples.mf;

import io.adaps.api.AdaPS;
import io.adaps.api.Initializers;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.examples.Seeds;

/**
 * The two factor tables of a matrix factorization model: {@value #ROWS} (one row of {@code rank}
 * floats per matrix row) and {@value #COLS} (one per matrix column). Both start from small
 * N(0, {@value #INIT_STDDEV}) values, so that the first gradients are non-zero yet the initial
 * predictions are near 0, and both use additive updates, because {@link MfSgdKernel} pushes the
 * finished SGD step.
 */
public final class MfTables {
    /** Name of the row factor table. */
    public static final String ROWS = "rows";
    /** Name of the column factor table. */
    public static final String COLS = "cols";
    /** Standard deviation of the initial factor components. */
    public static final float INIT_STDDEV = 0.1f;

    private MfTables() {
    }

    /** The row factor table for {@code numRows} rows; its initializer seed is derived from {@code seed}. */
    public static TableSpec rowSpec(int numRows, int rank, long seed) {
        return spec(ROWS, numRows, rank, Seeds.derive(seed, 0, 0));
    }

    /** The column factor table for {@code numCols} columns; its seed differs from the row table's. */
    public static TableSpec colSpec(int numCols, int rank, long seed) {
        return spec(COLS, numCols, rank, Seeds.derive(seed, 1, 0));
    }

    private static TableSpec spec(String name, int rows, int rank, long initializerSeed) {
        return TableSpec.of(name, rows, rank)
                .withInitializer(Initializers.normal(0f, INIT_STDDEV, initializerSeed))
                .withUpdateRule(UpdateRules.add());
    }

    /** Starts a single node holding both factor tables for a {@code numRows x numCols} matrix. */
    public static AdaPS startNode(int numRows, int numCols, int rank, long seed) {
        return builder(numRows, numCols, rank, seed).build();
    }

    /**
     * A node builder that declares both factor tables for a {@code numRows x numCols} matrix, homed
     * by {@link Partitioning#RANGE} (the homes {@link MfTrainer} groups its batches by); add more
     * tables or the cluster's settings before {@link AdaPS.Builder#build()}.
     */
    public static AdaPS.Builder builder(int numRows, int numCols, int rank, long seed) {
        return AdaPS.builder()
                .partitioning(Partitioning.RANGE)
                .table(rowSpec(numRows, rank, seed))
                .table(colSpec(numCols, rank, seed));
    }
}
