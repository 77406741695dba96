package io.adaps.api;

/**
 * A {@link Worker}'s view of one table: the {@link ParameterAccess} operations with ids that are
 * row numbers {@code 0 .. rows - 1} of the table. Asynchronous tickets are the worker's, to be
 * awaited with {@link Worker#waitFor(long)}. Belongs to the worker's thread.
 */
public interface TableView extends ParameterAccess {
    /** The table viewed. */
    Table table();

    /** The worker this view belongs to. */
    Worker worker();
}
