package io.adaps.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import io.adaps.api.InPlaceUpdate;
import io.adaps.api.Initializer;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRule;
import io.adaps.util.Masks;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The parameters of one table that this node holds, owned or replicated.
 *
 * <p>A table's keys are dense, so the index from row to slot is a plain {@code int[]} with one
 * entry per row: four bytes per row, no hashing, no boxing. One acquire load of the entry tells
 * how the row is held:
 * <pre>
 *   index[r] &gt;= 0          owned: slot index[r] of the owned slab   | value | state |
 *   index[r] == ABSENT (-1) not held here
 *   index[r] &lt;= -2         replica: slot -2 - index[r] of the replica slab
 *                                                   | value | state | base | delta |
 * </pre>
 * Index entries are published with release stores after the slot is initialized and read with
 * acquire loads, so a reader that finds a slot also sees its initial value. Owned values live in
 * a {@link SlotSlab}; see there for the locking that makes concurrent pulls and pushes safe, and
 * for how an access that races with its row leaving finds out. Replicas live in a second slab
 * ({@link ReplicaSlots}, which describes their synchronization), so that owned slots stay as
 * small and fast as without replication.
 *
 * <p>A row can change form while workers access it: {@link #promote} turns a replica into an owned
 * row by publishing the owned slot before it empties the replica slot. So when an access fails on
 * a slot, {@link #pull}, {@link #push} and {@link #set} re-read the index and, if it changed,
 * repeat the access where it points now; an access is applied exactly once.
 *
 * <p>Thread safety: every method may be called by any number of threads at once. Accesses never
 * block each other on different rows and return {@code false} for a row that is not (or no
 * longer) held here in the form they need; the methods that change how rows are held
 * ({@link #allocate}, {@link #install}, {@link #takeOut}, {@link #installReplica},
 * {@link #dropReplica}, {@link #promote}) are serialized internally.
 */
public final class TableStore {
    /** Index entry of a row that this node does not hold. */
    public static final int ABSENT = -1;
    /** {@link #snapshotDelta} result: the row is not held here as a replica; nothing was copied. */
    public static final int NOT_HELD = -1;
    /** {@link #snapshotDelta} result: the replica's delta was all zeros (nothing to send). */
    public static final int ZERO_DELTA = 0;
    /** {@link #snapshotDelta} result: the replica's delta has a nonzero component. */
    public static final int DELTA = 1;

    private static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle PENDING = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final VarHandle TAGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** {@link #pullTagged} of a row not held here. */
    public static final long NOT_HELD_TAG = Long.MIN_VALUE;
    /** {@link #pullTagged} of an owned row: it reflects every update its owner applied. */
    public static final long OWNED_TAG = Long.MAX_VALUE;
    private static final int PULL = 0;
    private static final int PUSH = 1;
    private static final int SET = 2;
    /** What {@link #ownedVersion} copies: nothing. */
    private static final float[] NO_FLOATS = new float[0];

    private final TableSpec spec;
    private final UpdateRule rule;
    private final Initializer initializer;
    private final int[] index;
    private final SlotSlab owned;
    private final ReplicaSlots replicas;
    /** A replica's delta during {@link #promote} (which is serialized). */
    private final float[] promotedDelta;
    /**
     * Per row: 1 while the row is a pending replica, one not fetched from its owner yet. Workers
     * push to it but do not read it until its first {@link #refreshReplica}.
     */
    private final byte[] pending;
    /**
     * Per owned slot: which install of this store put its row there. With the slot's sequence
     * number (its count of writes) it makes the row's version here ({@link #pullOwnedVersioned}),
     * which a slot reused for the same row later can never repeat.
     */
    private final int[] stamps;
    private int installs;
    private final int stampNode;
    private final int stampNodes;
    /** Per row held as a replica: the owner's version it was last refreshed to, or -1. */
    private final long[] knownVersions;
    /**
     * Per row held as a replica: the clock its value is known to reflect, the cluster's watermark
     * when the synchronization round that last refreshed it started (see
     * {@link io.adaps.consistency.ClusterClocks}). Written with release after the value, read with
     * acquire before it.
     */
    private final long[] replicaTags;

    /** Creates an empty store for {@code spec}; no row is held until {@link #allocate} is called. */
    public TableStore(TableSpec spec) {
        this(spec, 0, 1);
    }

    /**
     * As {@link #TableStore(TableSpec)}, for node {@code node} of {@code nodes}: the versions of
     * rows owned here ({@link #pullOwnedVersioned}) then never equal those of another node's store.
     */
    public TableStore(TableSpec spec, int node, int nodes) {
        this.spec = spec;
        this.stampNode = node;
        this.stampNodes = nodes;
        this.rule = spec.updateRule();
        this.initializer = spec.initializer();
        int rows = Math.toIntExact(spec.rows());
        this.index = new int[rows];
        this.pending = new byte[rows];
        this.stamps = new int[rows];
        this.knownVersions = new long[rows];
        this.replicaTags = new long[rows];
        Arrays.fill(index, ABSENT);
        int stateLength = rule.stateLength(spec.valueLength());
        this.owned = new SlotSlab(spec.valueLength(), stateLength, rows);
        this.replicas = new ReplicaSlots(spec.valueLength(), rule, rows);
        this.promotedDelta = new float[spec.valueLength()];
    }

    /** The table this store holds parameters of. */
    public TableSpec spec() {
        return spec;
    }

    /** Floats per owned slot: the value and the update rule's state (what {@link #install} and {@link #takeOut} move). */
    public int stride() {
        return owned.stride();
    }

    /**
     * Holds {@code row} here as {@code kind}, with the table's initial value and zero rule state;
     * for {@link SlotKind#REPLICA} this is {@code installReplica(row, null, 0)}.
     *
     * @throws IllegalStateException if the row is already held
     */
    public synchronized void allocate(long row, SlotKind kind) {
        if (kind == SlotKind.REPLICA) {
            installReplica(row, null, 0);
        } else {
            install(row, kind, null, 0);
        }
    }

    /**
     * Holds {@code row} here as an owned row, with the value and rule state (a whole
     * {@link #stride()}) at {@code src[srcOffset ..]}, or the initial value and zero state if
     * {@code src} is {@code null}: a row that moved here.
     *
     * @param kind must be {@link SlotKind#OWNED}; replicas are installed by {@link #installReplica}
     * @throws IllegalStateException    if the row is already held, as either kind
     * @throws IllegalArgumentException if {@code kind} is not {@link SlotKind#OWNED}
     */
    public synchronized void install(long row, SlotKind kind, float[] src, int srcOffset) {
        if (kind != SlotKind.OWNED) {
            throw new IllegalArgumentException("kind=" + kind + " for row=" + row + " of table '" + spec.name()
                    + "' (expected OWNED; replicas are installed by installReplica)");
        }
        int r = (int) row;
        checkNotHeld(r, "a row not held here");
        int slot = owned.allocate();
        owned.install(slot, r, initializer, src, srcOffset);
        stamps[slot] = (++installs * stampNodes + stampNode) & Integer.MAX_VALUE;
        INDEX.setRelease(index, r, slot);
    }

    /**
     * Holds {@code row} here as a <em>pending</em> replica, if it is not held at all: value and
     * base zero, zero delta. Pushes accumulate in it at once; {@link #pull} ignores it (returns
     * {@code false}, see {@link #isPendingReplica}) until its first {@link #refreshReplica} sets the
     * owner's value plus what was pushed here.
     *
     * @return whether it was installed ({@code false} if the row is held already)
     */
    public synchronized boolean tryInstallPendingReplica(long row) {
        int r = (int) row;
        if (index[r] != ABSENT) {
            return false;
        }
        PENDING.setVolatile(pending, r, (byte) 1);
        knownVersions[r] = -1;
        TAGS.setRelease(replicaTags, r, 0L);
        int slot = replicas.allocate();
        replicas.install(slot, r, initializer, new float[spec.valueLength()], 0);
        INDEX.setRelease(index, r, -2 - slot);
        return true;
    }

    /**
     * Whether {@code row} is a pending replica here: held but not fetched from its owner yet, or
     * dropped while its last delta is on its way to the owner ({@link #drained}). Workers do not
     * read it here, nor from the owner, until this is over, so that they always read their own
     * writes.
     */
    public boolean isPendingReplica(long row) {
        return (byte) PENDING.getVolatile(pending, (int) row) != 0;
    }

    /**
     * Holds {@code row} here as a replica: value from {@code value[valueOffset ..]} (the table's
     * value length), or the table's initial value if {@code value} is {@code null}; zero rule
     * state; base equal to the value; zero delta. Replicas are meant for update rules that
     * {@linkplain UpdateRule#accumulates() accumulate}.
     *
     * @throws IllegalStateException if the row is already held, as either kind
     */
    public synchronized void installReplica(long row, float[] value, int valueOffset) {
        int r = (int) row;
        checkNotHeld(r, "a row not held here");
        knownVersions[r] = -1;
        TAGS.setRelease(replicaTags, r, 0L);
        PENDING.setVolatile(pending, r, (byte) 0);
        int slot = replicas.allocate();
        replicas.install(slot, r, initializer, value, valueOffset);
        INDEX.setRelease(index, r, -2 - slot);
    }

    /** Holds every row of the table here as {@code kind} (a node that starts with all parameters). */
    public synchronized void allocateAll(SlotKind kind) {
        for (long row = 0; row < index.length; row++) {
            allocate(row, kind);
        }
    }

    /**
     * Stops holding the owned {@code row}, atomically with respect to concurrent accesses (which
     * from then on return {@code false}); copies its value and rule state (a whole
     * {@link #stride()}) to {@code dst} unless it is {@code null}. The slot is reused by later
     * allocations. Replicas are removed by {@link #dropReplica}.
     *
     * @return whether the row was held here as an owned row
     */
    public synchronized boolean takeOut(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        int slot = index[r];
        if (slot < 0) {
            return false;
        }
        owned.takeOut(slot, r, dst, dstOffset);
        INDEX.setRelease(index, r, ABSENT);
        owned.free(slot);
        return true;
    }

    /**
     * Stops holding the replica {@code row}, atomically with respect to concurrent accesses
     * (which from then on return {@code false}), and copies its pending delta (the updates pushed
     * since the last {@link #snapshotDelta}; the table's value length) to {@code deltaDst} unless
     * it is {@code null}. The slot is reused by later replicas. Use {@link #isZero} to skip an
     * all-zero delta. The row then drains ({@link #isPendingReplica}) until {@link #drained}.
     *
     * @return whether the row was held here as a replica (if not, {@code deltaDst} is untouched)
     */
    public synchronized boolean dropReplica(long row, float[] deltaDst, int dstOffset) {
        int r = (int) row;
        int entry = index[r];
        if (entry >= ABSENT) {
            return false;
        }
        int slot = -2 - entry;
        int locked = replicas.lockIfHolds(slot, r);
        if (deltaDst != null) {
            replicas.copyDelta(slot, deltaDst, dstOffset);
        }
        INDEX.setRelease(index, r, ABSENT);
        // Draining: its delta is on its way to the owner; reads wait for it (see isPendingReplica).
        PENDING.setVolatile(pending, r, (byte) 1);
        replicas.unlockEmptied(slot, locked);
        replicas.free(slot);
        return true;
    }

    /**
     * Makes {@code row}, held here as a replica, an owned row: its value and rule state become
     * {@code src[srcOffset ..]} (a whole {@link #stride()}: the handover from the previous owner)
     * and then the replica's pending delta is applied through the table's update rule (unless it
     * is all zeros), so that no update pushed to the replica is lost. Atomic for concurrent
     * accesses: the replica slot stays write-locked while the owned slot is built and published,
     * so a push lands either in the delta (before) or in the owned slot (after), exactly once.
     * A row not held here is installed as with {@code install(row, OWNED, src, srcOffset)}.
     *
     * @throws IllegalStateException if the row is already owned here
     */
    public synchronized void promote(long row, float[] src, int srcOffset) {
        int r = (int) row;
        int entry = index[r];
        if (entry == ABSENT) {
            install(row, SlotKind.OWNED, src, srcOffset);
            return;
        }
        if (entry >= 0) {
            throw new IllegalStateException("row=" + row + " of table '" + spec.name()
                    + "' is already held as OWNED (expected a replica or a row not held here)");
        }
        int replica = -2 - entry;
        int locked = replicas.lockIfHolds(replica, r);
        replicas.copyDelta(replica, promotedDelta, 0);
        int slot = owned.allocate();
        owned.install(slot, r, initializer, src, srcOffset);
        stamps[slot] = (++installs * stampNodes + stampNode) & Integer.MAX_VALUE;
        if (!isZero(promotedDelta, 0, promotedDelta.length)) {
            owned.update(slot, r, rule, promotedDelta, 0);
        }
        INDEX.setRelease(index, r, slot);
        PENDING.setVolatile(pending, r, (byte) 0);
        replicas.unlockEmptied(replica, locked);
        replicas.free(replica);
    }

    /**
     * For the replica {@code row}, atomically: copies its delta (the raw updates pushed since the
     * last snapshot; the table's value length) into {@code dst} at {@code dstOffset}, zeroes the
     * delta and records the current value as the base that {@link #refreshReplica} rebases on.
     *
     * @return {@link #NOT_HELD} if the row is not held here as a replica ({@code dst} untouched),
     *         {@link #ZERO_DELTA} if the delta was all zeros (nothing to send; {@code dst}
     *         untouched), {@link #DELTA} otherwise
     */
    public int snapshotDelta(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        for (int entry = (int) INDEX.getAcquire(index, r), seen = ABSENT; entry < ABSENT && entry != seen; ) {
            int result = replicas.snapshot(-2 - entry, r, dst, dstOffset);
            if (result != NOT_HELD) {
                return result;
            }
            seen = entry;
            entry = (int) INDEX.getAcquire(index, r);
        }
        return NOT_HELD;
    }

    /**
     * For the replica {@code row}, atomically and component by component: {@code value = fresh +
     * (value - base)}, {@code base = fresh}, with {@code fresh} the owner's value (the table's
     * value length at {@code fresh[freshOffset ..]}), which already includes the last snapshot's
     * delta. Updates pushed here since that snapshot stay in the value (and in the next delta).
     *
     * @return {@code false}, changing nothing, if the row is not held here as a replica
     */
    public boolean refreshReplica(long row, float[] fresh, int freshOffset) {
        return refreshReplica(row, fresh, freshOffset, -1);
    }

    /**
     * {@link #refreshReplica(long, float[], int)} to the owner's value of version {@code version}
     * (see {@link #pullOwnedVersioned}), which the replica remembers ({@link #knownVersion}).
     */
    public boolean refreshReplica(long row, float[] fresh, int freshOffset, long version) {
        int r = (int) row;
        knownVersions[r] = version;
        for (int entry = (int) INDEX.getAcquire(index, r), seen = ABSENT; entry < ABSENT && entry != seen; ) {
            if (replicas.refresh(-2 - entry, r, fresh, freshOffset)) {
                PENDING.setVolatile(pending, r, (byte) 0);
                return true;
            }
            seen = entry;
            entry = (int) INDEX.getAcquire(index, r);
        }
        return false;
    }

    /**
     * Records that the replica {@code row}, just refreshed or confirmed, reflects every update of
     * clocks before {@code tag}; a tag never goes back.
     */
    public void tagReplica(long row, long tag) {
        int r = (int) row;
        if (tag > (long) TAGS.getAcquire(replicaTags, r)) {
            TAGS.setRelease(replicaTags, r, tag);
        }
    }

    /** The clock the replica {@code row} is known to reflect (see {@link #tagReplica}). */
    public long replicaTag(long row) {
        return (long) TAGS.getAcquire(replicaTags, (int) row);
    }

    /** Ends the draining of the dropped replica {@code row}: its last delta reached the owner (or failed to). */
    public void drained(long row) {
        PENDING.setVolatile(pending, (int) row, (byte) 0);
    }

    /**
     * The owner's version that the replica {@code row} was last refreshed to, or -1 (never, or not
     * a replica). A replica may skip a refresh while its owner's version has not changed.
     */
    public long knownVersion(long row) {
        return knownVersions[(int) row];
    }

    /**
     * Records that the replica {@code row} has the owner's value of {@code version} without a
     * refresh: the owner answered that nothing changed since the version it had.
     */
    public void confirmReplica(long row, long version) {
        knownVersions[(int) row] = version;
    }

    /**
     * {@link #pullOwned}, returning the row's version here: it changes with every write to the row
     * and with every install (a row that left and came back has a new one), so equal versions mean
     * an equal value. {@code -1} if the row is not owned here.
     */
    public long pullOwnedVersioned(long row, float[] dst, int dstOffset) {
        return readOwned(row, dst, dstOffset, spec.valueLength());
    }

    /**
     * What a replica's REFRESH asks of the owner: {@link #pullOwnedVersioned} unless the row's
     * version is still {@code knownVersion}; then nothing is copied (most refreshes of a round
     * find their row unchanged) and {@code knownVersion} is returned.
     */
    public long pullOwnedIfChanged(long row, long knownVersion, float[] dst, int dstOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0) {
            // One test (see Masks): a writer holding the slot at this moment (odd sequence numbers,
            // whose versions no stable read returned) or a slot reused are rare on a node's one
            // core, and first happen after this is compiled.
            int sequence = owned.sequence(entry);
            long unchanged = Masks.ifEqual(version(entry, sequence & Integer.MAX_VALUE), knownVersion)
                    & owned.holdsBit(entry, r);
            if (unchanged != 0) {
                return knownVersion;
            }
        }
        return readOwned(row, dst, dstOffset, spec.valueLength());
    }

    /** The version of the owned row in slot {@code slot} at (even, non-negative) sequence number {@code sequence}. */
    private long version(int slot, int sequence) {
        return (long) stamps[slot] << 32 | sequence;
    }

    /**
     * The version of the owned {@code row} (see {@link #pullOwnedVersioned}), which covers its
     * rule state too (every write holds the slot's lock and counts); {@code -1} if the row is not
     * owned here. Reads, writes nothing: what a checkpoint compares with the version it saved.
     */
    public long ownedVersion(long row) {
        return readOwned(row, NO_FLOATS, 0, 0);
    }

    /**
     * Serves a replica's synchronization at the owner: applies the rule with {@code delta} to the
     * owned {@code row} and copies the value it leaves into {@code dst}, atomically (no write comes
     * between, and the row cannot leave between them).
     *
     * @return the version of the value copied (see {@link #pullOwnedVersioned}), or -1, changing
     *         nothing, if the row is not owned here
     */
    public long syncOwned(long row, float[] delta, int deltaOffset, float[] dst, int dstOffset) {
        int r = (int) row;
        for (int entry = (int) INDEX.getAcquire(index, r), seen = ABSENT; entry >= 0 && entry != seen; ) {
            int sequence = owned.updateAndRead(entry, r, rule, delta, deltaOffset, dst, dstOffset);
            if (sequence >= 0) {
                return version(entry, sequence);
            }
            seen = entry;
            entry = (int) INDEX.getAcquire(index, r);
        }
        return -1;
    }

    /** Whether {@code row} is held here, owned or as a replica. */
    public boolean holds(long row) {
        return (int) INDEX.getAcquire(index, (int) row) != ABSENT;
    }

    /**
     * Whether a worker could read {@code row} here now without waiting: held, owned or as a
     * replica, and not a pending replica (not yet fetched, or draining after a drop). A row being
     * handed over to another node is not held any more. Sampling that prefers local rows asks
     * this; the answer may be stale by the time the row is read, which the read itself handles.
     */
    public boolean holdsReadable(long row) {
        int r = (int) row;
        return (int) INDEX.getAcquire(index, r) != ABSENT && (byte) PENDING.getVolatile(pending, r) == 0;
    }

    /**
     * Copies the value and rule state (a whole {@link #stride()}) of the owned {@code row} to
     * {@code dst}, from one stable state, changing nothing (not even its version): what a
     * checkpoint saves.
     *
     * @return the version of the state copied (see {@link #ownedVersion}), or -1 if the row is not
     *         owned here (then {@code dst} may have been overwritten)
     */
    public long copyOwned(long row, float[] dst, int dstOffset) {
        return readOwned(row, dst, dstOffset, owned.ruleLength());
    }

    /** The first {@code length} floats of the owned {@code row} into {@code dst}, and their version; -1 if not owned. */
    private long readOwned(long row, float[] dst, int dstOffset, int length) {
        int r = (int) row;
        for (int entry = (int) INDEX.getAcquire(index, r), seen = ABSENT; entry >= 0 && entry != seen; ) {
            int sequence = owned.readVersioned(entry, r, dst, dstOffset, length);
            if (sequence >= 0) {
                return version(entry, sequence);
            }
            seen = entry;
            entry = (int) INDEX.getAcquire(index, r);
        }
        return -1;
    }

    /** Whether {@code row} is held here as an owned row. */
    public boolean owns(long row) {
        return (int) INDEX.getAcquire(index, (int) row) >= 0;
    }

    /**
     * Runs {@code update} on row {@code rowA} of {@code a} and row {@code rowB} of {@code b} in
     * their slots, holding both slots' write locks (one, for one row named twice). A row takes part
     * if it is owned here, or held as a replica that has been fetched from its owner and reflects
     * the clocks before {@code needA} ({@code needB}; {@code Long.MIN_VALUE} for no bound): a
     * replica's change is then in its delta ({@code value - base} under the additive rule, see
     * {@link ReplicaSlots}), which the next synchronization sends to the owner.
     *
     * <p>It never waits for a lock, so it cannot deadlock whatever the order of the rows; and under
     * contention (two threads on one hot row) the caller's pull and push, which wait their turn
     * once per batch, serve better than steps queueing for the row one by one. The change is the
     * rows' update: only for stores whose rule adds (the caller checks).
     *
     * @return what the values reflect: {@link #OWNED_TAG} for two owned rows, else the lesser
     *         replica tag ({@link #tagReplica}); {@link #NOT_HELD_TAG}, having run nothing, if a
     *         row is not held here now (or is a pending or too stale replica) or another thread
     *         holds either lock at this moment
     */
    public static long updateHeld(TableStore a, long rowA, long needA, TableStore b, long rowB, long needB,
                                  InPlaceUpdate update) {
        int ra = (int) rowA;
        int rb = (int) rowB;
        int entryA = (int) INDEX.getAcquire(a.index, ra);
        int entryB = (int) INDEX.getAcquire(b.index, rb);
        // The tags are read before the values, as in pullTagged: the values are at least as fresh.
        long tag = Math.min(a.tagIfFresh(ra, entryA, needA), b.tagIfFresh(rb, entryB, needB));
        if (tag == NOT_HELD_TAG) {
            return NOT_HELD_TAG;
        }
        boolean one = a == b && ra == rb;
        int lockedA = a.tryLockHeld(ra, entryA);
        int lockedB = one ? lockedA : b.tryLockHeld(rb, entryB);
        // Both locks held (odd numbers), and neither row a replica installed in its slot since the
        // tags were read (pending, seen under the lock): one test for every way of failing.
        if ((lockedA & lockedB & ~(a.pendingHeld(ra, entryA) | b.pendingHeld(rb, entryB)) & 1) == 0) {
            if (lockedB != 0 && !one) {
                b.unlockHeld(entryB, lockedB);
            }
            if (lockedA != 0) {
                a.unlockHeld(entryA, lockedA);
            }
            return NOT_HELD_TAG;
        }
        try {
            update.apply(a.chunk(entryA), a.offset(entryA), b.chunk(entryB), b.offset(entryB));
            return tag;
        } finally {
            if (!one) {
                b.unlockHeld(entryB, lockedB);
            }
            a.unlockHeld(entryA, lockedA);
        }
    }

    /**
     * What row {@code r}, at index entry {@code entry}, reflects if it is owned ({@link #OWNED_TAG})
     * or a replica with a tag of at least {@code need} (its tag); else {@link #NOT_HELD_TAG}.
     */
    private long tagIfFresh(int r, int entry, long need) {
        if (entry >= 0) {
            return OWNED_TAG;
        }
        if (entry == ABSENT || (byte) PENDING.getVolatile(pending, r) != 0) {
            return NOT_HELD_TAG;
        }
        long tag = (long) TAGS.getAcquire(replicaTags, r);
        // Replicas first fall behind their bound after the training loop is compiled: selected
        // without a branch (see Masks), a stale one takes the same way out as a row not held.
        long stale = Masks.ifLess(tag, need);
        return tag & ~stale | NOT_HELD_TAG & stale;
    }

    /**
     * Write-locks the slot of index entry {@code entry} if it is free now and holds row {@code r}:
     * the odd sequence number held, or 0 (nothing held).
     */
    private int tryLockHeld(int r, int entry) {
        return entry >= 0 ? owned.tryLockIfHolds(entry, r) : replicas.slab().tryLockIfHolds(-2 - entry, r);
    }

    /**
     * 1 if the slot of index entry {@code entry} holds a replica not fetched yet, else 0. Read under
     * the slot's lock, it tells a replica installed since {@link #tagIfFresh} looked: the flag is
     * set before an install publishes the slot, and cleared after its first refresh.
     */
    private int pendingHeld(int r, int entry) {
        return (byte) PENDING.getVolatile(pending, r) & entry >>> 31;
    }

    private void unlockHeld(int entry, int locked) {
        if (entry >= 0) {
            owned.unlock(entry, locked);
        } else {
            replicas.slab().unlock(-2 - entry, locked);
        }
    }

    /** The array of the slot of index entry {@code entry} (owned, or a replica). */
    private float[] chunk(int entry) {
        return entry >= 0 ? owned.chunk(entry) : replicas.slab().chunk(-2 - entry);
    }

    /** Where the slot of index entry {@code entry} starts in its {@link #chunk}. */
    private int offset(int entry) {
        return entry >= 0 ? owned.offset(entry) : replicas.slab().offset(-2 - entry);
    }

    /** How {@code row} is held here, or {@code null} if it is not. */
    public SlotKind kind(long row) {
        int entry = (int) INDEX.getAcquire(index, (int) row);
        return entry >= 0 ? SlotKind.OWNED : entry == ABSENT ? null : SlotKind.REPLICA;
    }

    /** Rows held here, owned and replicas. */
    public int heldRows() {
        return owned.allocated() + replicas.allocated();
    }

    /** Rows held here as replicas. */
    public int replicaRows() {
        return replicas.allocated();
    }

    /** Appends every row held here as a replica to {@code into}, in no particular order. */
    public synchronized void collectReplicaRows(LongArrayList into) {
        replicas.collectRows(into);
    }

    /** The most owned slots this store has used at once; slot reuse keeps it from growing with churn. */
    public int slotHighWaterMark() {
        return owned.highWaterMark();
    }

    /** The most replica slots this store has used at once. */
    public int replicaSlotHighWaterMark() {
        return replicas.highWaterMark();
    }

    /** Whether {@code a[offset .. offset + length)} is all zeros ({@code -0f} counts as zero, NaN does not). */
    public static boolean isZero(float[] a, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (a[i] != 0f) {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies the value of {@code row}, owned or a replica, into {@code dst} at {@code dstOffset},
     * never torn.
     *
     * @return {@code false} if the row is not held here (then {@code dst} may have been overwritten)
     */
    public boolean pull(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.read(entry, r, dst, dstOffset)) {
            return true;
        }
        return access(PULL, false, r, entry, dst, dstOffset);
    }

    /**
     * {@link #pull}, telling what the value reflects: {@link #OWNED_TAG} for an owned row, the
     * replica's tag ({@link #tagReplica}) for a replica, {@link #NOT_HELD_TAG} if the row is not
     * held here (then {@code dst} may have been overwritten). The tag is read before the value, so
     * the value is at least as fresh.
     */
    public long pullTagged(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.read(entry, r, dst, dstOffset)) {
            return OWNED_TAG;
        }
        long tag = (long) TAGS.getAcquire(replicaTags, r);
        if (!access(PULL, false, r, entry, dst, dstOffset)) {
            return NOT_HELD_TAG;
        }
        return entry < ABSENT ? tag : OWNED_TAG;
    }

    /**
     * Applies the table's update rule to {@code row} with the update at {@code src[srcOffset..]}.
     * For a replica, the rule runs on the replica's value and state (the pushing worker reads its
     * own write) and the raw update is added to the delta that the next synchronization sends to
     * the owner.
     *
     * @return {@code false}, changing nothing, if the row is not held here
     */
    public boolean push(long row, float[] src, int srcOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.update(entry, r, rule, src, srcOffset)) {
            return true;
        }
        return access(PUSH, false, r, entry, src, srcOffset);
    }

    /**
     * Replaces the value of the owned {@code row}; the update rule's state is left as it is.
     * Replicas are not set here: the caller sends the set to the owner.
     *
     * @return {@code false}, changing nothing, if the row is not held here as an owned row
     */
    public boolean set(long row, float[] src, int srcOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.write(entry, r, src, srcOffset)) {
            return true;
        }
        return access(SET, true, r, entry, src, srcOffset);
    }

    /**
     * {@link #pull} for an owned row only (serving another node's request).
     *
     * @return {@code false} if the row is not held here as an owned row
     */
    public boolean pullOwned(long row, float[] dst, int dstOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.read(entry, r, dst, dstOffset)) {
            return true;
        }
        return access(PULL, true, r, entry, dst, dstOffset);
    }

    /**
     * {@link #push} for an owned row only (serving another node's request).
     *
     * @return {@code false}, changing nothing, if the row is not held here as an owned row
     */
    public boolean pushOwned(long row, float[] src, int srcOffset) {
        int r = (int) row;
        int entry = (int) INDEX.getAcquire(index, r);
        if (entry >= 0 && owned.update(entry, r, rule, src, srcOffset)) {
            return true;
        }
        return access(PUSH, true, r, entry, src, srcOffset);
    }

    /** The same as {@link #set}, which only sets owned rows; named for symmetry with {@link #pullOwned}. */
    public boolean setOwned(long row, float[] src, int srcOffset) {
        return set(row, src, srcOffset);
    }

    /**
     * The rest of an access after the owned fast path did not succeed with index entry
     * {@code entry}: tries a replica slot if the entry points at one (and replicas are wanted),
     * then, while the access fails and the index entry has changed (the row was promoted, or
     * moved), repeats it where the entry points now.
     */
    private boolean access(int op, boolean ownedOnly, int r, int entry, float[] buffer, int offset) {
        if (entry < ABSENT && !ownedOnly && accessReplica(op, -2 - entry, r, buffer, offset)) {
            return true;
        }
        for (;;) {
            int now = (int) INDEX.getAcquire(index, r);
            if (now == entry || now == ABSENT || (ownedOnly && now < 0)) {
                return false;
            }
            entry = now;
            boolean done = entry >= 0 ? accessOwned(op, entry, r, buffer, offset)
                    : accessReplica(op, -2 - entry, r, buffer, offset);
            if (done) {
                return true;
            }
        }
    }

    private boolean accessOwned(int op, int slot, int r, float[] buffer, int offset) {
        return switch (op) {
            case PULL -> owned.read(slot, r, buffer, offset);
            case PUSH -> owned.update(slot, r, rule, buffer, offset);
            default -> owned.write(slot, r, buffer, offset);
        };
    }

    private boolean accessReplica(int op, int slot, int r, float[] buffer, int offset) {
        return switch (op) {
            case PULL -> (byte) PENDING.getVolatile(pending, r) == 0 && replicas.read(slot, r, buffer, offset);
            case PUSH -> replicas.update(slot, r, rule, buffer, offset);
            default -> false;
        };
    }

    private void checkNotHeld(int r, String expected) {
        int entry = index[r];
        if (entry != ABSENT) {
            throw new IllegalStateException("row=" + r + " of table '" + spec.name() + "' is already held as "
                    + (entry >= 0 ? SlotKind.OWNED : SlotKind.REPLICA) + " (expected " + expected + ")");
        }
    }
}
