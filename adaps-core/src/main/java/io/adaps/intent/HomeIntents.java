package io.adaps.intent;

import io.adaps.api.Technique;
import java.util.function.LongToIntFunction;

import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;
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
 * <p>A relocation for an {@link Technique#ADAPTIVE} node's intent waits {@code delay} first (the
 * caller releases it with {@link #releaseDue}): the rule is about the intents that start within
 * an action window, and nodes that start using a key together (every node, after a barrier)
 * reach its home a few milliseconds apart. Deciding on the first one moved every shared key to
 * whichever node happened to be first, so that the others held replicas of everything; waiting
 * lets the home see them together, keep the key, and replicate it on each of them.
 *
 * <p>Decisions are taken when an intent starts (or a deferred one is released), and only then. When one of several nodes' intents
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
    /** Decision action: move the parameter to the target node. */
    public static final int RELOCATE = 1;
    /** Decision action: give the target node a replica. */
    public static final int REPLICATE = 2;

    /** Where a decision goes. */
    @FunctionalInterface
    public interface Decisions {
        /** Move the parameter of {@code key} to {@code target} ({@link #RELOCATE}) or replicate it there. */
        void decide(long key, int action, int target);
    }

    private final Long2LongOpenHashMap nodes = new Long2LongOpenHashMap();
    /** Keys whose relocation waits, with the time it is due, in the order they were deferred. */
    private final Long2LongLinkedOpenHashMap deferred = new Long2LongLinkedOpenHashMap();
    private final long delayNanos;

    /**
     * Intents of a cluster of {@code clusterSize} nodes, at most {@value #MAX_NODES};
     * {@code delayNanos} (0 for none) defers relocations for adaptive nodes' intents.
     */
    public HomeIntents(int clusterSize, long delayNanos) {
        if (clusterSize < 1 || clusterSize > MAX_NODES) {
            throw new IllegalArgumentException("clusterSize=" + clusterSize + " (expected 1.." + MAX_NODES + ")");
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delayNanos=" + delayNanos + " (expected >= 0)");
        }
        this.delayNanos = delayNanos;
    }

    /** The nodes with intent for {@code key}, as a bit set. */
    public long nodes(long key) {
        return nodes.get(key);
    }

    /**
     * Records that the intent of {@code node} (which uses {@code technique}) for {@code key} starts
     * or ({@code ends}) ends at time {@code now}, and hands what follows to {@code decisions}.
     *
     * @param owner       the parameter's owner now
     * @param accumulates whether the parameter's update rule allows replicas
     */
    public void onIntent(long key, int node, Technique technique, boolean ends, int owner, boolean accumulates,
                         long now, Decisions decisions) {
        long before = nodes.get(key);
        long after = ends ? before & ~(1L << node) : before | 1L << node;
        if (after == 0) {
            nodes.remove(key);
        } else if (after != before) {
            nodes.put(key, after);
        }
        if (deferred.containsKey(key) && Long.bitCount(after) != 1) {
            deferred.remove(key);
            int waiting = Long.numberOfTrailingZeros(before);
            if (!ends && accumulates && waiting != owner) {
                decisions.decide(key, REPLICATE, waiting); // it is shared after all
            }
        }
        if (ends || owner == node) {
            return;
        }
        switch (technique) {
            case RELOCATION_ONLY -> decisions.decide(key, RELOCATE, node);
            case REPLICATION_ONLY -> {
                if (accumulates) {
                    decisions.decide(key, REPLICATE, node);
                }
            }
            case ADAPTIVE -> {
                if (Long.bitCount(after) == 1) {
                    if (delayNanos == 0) {
                        decisions.decide(key, RELOCATE, node);
                    } else if (!deferred.containsKey(key)) {
                        deferred.put(key, now + delayNanos);
                    }
                } else if (accumulates) {
                    decisions.decide(key, REPLICATE, node);
                }
            }
            case STATIC, FULL_REPLICATION -> { }
        }
    }

    /**
     * Releases the deferred relocations due at {@code now}: a key whose intent is still on one node
     * only, which does not own it ({@code owners} names the owner of a key), moves there.
     */
    public void releaseDue(long now, LongToIntFunction owners, Decisions decisions) {
        while (!deferred.isEmpty() && deferred.get(deferred.firstLongKey()) - now <= 0) {
            long key = deferred.firstLongKey();
            deferred.remove(key);
            long with = nodes.get(key);
            int target = Long.numberOfTrailingZeros(with);
            if (Long.bitCount(with) == 1 && owners.applyAsInt(key) != target) {
                decisions.decide(key, RELOCATE, target);
            }
        }
    }

    /** Whether relocations wait to be released. */
    public boolean hasDeferred() {
        return !deferred.isEmpty();
    }
}
