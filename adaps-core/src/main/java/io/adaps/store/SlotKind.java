package io.adaps.store;

/** Whether a node holds a parameter as its owner or as a replica of another node's parameter. */
public enum SlotKind {
    /** This node owns the parameter: its value is authoritative and update rules run here. */
    OWNED,
    /** This node holds a copy; its updates are merged into the owner's value by synchronization. */
    REPLICA
}
