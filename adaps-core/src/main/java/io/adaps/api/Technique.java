package io.adaps.api;

/**
 * How a node manages the placement of parameters. Chosen per node at start-up
 * ({@link AdaPS.Builder#technique}); nodes of one cluster may differ, since every node serves
 * requests for the parameters it holds whatever its own technique.
 */
public enum Technique {
    /**
     * The classic parameter server: every parameter stays at its home node.
     * {@link ParameterAccess#localize} returns at once and moves nothing.
     */
    STATIC,
    /**
     * Parameters move to the node that asks for them with {@link ParameterAccess#localize}
     * (dynamic parameter allocation, as in Lapse: Renz-Wieland et al., "Dynamic Parameter
     * Allocation in Parameter Servers", PVLDB 2020). Nothing is replicated.
     */
    RELOCATION_ONLY
}
