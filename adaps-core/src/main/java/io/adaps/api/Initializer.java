package io.adaps.api;

/**
 * Produces the initial value of each parameter of a table. The value must depend only on the row
 * (and the initializer's own configuration, such as a seed), never on the node or the order of
 * calls, so that every node of a cluster would produce the same model. Implementations must be
 * immutable and thread-safe. Built-in initializers are in {@link Initializers}. Every node of a
 * cluster must use the same initializer for a table: nodes compare the initializers'
 * {@link #descriptor()}s when they connect.
 */
public interface Initializer {
    /**
     * The initializer and every parameter that changes what it writes, e.g.
     * {@code normal(mean=0.0, stddev=0.1, seed=42)}: two nodes agree on a table's initializer when
     * their descriptors are equal.
     */
    String descriptor();

    /**
     * Writes the initial value of {@code row} into {@code dst[offset .. offset + length)}.
     *
     * @param row    the table-relative row id
     * @param dst    where to write
     * @param offset where the value starts in {@code dst}
     * @param length floats in the value (the table's value length)
     */
    void initialize(long row, float[] dst, int offset, int length);
}
