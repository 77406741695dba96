package io.adaps.placement;

import java.util.concurrent.TimeUnit;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.context.NodeContext;
import io.adaps.intent.HomeIntents;
import io.adaps.keys.RowKey;
import io.adaps.protocol.BatcherPool;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.relocation.Relocator;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The placement decision at the rows' home: records which nodes intend to use each row homed here,
 * and when (INTENT messages), and tells them what to do about it (PLACEMENT messages), by the rule
 * of {@link HomeIntents}, hand-offs included. Relocations for an {@link Technique#ADAPTIVE} node's intent are deferred
 * by {@value #DECISION_DELAY_MILLIS} ms, so that nodes that start using a key together are seen
 * together; as an {@link Agent} of the manager thread this releases them when due (a node without
 * a manager decides at once). A decision is released only once this node's own intents as of its
 * due time are known (see {@link #ownIntentsSeen}): the delay waits for the other nodes, not for
 * this node's own manager.
 *
 * <p>Thread-safe: INTENTs arrive on transport threads, releases run on the manager thread; one
 * monitor guards the decision state. The rows' owners come from the {@link Relocator}'s directory
 * at decision time; an owner that changes right after costs a placement that is redundant or
 * missing, never correctness (placement only says where a row should be).
 */
public final class HomePlacement implements Agent {
    /** How long the home waits for other nodes' intents before it moves a key to the first one. */
    public static final int DECISION_DELAY_MILLIS = 50;

    private final NodeContext context;
    private final Relocator relocator;
    private final NanoClock clock;
    private final HomeIntents intents;
    private final BatcherPool batchers;
    private final MessageBatcher.Sender sender;
    private volatile Runnable onDeferral = () -> { };
    /** When the manager's intent duty last took in this node's workers' intents; {@link Long#MIN_VALUE} before it did. Manager thread. */
    private long ownIntentsSeenAt = Long.MIN_VALUE;

    /** @param defers whether relocations are deferred: only a node with a manager thread releases them */
    public HomePlacement(NodeContext context, Relocator relocator, boolean defers) {
        this.context = context;
        this.relocator = relocator;
        this.clock = context.clock();
        boolean[] inStep = new boolean[context.tables().size()];
        for (Table table : context.tables()) {
            inStep[table.id()] = table.spec().consistency().staleness() == 0;
        }
        this.intents = new HomeIntents(Math.min(context.clusterSize(), HomeIntents.MAX_NODES),
                defers ? TimeUnit.MILLISECONDS.toNanos(DECISION_DELAY_MILLIS) : 0, key -> inStep[RowKey.table(key)]);
        this.batchers = new BatcherPool(context.clusterSize(), context.config().maxMessageBytes());
        this.sender = context.peers()::sendQuietly;
        relocator.onGrant(this::onGranted);
    }

    /**
     * The relocator granted {@code keys} to {@code requester}: a crossed relocation goes back, and
     * an owner that still uses a key gets a replica (see {@link HomeIntents#onGranted}).
     */
    private void onGranted(LongArrayList keys, int requester) {
        decide((decisions, now) -> {
            for (int i = 0; i < keys.size(); i++) {
                long key = keys.getLong(i);
                intents.onGranted(key, requester, context.table(RowKey.table(key)).spec().updateRule().accumulates(),
                        decisions);
            }
        });
    }

    /** Runs {@code wake} whenever a decision is deferred while none was: the manager then parks no longer than it is due. */
    public void wakeOnDeferral(Runnable wake) {
        this.onDeferral = wake;
    }

    /** Nanoseconds from {@code now} until the first deferred decision is due; {@code Long.MAX_VALUE} for none. */
    public synchronized long untilDue(long now) {
        long due = intents.nextDue();
        return due == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, due - now);
    }

    /**
     * Records the start or end of the origin's intent for the rows of {@code intent} and tells the
     * nodes concerned what to do about them.
     */
    public void onIntent(int peer, Message intent) {
        int table = intent.table();
        int origin = intent.origin();
        int flags = intent.flags();
        Technique technique = Technique.values()[intent.aux()];
        int entryLength = MessageType.INTENT.entryLength(0, 0);
        decide((decisions, now) -> {
            for (int i = 0; i < intent.count(); i++) {
                int entry = intent.entry(i, entryLength);
                int clocks = entry + Message.ROW_ENTRY;
                onIntent(RowKey.of(table, intent.rowAt(entry)), origin, technique, flags, intent.clockAt(clocks),
                        intent.clockAt(clocks + Message.CLOCK_LENGTH), now, decisions);
            }
        });
    }

    /**
     * As {@link #onIntent(int, Message)} for the INTENT this node would send itself about
     * {@code keys}, with {@code flags} and each key's clocks in {@code from} and {@code to} (as the
     * entry would carry them): its own keys are decided on without a message. Manager thread.
     */
    void onOwnIntents(LongArrayList keys, LongArrayList from, LongArrayList to, int flags, Technique technique) {
        int self = context.nodeId();
        decide((decisions, now) -> {
            for (int i = 0; i < keys.size(); i++) {
                onIntent(keys.getLong(i), self, technique, flags, from.getLong(i), to.getLong(i), now, decisions);
            }
        });
    }

    /**
     * The manager's intent duty took in every intent this node's workers had signalled by
     * {@code at}: deferred decisions due by then may be released. Issue 13: a home's manager
     * that took 120 ms over its workers' first 46,000 row intents (cold code) released the
     * deferred relocations of the columns its own worker had signalled meanwhile but it had not
     * taken in yet, so all of them moved to the other node. Manager thread.
     */
    void ownIntentsSeen(long at) {
        ownIntentsSeenAt = at;
    }

    /** What the home decides about decisions of one batch of intents. */
    @FunctionalInterface
    private interface Batch {
        void run(HomeIntents.Decisions decisions, long now);
    }

    /** Runs {@code batch} under the monitor, sends its decisions, and wakes the manager for a new deferral. */
    private void decide(Batch batch) {
        MessageBatcher out = batchers.acquire();
        boolean deferred;
        try {
            synchronized (this) {
                boolean deferredBefore = intents.hasDeferred();
                batch.run((key, action, target, at) -> place(key, action, target, at, out), clock.nanoTime());
                deferred = !deferredBefore && intents.hasDeferred();
            }
        } finally {
            batchers.sendAndRelease(out, sender);
        }
        if (deferred) {
            onDeferral.run();
        }
    }

    /** One key's INTENT entry: a start (with its clocks), an end, or an overlap (with its release's clock in {@code from}), by {@code flags}. */
    private void onIntent(long key, int origin, Technique technique, int flags, long from, long to, long now,
                          HomeIntents.Decisions decisions) {
        int table = RowKey.table(key);
        long row = RowKey.row(key);
        int owner = relocator.directoryOwner(table, row);
        if ((flags & Message.FLAG_INTENT_ENDS) != 0) {
            intents.onEnd(key, origin, owner, now, decisions);
        } else if ((flags & Message.FLAG_INTENT_OVERLAPS) != 0) {
            intents.onOverlap(key, origin, from, owner, context.table(table).spec().updateRule().accumulates(), decisions);
        } else {
            intents.onStart(key, origin, technique, from, to, owner,
                    context.table(table).spec().updateRule().accumulates(), now, decisions);
        }
    }

    /**
     * Sends the relocations that waited for other nodes' intents and are due by the time this
     * node's own intents were last taken in. Manager thread.
     */
    @Override
    public int doWork() {
        MessageBatcher out = batchers.acquire();
        long upTo = ownIntentsSeenAt == Long.MIN_VALUE ? clock.nanoTime() : ownIntentsSeenAt;
        try {
            synchronized (this) {
                if (intents.hasDeferred()) {
                    intents.releaseDue(upTo, key -> relocator.directoryOwner(RowKey.table(key), RowKey.row(key)),
                            key -> context.table(RowKey.table(key)).spec().updateRule().accumulates(),
                            (key, action, target, at) -> place(key, action, target, at, out));
                }
            }
            return out.isEmpty() ? 0 : 1;
        } finally {
            batchers.sendAndRelease(out, sender);
        }
    }

    @Override
    public String roleName() {
        return "home-placement";
    }

    /**
     * Tells {@code target} to move the row of {@code key} to itself, to replicate it, or to release
     * it for a node that starts using it at {@code clock}.
     */
    private void place(long key, int action, int target, long clock, MessageBatcher out) {
        int table = RowKey.table(key);
        long row = RowKey.row(key);
        int flags = switch (action) {
            case HomeIntents.RELOCATE -> Message.FLAG_RELOCATE;
            case HomeIntents.REPLICATE -> Message.FLAG_REPLICATE;
            default -> Message.FLAG_RELEASE;
        };
        int at = out.entry(target, MessageType.PLACEMENT, flags, table, 0, context.nodeId(), 0,
                MessageType.PLACEMENT.entryLength(0, 0));
        MutableDirectBuffer buffer = out.buffer(target);
        at = Message.writeRow(buffer, at, row);
        at = Message.writeInt(buffer, at, relocator.directoryOwner(table, row));
        Message.writeClock(buffer, at, clock);
    }
}

