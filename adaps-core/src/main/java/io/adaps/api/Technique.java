package io.adaps.api;

/**
 * How a node manages the placement of parameters. Chosen per node at start-up
 * ({@link AdaPS.Builder#technique}); nodes of one cluster may differ, since every node serves
 * requests for the parameters it owns whatever its own technique, and a node's intents are decided
 * at each parameter's home by the technique the node announces with them.
 *
 * <p>Whatever the technique, {@link ParameterAccess#localize} moves parameters on request (except
 * under {@link #STATIC}), and every technique keeps the same guarantees: no update is lost, a
 * worker reads its own pushes, and replicas converge to their owner's value after
 * {@link Worker#waitSync()} and {@link AdaPS#barrier()}.
 */
public enum Technique {
    /**
     * The default: from the intents of all nodes the library decides per parameter, ahead of use,
     * whether to move it to the one node that will use it, replicate it on the several nodes that
     * will use it concurrently, or leave it (Renz-Wieland, Kieslinger, Gericke, Gemulla, Kaoudi,
     * Markl, "Good Intentions: Adaptive Parameter Servers via Intent Signaling", the AdaPM system).
     */
    ADAPTIVE,
    /**
     * Parameters move to the node that signals intent for them, or asks with
     * {@link ParameterAccess#localize} (dynamic parameter allocation, as in Lapse: Renz-Wieland et
     * al., "Dynamic Parameter Allocation in Parameter Servers", PVLDB 2020). Nothing is replicated;
     * concurrent intent on several nodes makes a parameter move back and forth.
     */
    RELOCATION_ONLY,
    /** Parameters stay at their home; a node that signals intent gets a replica. Nothing moves. */
    REPLICATION_ONLY,
    /**
     * The classic parameter server: every parameter stays at its home node. Intents are counted
     * and otherwise ignored; {@link ParameterAccess#localize} returns at once and moves nothing.
     */
    STATIC,
    /**
     * Every node holds a replica of every parameter it is not the home of, from the start, and
     * synchronizes them continuously: the all-reduce style baseline. Intents are ignored. Tables
     * whose update rule does not {@linkplain UpdateRule#accumulates() accumulate} are not
     * replicated.
     */
    FULL_REPLICATION;

    /** Whether nodes with this technique tell parameters' homes about their intents. */
    public boolean signalsIntent() {
        return this == ADAPTIVE || this == RELOCATION_ONLY || this == REPLICATION_ONLY;
    }

    /** Whether rows move to the nodes that use them under this technique. */
    public boolean relocates() {
        return this == ADAPTIVE || this == RELOCATION_ONLY;
    }

    /** Whether nodes with this technique hold replicas. */
    public boolean replicates() {
        return this == ADAPTIVE || this == REPLICATION_ONLY || this == FULL_REPLICATION;
    }
}
