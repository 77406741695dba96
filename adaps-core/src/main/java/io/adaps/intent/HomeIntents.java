package io.adaps.intent;

import java.util.Arrays;
import java.util.function.LongPredicate;
import java.util.function.LongToIntFunction;

import io.adaps.api.Technique;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;

/**
 * At a parameter's home: which nodes currently intend to use it, during which clocks, and what
 * follows for its placement. This is the decision rule of the AdaPM adaptive manager
 * (Renz-Wieland et al., "Good Intentions: Adaptive Parameter Servers via Intent Signaling"):
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
 * <h2>Use one after the other: hand-offs</h2>
 * Nodes act on an intent a little ahead of its start (the action window), so a node that will use
 * a parameter next announces its intent while the node before it still uses it, and may announce
 * it before that node's own announcement has reached the home. Several nodes hold intent then,
 * but not <em>concurrently</em>: the blocked schedule of distributed SGD passes each column block
 * from node to node, sub-epoch by sub-epoch. Replicating there would synchronize a parameter that
 * only one node uses at a time. So a start carries its intent's clocks {@code [from, to)} and the
 * home keeps each node's. While the {@link Technique#ADAPTIVE} intents on a parameter have
 * disjoint clocks (and its model keeps the nodes' clocks in step, see below), they form a
 * <em>sequence</em>: the parameter goes to the node whose clocks come first (at once, without
 * the decision delay below), the home asks that node to
 * {@link #RELEASE} it as soon as its intent ends (no lingering), and the next node waits; when the
 * first node's end arrives, the parameter moves on to the next, and so on. The earlier node knows
 * its own use exactly, the home only the clocks of the intent that started it: if the earlier node
 * still uses the parameter once its clock reaches the waiting node's start, it says so
 * ({@link #onOverlap}) and the use is concurrent after all; so it is if the hand-off is not done
 * within {@value #HANDOFF_DELAYS} decision delays (the earlier node may lag far behind), or a start
 * overlaps the clocks of a node with intent. Concurrent use gets replicas, as the rule above says;
 * a waiting node that has one still gets the parameter (the replica becomes the owner) when the
 * node before it lets go.
 *
 * <p>Clocks are the workers' logical clocks, and only the parameter's consistency model says how
 * far apart in them the nodes may be at one time. So intents form sequences only under a model
 * that keeps the nodes' clocks in step ({@code bsp}), as nodes that take turns do (the blocked
 * schedule ends each sub-epoch at a barrier). Under a stale model ({@code ssp}, {@code essp}) a node
 * may start clock {@code c} while another is at {@code c - s}, and under {@code asp} at any clock:
 * intents in clocks {@code [4, 8)} and {@code [8, 12)} on two nodes of a Hogwild schedule are used
 * at the same time whenever the second runs ahead. Even intents the bound apart were no turns
 * there but the tail of a skewed distribution, used now on one node, now on the other: a
 * parameter handed on is let go without lingering, so each use moved it again (and waited for
 * its decision), every epoch, while a replica lingers and costs only its version while idle
 * (issue 13, the skewed MF shape under {@code essp:4}: sequences at any distance 0.29-0.32 s per
 * epoch, at the bound or more apart 0.26-0.32 s, none 0.21-0.23 s, as fast as replicating everything).
 *
 * <h2>Deferred relocations</h2>
 * A relocation for an {@link Technique#ADAPTIVE} node's intent on a parameter nobody else intends
 * to use waits {@code delay} first (the caller releases it with {@link #releaseDue}): nodes that
 * start using a key together (every node, after a barrier) reach its home a few milliseconds
 * apart. Deciding on the first one moved every shared key to whichever node happened to be first,
 * so that the others held replicas of everything; waiting lets the home see them together, keep
 * the key, and replicate it on each of them. A start in clocks after or before the deferred
 * node's makes a sequence, which decides at once.
 *
 * <p>Decisions are taken when an intent starts or ends, or a deferred one is released. When one of
 * several concurrent nodes' intents ends, the others keep their replicas until their own intents
 * end, instead of having the parameter moved to the last one: with intents that come and go (the
 * tail of a skewed distribution), moving on every end made parameters travel back and forth and
 * workers wait for them, while an extra replica costs only its synchronization.
 *
 * <p>Nodes with intent are a bit set, so clusters that use intents have at most
 * {@value #MAX_NODES} nodes. Only parameters with intent have a slot, found with one hash lookup
 * per decision (the home decides for every key a node starts or stops using): their nodes, the
 * node a sequence has it and the one waiting next, and each node's clocks live in arrays by slot.
 * Not thread-safe: the caller serializes (the home's monitor).
 */
