package io.adaps.examples.mf;

import io.adaps.api.Technique;

/**
 * How the nodes of an {@code mf} cluster walk their entries: the application's choice of
 * distributed SGD algorithm, which decides what each node uses when (what the library then places
 * is its own business).
 */
public enum Schedule {
    /**
     * Hogwild on each node's rows (the hottest rows dealt to every node), with intent signals per
     * group of chunks: every node uses the columns at once, so a placing technique replicates them.
     * Under {@link Technique#STATIC} plain Hogwild on a part of the entries, without intents.
     */
    HOGWILD,
    /**
     * The blocked schedule of distributed SGD ({@link BlockSchedule}): one column block per node
     * and sub-epoch, each used by one node after another. Under {@link Technique#RELOCATION_ONLY}
     * the blocks are moved by hand; under {@link Technique#ADAPTIVE} the schedule signals intent
     * and the library hands them on.
     */
    BLOCKED;

    /**
     * The schedule {@code technique} runs unless told otherwise: the blocked one where relocation
     * is all there is, Hogwild elsewhere (on the default data the blocked schedule by intent is
     * faster per epoch under {@link Technique#ADAPTIVE}, but on other shapes slower and up to 1.8%
     * further from the single node's test RMSE; see {@code docs/benchmarks.md}).
     */
    public static Schedule defaultFor(Technique technique) {
        return technique == Technique.RELOCATION_ONLY ? BLOCKED : HOGWILD;
    }

    /**
     * Checks that {@code technique} can run this schedule on a cluster: the blocked schedule needs
     * a technique that moves parameters, and relocation alone cannot serve columns that every node
     * uses at once.
     *
     * @return this schedule
     * @throws IllegalArgumentException naming both otherwise
     */
    public Schedule checkFits(Technique technique) {
        if (this == BLOCKED && technique != Technique.ADAPTIVE && technique != Technique.RELOCATION_ONLY) {
            throw new IllegalArgumentException("--schedule=" + this + " with --technique=" + technique
                    + " (expected ADAPTIVE or RELOCATION_ONLY: the blocked schedule moves each column block to its node)");
        }
        if (this == HOGWILD && technique == Technique.RELOCATION_ONLY) {
            throw new IllegalArgumentException("--schedule=" + this + " with --technique=" + technique
                    + " (expected BLOCKED: relocation alone cannot serve columns that every node uses at once)");
        }
        return this;
    }
}
