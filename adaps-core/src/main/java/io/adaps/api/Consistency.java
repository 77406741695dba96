package io.adaps.api;

import java.util.Locale;

/**
 * How stale a table's reads may be, in terms of the workers' logical clocks
 * ({@link Worker#advanceClock()}): the consistency models of the bounded-staleness parameter
 * servers (Ho et al., "More Effective Distributed ML via a Stale Synchronous Parallel Parameter
 * Server", NIPS'13; Dai et al., "High-Performance Distributed ML at Scale through Parameter Server
 * Consistency Models", AAAI'15).
 *
 * <ul>
 *   <li>{@link #ssp(int) ssp(s)}: a read by a worker at clock {@code c} reflects every update that
 *       any worker of the cluster pushed during its clocks {@code < c - s}, plus the reader's own
 *       writes. A worker more than {@code s} clocks ahead of the slowest waits in
 *       {@link Worker#advanceClock()}.</li>
 *   <li>{@link #essp(int) essp(s)}: the same bound; in addition replicas are synchronized
 *       eagerly, each node's as soon as its workers finish {@code max(1, min(2, s / 2))} clocks, so that
 *       the staleness reads actually see is usually far below {@code s}. Between two rounds each
 *       node's replica of a shared parameter follows its own workers' updates alone, and a round
 *       adds up the nodes' updates; make a clock a small part of an epoch (the examples tick at
 *       least 4 times per epoch), or replicas trained a long way apart may overshoot together.</li>
 *   <li>{@link #bsp()}: {@code ssp(0)}, bulk synchronous: a read at clock {@code c} reflects every
 *       update of every earlier clock. Replicas are also refreshed within a clock, by rounds paced
 *       to a share of the manager thread; on a cluster with several nodes per processor those come
 *       rarely, and SGD may overshoot on the hottest parameters, which every node steps from the
 *       same clock's values (the {@code mf} example on 6 nodes sharing 2 processors).</li>
 *   <li>{@link #asp()}: asynchronous, no bound (the default): reads see updates whenever they
 *       arrive, and nobody waits.</li>
 * </ul>
 * Choose per table with {@link TableSpec#withConsistency}, or for every table that does not
 * choose with {@link AdaPS.Builder#consistency} or {@code ADAPS_CONSISTENCY}; every node of a
 * cluster must declare the same model for a table (the handshake compares them). Immutable.
 */
public final class Consistency {
    /** The largest staleness bound: beyond it, a bound would not bound anything in practice. */
    public static final int MAX_STALENESS = 1 << 20;
    /** {@link #staleness()} of {@link #asp()}. */
    public static final int UNBOUNDED = -1;

    private static final Consistency ASP = new Consistency(UNBOUNDED, false);
    private static final Consistency BSP = new Consistency(0, false);

    private final int staleness;
    private final boolean eager;

    private Consistency(int staleness, boolean eager) {
        this.staleness = staleness;
        this.eager = eager;
    }

    /** Asynchronous: no bound on staleness, nobody waits. */
    public static Consistency asp() {
        return ASP;
    }

    /** Bulk synchronous: {@code ssp(0)}. */
    public static Consistency bsp() {
        return BSP;
    }

    /**
     * Stale synchronous with bound {@code staleness}.
     *
     * @throws IllegalArgumentException if {@code staleness} is not in 0..{@value #MAX_STALENESS}
     */
    public static Consistency ssp(int staleness) {
        return new Consistency(check(staleness), false);
    }

    /**
     * Eager stale synchronous with bound {@code staleness}: as {@link #ssp}, with each node's
     * replicas synchronized as soon as its workers complete {@code max(1, min(2, staleness / 2))}
     * new clocks: a larger bound lets workers run further ahead, not the replicas drift further.
     *
     * @throws IllegalArgumentException if {@code staleness} is not in 0..{@value #MAX_STALENESS}
     */
    public static Consistency essp(int staleness) {
        return new Consistency(check(staleness), true);
    }

    /**
     * The model {@code text} names: {@code asp}, {@code bsp}, {@code ssp:S} or {@code essp:S}
     * (what {@link #toString()} returns), case-insensitive.
     *
     * @throws IllegalArgumentException if {@code text} names none, or S is out of range
     */
    public static Consistency parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("consistency=null (expected asp, bsp, ssp:S or essp:S)");
        }
        String model = text.trim().toLowerCase(Locale.ROOT);
        if (model.equals("asp")) {
            return ASP;
        }
        if (model.equals("bsp")) {
            return BSP;
        }
        int colon = model.indexOf(':');
        String kind = colon < 0 ? model : model.substring(0, colon);
        if (colon > 0 && (kind.equals("ssp") || kind.equals("essp"))) {
            int staleness;
            try {
                staleness = Integer.parseInt(model.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("consistency='" + text + "' (expected " + kind
                        + ":S with a staleness S in 0.." + MAX_STALENESS + ")");
            }
            if (staleness < 0 || staleness > MAX_STALENESS) {
                throw new IllegalArgumentException("consistency='" + text + "' (expected a staleness in 0.."
                        + MAX_STALENESS + ")");
            }
            return new Consistency(staleness, kind.equals("essp"));
        }
        throw new IllegalArgumentException("consistency='" + text + "' (expected asp, bsp, ssp:S or essp:S)");
    }

    private static int check(int staleness) {
        if (staleness < 0 || staleness > MAX_STALENESS) {
            throw new IllegalArgumentException("staleness=" + staleness + " (expected 0.." + MAX_STALENESS + ")");
        }
        return staleness;
    }

    /** The bound {@code s} in clocks, or {@link #UNBOUNDED} for {@link #asp()}. */
    public int staleness() {
        return staleness;
    }

    /** Whether reads are bounded (every model but {@link #asp()}). */
    public boolean isBounded() {
        return staleness != UNBOUNDED;
    }

    /** Whether replicas are refreshed eagerly ({@link #essp}). */
    public boolean isEager() {
        return eager;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Consistency that && that.staleness == staleness && that.eager == eager;
    }

    @Override
    public int hashCode() {
        return staleness * 2 + (eager ? 1 : 0);
    }

    /** {@code asp}, {@code bsp}, {@code ssp:S} or {@code essp:S}, as {@link #parse} reads it. */
    @Override
    public String toString() {
        if (staleness == UNBOUNDED) {
            return "asp";
        }
        if (staleness == 0 && !eager) {
            return "bsp";
        }
        return (eager ? "essp:" : "ssp:") + staleness;
    }
}