public final class HomeIntents {
    /** The most nodes a cluster that signals intent may have. */
    public static final int MAX_NODES = Long.SIZE;
    /** Decision action: move the parameter to the target node. */
    public static final int RELOCATE = 1;
    /** Decision action: give the target node a replica. */
    public static final int REPLICATE = 2;
    /**
     * Decision action: the target node should let the parameter go as soon as its intent ends,
     * and say if it still uses it at {@code clock}, where the next node's intent starts.
     */
    public static final int RELEASE = 3;
    /**
     * How many decision delays (2 s) a hand-off may take before the waiting node gets a replica: a
     * safety net for a node before it that lags far behind (an overlap is reported as soon as that
     * node's clock reaches the waiting node's start), during which the waiting node's accesses may
     * be remote. 4 (200 ms) was shorter than a sub-epoch of the blocked schedule in a first epoch
     * that the JIT slows down: 3 of 4 runs replicated a block or two there, for nothing.
     */
    public static final int HANDOFF_DELAYS = 40;

    /** Where a decision goes. */
    @FunctionalInterface
    public interface Decisions {
        /**
         * Move the parameter of {@code key} to {@code target} ({@link #RELOCATE}), replicate it
         * there ({@link #REPLICATE}), or ask {@code target} to release it ({@link #RELEASE}: then
         * {@code clock} is the waiting node's first clock; otherwise 0).
         */
        void decide(long key, int action, int target, long clock);
    }

    private static final int NONE = -1;

    private final int clusterSize;
    /** Per key with intent, its slot in the arrays below; one lookup per decision. */
    private final Long2IntOpenHashMap slots = new Long2IntOpenHashMap();
    private final IntArrayList freeSlots = new IntArrayList();
    /** Per slot: the nodes with intent, as a bit set. */
    private long[] nodeBits;
    /** Per slot: the node last told to move the parameter to itself, until it owns it; else {@link #NONE}. */
    private int[] holder;
    /** Per slot, while a sequence runs: the node waiting next; else {@link #NONE}. */
    private int[] waiting;
    /**
     * Per slot: the nodes whose intent to replicate started while they owned the parameter, as a
     * bit set. Nothing was decided for them (they had it); if it is granted to another node while
     * they still intend to use it, they get a replica ({@link #onGranted}).
     */
    private long[] ownedAtStart;
    /** Slot {@code s} holds node {@code n}'s start and end clocks at {@code s * clusterSize + n}. */
    private long[] starts;
    private long[] ends;
    private int usedSlots;
    /** Keys whose relocation waits, with the time it is due, in the order they were deferred. */
    private final Long2LongLinkedOpenHashMap deferred = new Long2LongLinkedOpenHashMap();
    /** Keys handed off, with the time the waiting node gets a replica if the hand-off is not done by then. */
    private final Long2LongLinkedOpenHashMap handoffsDue = new Long2LongLinkedOpenHashMap();
    private final long delayNanos;
    private final long handoffNanos;
    /** Per key: whether its consistency model keeps the nodes' clocks in step, so that intents may form sequences. */
    private final LongPredicate inStep;

    /**
     * Intents of a cluster of {@code clusterSize} nodes, at most {@value #MAX_NODES};
     * {@code delayNanos} (0 for none) defers relocations for adaptive nodes' intents, and a
     * hand-off not done within {@value #HANDOFF_DELAYS} times that gives the waiting node a replica;
     * {@code inStep} tells per key whether its consistency model keeps the nodes' clocks in step
     * ({@code bsp}): only then do intents one after the other form sequences.
     */
    public HomeIntents(int clusterSize, long delayNanos, LongPredicate inStep) {
        if (clusterSize < 1 || clusterSize > MAX_NODES) {
            throw new IllegalArgumentException("clusterSize=" + clusterSize + " (expected 1.." + MAX_NODES + ")");
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delayNanos=" + delayNanos + " (expected >= 0)");
        }
        this.clusterSize = clusterSize;
        this.delayNanos = delayNanos;
        this.handoffNanos = delayNanos * HANDOFF_DELAYS;
        this.inStep = inStep;
        int initial = 64;
        this.nodeBits = new long[initial];
        this.holder = new int[initial];
        this.waiting = new int[initial];
        this.ownedAtStart = new long[initial];
        this.starts = new long[initial * clusterSize];
        this.ends = new long[initial * clusterSize];
        slots.defaultReturnValue(NONE);
    }

