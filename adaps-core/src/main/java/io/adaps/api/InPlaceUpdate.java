package io.adaps.api;

/**
 * A change of two parameters' values made where the node stores them, without copies: see
 * {@link TableView#updateInPlace}. The arrays are the node's memory; only the {@code valueLength}
 * floats of each table from the given offsets belong to the two rows. An implementation reads and
 * writes those and nothing else, returns quickly, does not call the node (its rows are locked
 * meanwhile), and keeps no reference to the arrays.
 */
@FunctionalInterface
public interface InPlaceUpdate {
    /**
     * Changes the value of the first row, at {@code first[firstOffset ..]}, and of the second, at
     * {@code second[secondOffset ..]}, in place. For one row named twice both are the same floats.
     */
    void apply(float[] first, int firstOffset, float[] second, int secondOffset);
}
