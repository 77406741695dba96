package io.adaps.api;

/**
 * The change of one pair of a call of {@link TableView#updateInPlace(long[], int, TableView, long[], int, int,
 * InPlacePairUpdate, int[])}, made where the node stores the two rows: as {@link InPlaceUpdate}, told which pair
 * of the call it is. An implementation reads and writes only the {@code valueLength} floats of each table from
 * the given offsets, returns quickly, does not call the node (the pair's rows are locked meanwhile), and keeps no
 * reference to the arrays.
 */
@FunctionalInterface
public interface InPlacePairUpdate {
    /**
     * Changes pair {@code pair} (from 0, in the call's order): the first row's value at
     * {@code first[firstOffset ..]} and the second's at {@code second[secondOffset ..]}. For one row
     * named twice both are the same floats.
     */
    void apply(int pair, float[] first, int firstOffset, float[] second, int secondOffset);
}