    /** The nodes with intent for {@code key}, as a bit set. */
    public long nodes(long key) {
        int slot = slots.get(key);
        return slot == NONE ? 0 : nodeBits[slot];
    }

    /** The node waiting for {@code key}'s hand-off, or -1. */
    public int waiting(long key) {
        int slot = slots.get(key);
        return slot == NONE ? NONE : waiting[slot];
    }

    /**
     * Records that the intent of {@code node} (which uses {@code technique}) for {@code key} for
     * its clocks {@code [from, to)} starts at time {@code now}, and hands what follows to
     * {@code decisions}.
     *
     * @param owner       the parameter's owner now
     * @param accumulates whether the parameter's update rule allows replicas
     */
    public void onStart(long key, int node, Technique technique, long from, long to, int owner, boolean accumulates,
                        long now, Decisions decisions) {
        long bit = 1L << node;
        int slot = slots.get(key);
        if (slot == NONE) {
            slot = newSlot(key);
        }
        long before = nodeBits[slot];
        if ((before & bit) != 0) {
            return; // already known (a repeated announcement changes nothing)
        }
        nodeBits[slot] = before | bit;
        int base = slot * clusterSize;
        starts[base + node] = from;
        ends[base + node] = to;
        boolean wasDeferred = !deferred.isEmpty() && deferred.containsKey(key);
        // A sequence: clocks in step, one other node or several already in one, none overlapping these clocks.
        if (technique == Technique.ADAPTIVE && (Long.bitCount(before) == 1 || waiting[slot] != NONE)
                && inStep.test(key) && disjoint(base, before, from, to)) {
            if (wasDeferred) {
                deferred.remove(key);
            }
            arrange(key, slot, owner, now, decisions);
            return;
        }
        if (waiting[slot] != NONE) {
            // A node whose clocks overlap a sequence's: the use is concurrent after all.
            concurrent(key, slot, before, owner, accumulates, decisions);
        } else if (wasDeferred) {
            deferred.remove(key);
            int first = Long.numberOfTrailingZeros(before);
            if (accumulates && first != owner) {
                decisions.decide(key, REPLICATE, first, 0); // it is shared after all
            }
        }
        if (owner == node) {
            if (technique == Technique.ADAPTIVE || technique == Technique.REPLICATION_ONLY) {
                ownedAtStart[slot] |= bit;
            }
            return;
        }
        switch (technique) {
            case RELOCATION_ONLY -> decisions.decide(key, RELOCATE, node, 0);
            case REPLICATION_ONLY -> {
                if (accumulates) {
                    decisions.decide(key, REPLICATE, node, 0);
                }
            }
            case ADAPTIVE -> {
                if (before == 0) {
                    if (delayNanos == 0) {
                        relocate(key, slot, node, decisions);
                    } else {
                        deferred.put(key, now + delayNanos);
                    }
                } else if (accumulates) {
                    decisions.decide(key, REPLICATE, node, 0);
                }
            }
            case STATIC, FULL_REPLICATION -> { }
        }
    }

    /**
     * Records that the intent of {@code node} for {@code key} ended; if a sequence waited for it,
     * moves the parameter on to the next node.
     *
     * @param owner the parameter's owner now
     */
    public void onEnd(long key, int node, int owner, long now, Decisions decisions) {
        long bit = 1L << node;
        int slot = slots.get(key);
        if (slot == NONE || (nodeBits[slot] & bit) == 0) {
            return;
        }
        long after = nodeBits[slot] & ~bit;
        nodeBits[slot] = after;
        if (after == 0) {
            slots.remove(key);
            freeSlots.add(slot);
            if (!deferred.isEmpty()) {
                deferred.remove(key);
            }
        }
        int next = waiting[slot];
        if (next == NONE) {
            return;
        }
        endSequence(key, slot);
        if (Long.bitCount(after) == 1) {
            if (next != node && after == 1L << next && owner != next) {
                relocate(key, slot, next, decisions);
            }
        } else if (after != 0) {
            arrange(key, slot, owner, now, decisions);
        }
    }

