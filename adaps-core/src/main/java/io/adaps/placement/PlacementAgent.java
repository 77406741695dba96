package io.adaps.placement;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.ClusterException;
import io.adaps.context.NodeContext;
import io.adaps.keys.RowKey;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.relocation.Relocator;
import io.adaps.rpc.CallRegistry;
import io.adaps.rpc.InFlightPushes;
import io.adaps.rpc.Operation;
import io.adaps.rpc.Requester;
import io.adaps.util.BoundedWait;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The manager's placement duty: carries out what the homes decided (PLACEMENT messages) for keys
 * this node still wants, and hands the requests to release keys to {@link ActiveKeys}. A relocation is an ordinary localize ({@link Relocator}), not waited for;
 * a replica is installed <em>pending</em> and fetched at once, alone ({@link ReplicaSync#fetch}):
 * not by a round of every replica.
 *
 * <p>A new pending replica takes pushes at once (they accumulate in its delta), but workers read
 * it only after its first refresh. That fetch starts only once every push this node's workers
 * sent for the keys before the replicas existed has been applied at the owners
 * ({@link InFlightPushes}), so the fetched value includes them: a worker reads its own writes
 * across the change from remote to local.
 *
 * <p>Manager thread, except {@link #onPlacement} (transport threads).
 */
final class PlacementAgent implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementAgent.class);

    private final NodeContext context;
    private final Relocator relocator;
    private final Requester requester;
    private final ActiveKeys active;
    private final ReplicaSync sync;
    private final InFlightPushes inFlight;
    private volatile boolean paused;
    private volatile boolean pauseSeen;
    private final LongSupplier tickets;
    private final BoundedWait wait;
    /** PLACEMENT entries received: key, action, owner, clock. Guarded by {@code placedKeys}. */
    private final LongArrayList placedKeys = new LongArrayList();
    private final IntArrayList placedActions = new IntArrayList();
    private final IntArrayList placedOwners = new IntArrayList();
    private final LongArrayList placedClocks = new LongArrayList();
    private final LongArrayList relocate = new LongArrayList();
    private final LongArrayList replicate = new LongArrayList();
    private final LongArrayList fetching = new LongArrayList();
    private final LongArrayList localizeTickets = new LongArrayList();
    private long[] ids = new long[64];
    final LongAdder replicasCreated = new LongAdder();
    final LongAdder relocations = new LongAdder();

    /** @param inFlight this node's pushes on their way, or {@code null} if nothing counts them */
    PlacementAgent(NodeContext context, Relocator relocator, Requester requester, ActiveKeys active, ReplicaSync sync,
                   InFlightPushes inFlight, LongSupplier tickets) {
        this.context = context;
        this.relocator = relocator;
        this.requester = requester;
        this.active = active;
        this.sync = sync;
        this.inFlight = inFlight;
        this.tickets = tickets;
        this.wait = BoundedWait.forPolling(context.clock());
    }

    /** A PLACEMENT from a home: remembered for the manager thread. Transport threads. */
    void onPlacement(Message placement) {
        int flags = placement.flags();
        int action = (flags & Message.FLAG_RELOCATE) != 0 ? Message.FLAG_RELOCATE
                : (flags & Message.FLAG_RELEASE) != 0 ? Message.FLAG_RELEASE : Message.FLAG_REPLICATE;
        int entryLength = MessageType.PLACEMENT.entryLength(0, 0);
        synchronized (placedKeys) {
            for (int i = 0; i < placement.count(); i++) {
                int at = placement.entry(i, entryLength);
                placedKeys.add(RowKey.of(placement.table(), placement.rowAt(at)));
                placedActions.add(action);
                placedOwners.add(placement.intAt(at + Message.ROW_LENGTH));
                placedClocks.add(placement.clockAt(at + Message.ROW_ENTRY));
            }
        }
    }

    /**
     * While set, no placement is carried out (they wait, as received, until {@link #resume}): no
     * relocation or replica starts here, as a checkpoint needs. Any thread.
     */
    void pause() {
        pauseSeen = false;
        paused = true;
    }

    /** Whether the manager thread saw the pause at the start of a duty cycle: no placement is under way. */
    boolean pauseSeen() {
        return pauseSeen;
    }

    /** Carries out placements again. Any thread. */
    void resume() {
        paused = false;
    }

    @Override
    public int doWork() {
        if (paused) {
            pauseSeen = true;
            observeLocalizes();
            return 0;
        }
        int work = applyPlacements();
        observeLocalizes();
        return work;
    }

    @Override
    public String roleName() {
        return "placement";
    }

    /**
     * Carries out the placements received since the last call, for keys this node still wants.
     * A lingering key counts: it may be between two intents of a worker that signals one clock at
     * a time, and when the next intent resumes it, its home hears nothing; a placement dropped
     * then would never be asked for again (issue 13: a CI run of BatchedReadsTest whose rows
     * never moved).
     */
    private int applyPlacements() {
        relocate.clear();
        replicate.clear();
        int releases = 0;
        synchronized (placedKeys) {
            for (int i = 0; i < placedKeys.size(); i++) {
                long key = placedKeys.getLong(i);
                int action = placedActions.getInt(i);
                if (action == Message.FLAG_RELEASE) {
                    active.release(key, placedClocks.getLong(i));
                    releases++;
                    continue;
                }
                if (!active.wanted(key)) {
                    continue; // the key was let go meanwhile (its home hears so): nothing is worth moving for it
                }
                if (action == Message.FLAG_RELOCATE) {
                    relocate.add(key);
                } else {
                    replicate.add(key);
                    int owner = placedOwners.getInt(i);
                    if (owner != context.nodeId()) {
                        // The first synchronization of the replica goes straight to the owner.
                        context.locations().put(RowKey.table(key), RowKey.row(key), owner);
                    }
                }
            }
            placedKeys.clear();
            placedActions.clear();
            placedOwners.clear();
            placedClocks.clear();
        }
        if (!relocate.isEmpty()) {
            localize();
        }
        if (!replicate.isEmpty()) {
            createReplicas();
        }
        return releases + relocate.size() + replicate.size();
    }

    /** Moves the keys in {@link #relocate} here, without waiting for them. */
    private void localize() {
        requester.begin(Operation.LOCALIZE);
        long ticket = tickets.getAsLong();
        for (int i = 0; i < relocate.size(); ) {
            int table = RowKey.table(relocate.getLong(i));
            int n = 0;
            while (i + n < relocate.size() && RowKey.table(relocate.getLong(i + n)) == table) {
                if (ids.length <= n) {
                    ids = Arrays.copyOf(ids, ids.length * 2);
                }
                ids[n] = RowKey.row(relocate.getLong(i + n));
                n++;
            }
            relocator.claim(context.table(table), ids, 0, n, null, CallRegistry.MANAGER, ticket, true, requester);
            i += n;
        }
        if (requester.hasRows()) {
            relocations.add(relocate.size());
            requester.send(ticket, null);
            localizeTickets.add(ticket);
        }
    }

    /** Reports localizes that failed (their rows are given up); the others need nothing. */
    private void observeLocalizes() {
        for (int i = localizeTickets.size() - 1; i >= 0; i--) {
            long ticket = localizeTickets.getLong(i);
            if (requester.isDone(ticket)) {
                localizeTickets.removeLong(i);
                try {
                    requester.awaitTicket(ticket);
                } catch (ClusterException e) {
                    LOG.warn("node {}: a relocation the manager asked for failed: {}", context.nodeId(), e.getMessage());
                }
            }
        }
    }

    /** Creates pending replicas of the keys in {@link #replicate} and fetches them. */
    private void createReplicas() {
        fetching.clear();
        for (int i = 0; i < replicate.size(); i++) {
            long key = replicate.getLong(i);
            if (context.store(RowKey.table(key)).tryInstallPendingReplica(RowKey.row(key))) {
                fetching.add(key);
                replicasCreated.increment();
            }
        }
        if (fetching.isEmpty()) {
            return;
        }
        VarHandle.fullFence(); // the replicas are visible before the in-flight counts are read
        if (inFlight != null) {
            wait.start(context.config().operationTimeout().toNanos());
            // Bounded: past the timeout it fetches anyway (a push that never returns failed).
            while (inFlight.anyOf(fetching)) {
                if (!wait.idle()) {
                    break;
                }
            }
        }
        sync.fetch(requester, fetching);
    }
}
