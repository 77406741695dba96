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

/**
 * The placement decision at the rows' home: records which nodes intend to use each row homed here
 * (INTENT messages) and tells them what to do about it (PLACEMENT messages), by the rule of
 * {@link HomeIntents}. Relocations for an {@link Technique#ADAPTIVE} node's intent are deferred
 * by {@value #DECISION_DELAY_MILLIS} ms, so that nodes that start using a key together are seen
 * together; as an {@link Agent} of the manager thread this releases them when due (a node without
 * a manager decides at once).
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

    /** @param defers whether relocations are deferred: only a node with a manager thread releases them */
    public HomePlacement(NodeContext context, Relocator relocator, boolean defers) {
        this.context = context;
        this.relocator = relocator;
        this.clock = context.clock();
        this.intents = new HomeIntents(Math.min(context.clusterSize(), HomeIntents.MAX_NODES),
                defers ? TimeUnit.MILLISECONDS.toNanos(DECISION_DELAY_MILLIS) : 0);
        this.batchers = new BatcherPool(context.clusterSize(), context.config().maxMessageBytes());
        this.sender = context.peers()::sendQuietly;
    }

    /**
     * Records the start or end of the origin's intent for the rows of {@code intent} and tells the
     * nodes concerned what to do about them.
     */
    public void onIntent(int peer, Message intent) {
        Table table = context.table(intent.table());
        int origin = intent.origin();
        boolean ends = (intent.flags() & Message.FLAG_INTENT_ENDS) != 0;
        Technique technique = Technique.values()[intent.aux()];
        boolean accumulates = table.spec().updateRule().accumulates();
        long now = clock.nanoTime();
        MessageBatcher out = batchers.acquire();
        try {
            synchronized (this) {
                for (int i = 0; i < intent.count(); i++) {
                    long row = intent.rowAt(intent.entry(i, Message.ROW_ENTRY));
                    intents.onIntent(RowKey.of(table.id(), row), origin, technique, ends,
                            relocator.directoryOwner(table.id(), row), accumulates, now,
                            (key, action, target) -> place(key, action, target, out));
                }
            }
        } finally {
            batchers.sendAndRelease(out, sender);
        }
    }

    /** Sends the relocations that waited for other nodes' intents and are due. Manager thread. */
    @Override
    public int doWork() {
        MessageBatcher out = batchers.acquire();
        try {
            synchronized (this) {
                if (intents.hasDeferred()) {
                    intents.releaseDue(clock.nanoTime(), key -> relocator.directoryOwner(RowKey.table(key), RowKey.row(key)),
                            (key, action, target) -> place(key, action, target, out));
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

    /** Tells {@code target} to move the row of {@code key} to itself or to replicate it. */
    private void place(long key, int action, int target, MessageBatcher out) {
        int table = RowKey.table(key);
        long row = RowKey.row(key);
        int flags = action == HomeIntents.RELOCATE ? Message.FLAG_RELOCATE : Message.FLAG_REPLICATE;
        int at = out.entry(target, MessageType.PLACEMENT, flags, table, 0, context.nodeId(), 0, Message.ROW_ENTRY);
        MutableDirectBuffer buffer = out.buffer(target);
        at = Message.writeRow(buffer, at, row);
        Message.writeInt(buffer, at, relocator.directoryOwner(table, row));
    }
}