    /**
     * Records that {@code node}, asked to release {@code key} for the node whose intent starts at
     * {@code clock}, still uses it there: the use is concurrent, and the other nodes with intent
     * get replicas. An overlap that no longer fits the hand-off in progress (another node is
     * waiting now, or none: the release it answers was overtaken by the earlier node's end and
     * the sequence moved on) changes nothing.
     *
     * @param owner       the parameter's owner now
     * @param accumulates whether the parameter's update rule allows replicas
     */
    public void onOverlap(long key, int node, long clock, int owner, boolean accumulates, Decisions decisions) {
        int slot = slots.get(key);
        if (slot == NONE || (nodeBits[slot] & 1L << node) == 0) {
            return;
        }
        int next = waiting[slot];
        int base = slot * clusterSize;
        if (next == NONE || next == node || starts[base + next] != clock) {
            return;
        }
        ends[base + node] = Long.MAX_VALUE; // its use has no known end now
        concurrent(key, slot, nodeBits[slot] & ~(1L << node), owner, accumulates, decisions);
    }

    /**
     * Records that the home granted {@code key} to {@code node}. Relocations decided one after the
     * other may be granted in the other order: the node a sequence waits for next may have been told
     * to take the key while the node before it had not announced its start yet (its manager was
     * late), and its request may reach the home after that node's. Then the key would stay with the
     * wrong node, and the one whose turn it is would wait for nothing; so it goes back to that node.
     *
     * <p>Otherwise, unless a sequence runs, a node whose intent started while it owned the key, and
     * still holds, uses it concurrently with {@code node} now: it gets a replica if
     * {@code accumulates}. Its start was decided with the owner it had then: a relocation decided
     * for another node's intent alone (released after the decision delay) was on its way, and
     * nothing else would have told it, for as long as its intent lasted (issue 13: in 1 of 7 runs
     * of MF on two nodes, the home's columns moved to the other node that way at the start of
     * training, and the home read and wrote all of them remotely, 3x slower, for every epoch).
     *
     * @param accumulates whether the parameter's update rule allows replicas
     */
    public void onGranted(long key, int node, boolean accumulates, Decisions decisions) {
        int slot = slots.get(key);
        if (slot == NONE) {
            return;
        }
        int wanted = holder[slot];
        if (wanted != NONE && wanted != node && waiting[slot] == node && (nodeBits[slot] & 1L << wanted) != 0) {
            decisions.decide(key, RELOCATE, wanted, 0);
            return;
        }
        // In a sequence the nodes take turns: the one waiting gets the key when the one before lets go.
        long left = waiting[slot] == NONE ? ownedAtStart[slot] & nodeBits[slot] & ~(1L << node) : 0;
        ownedAtStart[slot] = 0;
        for (long rest = left; accumulates && rest != 0; rest &= rest - 1) {
            decisions.decide(key, REPLICATE, Long.numberOfTrailingZeros(rest), 0);
        }
    }

    /**
     * Releases the decisions due at {@code now}: a deferred relocation of a key whose intent is
     * still on one node only, which does not own it ({@code owners} names the owner of a key),
     * moves it there; a hand-off still waiting gives the waiting node a replica (if the key's rule
     * allows one, which {@code accumulates} tells), and the parameter still moves there when the
     * node before it lets go.
     */
    public void releaseDue(long now, LongToIntFunction owners, LongPredicate accumulates, Decisions decisions) {
        while (!deferred.isEmpty() && deferred.get(deferred.firstLongKey()) - now <= 0) {
            long key = deferred.firstLongKey();
            deferred.remove(key);
            long with = nodes(key);
            int target = Long.numberOfTrailingZeros(with);
            if (Long.bitCount(with) == 1 && owners.applyAsInt(key) != target) {
                relocate(key, slots.get(key), target, decisions);
            }
        }
        while (!handoffsDue.isEmpty() && handoffsDue.get(handoffsDue.firstLongKey()) - now <= 0) {
            long key = handoffsDue.firstLongKey();
            handoffsDue.remove(key);
            int target = waiting(key);
            if (target != NONE && target != owners.applyAsInt(key) && accumulates.test(key)) {
                decisions.decide(key, REPLICATE, target, 0);
            }
        }
    }

