package io.adaps.relocation;

import io.adaps.api.Table;

/** Collects the rows a localize asks their homes for ({@link Relocator#claim}). */
@FunctionalInterface
public interface LocalizeSink {
    /** Asks {@code home} for {@code row} of {@code table}. */
    void ask(int home, Table table, long row);
}
