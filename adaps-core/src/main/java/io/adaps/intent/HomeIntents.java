package io.adaps.intent;

import io.adaps.api.Technique;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;

/**
 * At a parameter's home: which nodes currently intend to use it, and what follows for its
 * placement. This is the decision rule of the AdaPM adaptive manager (Renz-Wieland et al., "Good
 * Intentions: Adaptive Parameter Servers via Intent Signaling"):
 * <ul>
 *   <li>intent on exactly one node: relocate the parameter there (it is then accessed locally, and
 *       nothing needs synchronizing);</li>
 *   <li>concurrent intent on several nodes: every one of them but the owner gets a replica;</li>
 *   <li>no intent: leave it where it is.</li>
 * </ul>
 * Nodes announce their technique with their intents, and the rule follows it: a
 * {@link Technique#RELOCATION_ONLY} node always gets the parameter moved to it, a
 * {@link Technique#REPLICATION_ONLY} node always gets a replica. Parameters whose update rule does
 * not accumulate are never replicated.
 *
 * <p>Decisions are taken when an intent starts, and only then. When one of several nodes' intents
 * ends, the others keep their replicas until their own intents end, instead of having the
 * parameter moved to the last one: with intents that come and go (the tail of a skewed
 * distribution, mini-batch by mini-batch), moving on every end made parameters travel back and
 * forth and workers wait for them, while an extra replica costs only its synchronization.
 *
 * <p>Nodes with intent are a bit set, so clusters that use intents have at most
 * {@value #MAX_NODES} nodes. Only parameters with intent have an entry. Not thread-safe: the caller
 * serializes (the node's relocation lock, which also guards the owner it passes in).
 */
public final class HomeIntents {
    /** The most nodes a cluster that signals intent may have. */
    public static final int MAX_NODES = Long.SIZE;
    /** Decision: nothing to do. */
    public static final int NONE = 0;
    /** Decision action: move the parameter to the target node. */
    public static final int RELOCATE = 1;
    /** Decision action: give the target node a replica. */
    public static final int REPLICATE = 2;

    private final Long2LongOpenHashMap nodes = new Long2LongOpenHashMap();

    /** Intents of a cluster of {@code clusterSize} nodes, at most {@value #MAX_NODES}. */
    public HomeIntents(int clusterSize) {
        if (clusterSize < 1 || clusterSize > MAX_NODES) {
            throw new IllegalArgumentException("clusterSize=" + clusterSize + " (expected 1.." + MAX_NODES + ")");
        }
    }

    /** The action of a decision ({@link #NONE}, {@link #RELOCATE} or {@link #REPLICATE}). */
    public static int action(int decision) {
        return decision & 3;
    }

    /** The node a decision is for. */
    public static int target(int decision) {
        return decision >>> 2;
    }

    private static int decide(int action, int target) {
        return target << 2 | action;
    }

    /** The nodes with intent for {@code key}, as a bit set. */
    public long nodes(long key) {
        return nodes.get(key);
    }

    /**
     * Records that the intent of {@code node} (which uses {@code technique}) for {@code key} starts
     * or ({@code ends}) ends, and decides what follows.
     *
     * @param owner       the parameter's owner now
     * @param accumulates whether the parameter's update rule allows replicas
     * @return a decision: {@link #NONE}, or an {@link #action} for a {@link #target} node
     */
    public int onIntent(long key, int node, Technique technique, boolean ends, int owner, boolean accumulates) {
        long before = nodes.get(key);
        long after = ends ? before & ~(1L << node) : before | 1L << node;
        if (after == 0) {
            nodes.remove(key);
        } else if (after != before) {
            nodes.put(key, after);
        }
        if (ends || owner == node) {
            return NONE;
        }
        return switch (technique) {
            case RELOCATION_ONLY -> decide(RELOCATE, node);
            case REPLICATION_ONLY -> accumulates ? decide(REPLICATE, node) : NONE;
            case ADAPTIVE -> Long.bitCount(after) == 1 ? decide(RELOCATE, node)
                    : accumulates ? decide(REPLICATE, node) : NONE;
            case STATIC, FULL_REPLICATION -> NONE;
        };
    }
}