    /** Whether decisions wait to be released. */
    public boolean hasDeferred() {
        return !deferred.isEmpty() || !handoffsDue.isEmpty();
    }

    /** When the first decision that waits is due, or {@code Long.MAX_VALUE} if none waits. */
    public long nextDue() {
        long due = deferred.isEmpty() ? Long.MAX_VALUE : deferred.get(deferred.firstLongKey());
        return handoffsDue.isEmpty() ? due : Math.min(due, handoffsDue.get(handoffsDue.firstLongKey()));
    }

    /** Whether {@code [from, to)} overlaps the clocks of none of {@code others} (their slot at {@code base}). */
    private boolean disjoint(int base, long others, long from, long to) {
        for (long rest = others; rest != 0; rest &= rest - 1) {
            int other = Long.numberOfTrailingZeros(rest);
            if (from < ends[base + other] && starts[base + other] < to) {
                return false;
            }
        }
        return true;
    }

    /**
     * The sequence of the nodes with intent for the key in {@code slot}, whose clocks are
     * disjoint: the parameter goes to the first, which releases it for the second.
     */
    private void arrange(long key, int slot, int owner, long now, Decisions decisions) {
        int base = slot * clusterSize;
        int first = NONE;
        int next = NONE;
        for (long rest = nodeBits[slot]; rest != 0; rest &= rest - 1) {
            int n = Long.numberOfTrailingZeros(rest);
            if (first == NONE || starts[base + n] < starts[base + first]) {
                next = first;
                first = n;
            } else if (next == NONE || starts[base + n] < starts[base + next]) {
                next = n;
            }
        }
        if (holder[slot] == owner) {
            holder[slot] = NONE; // it got there
        }
        if (first != owner && holder[slot] != first) {
            relocate(key, slot, first, decisions);
        }
        if (waiting[slot] != next) {
            waiting[slot] = next;
            if (handoffNanos > 0) {
                handoffsDue.put(key, now + handoffNanos);
            }
            decisions.decide(key, RELEASE, first, starts[base + next]);
        }
    }

    /** A sequence turned out concurrent: each of {@code others} but the owner gets a replica. */
    private void concurrent(long key, int slot, long others, int owner, boolean accumulates, Decisions decisions) {
        endSequence(key, slot);
        for (long rest = others; accumulates && rest != 0; rest &= rest - 1) {
            int n = Long.numberOfTrailingZeros(rest);
            if (n != owner) {
                decisions.decide(key, REPLICATE, n, 0);
            }
        }
    }

    private void relocate(long key, int slot, int target, Decisions decisions) {
        holder[slot] = target;
        decisions.decide(key, RELOCATE, target, 0);
    }

    private void endSequence(long key, int slot) {
        waiting[slot] = NONE;
        if (!handoffsDue.isEmpty()) {
            handoffsDue.remove(key);
        }
    }

    private int newSlot(long key) {
        int slot;
        if (!freeSlots.isEmpty()) {
            slot = freeSlots.popInt();
        } else {
            if (usedSlots == nodeBits.length) {
                int length = usedSlots * 2;
                nodeBits = Arrays.copyOf(nodeBits, length);
                holder = Arrays.copyOf(holder, length);
                waiting = Arrays.copyOf(waiting, length);
                ownedAtStart = Arrays.copyOf(ownedAtStart, length);
                starts = Arrays.copyOf(starts, length * clusterSize);
                ends = Arrays.copyOf(ends, length * clusterSize);
            }
            slot = usedSlots++;
        }
        nodeBits[slot] = 0;
        holder[slot] = NONE;
        waiting[slot] = NONE;
        ownedAtStart[slot] = 0;
        slots.put(key, slot);
        return slot;
    }
}
