package io.adaps.relocation;

import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.protocol.BatcherPool;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Serves the row requests (PULL, PUSH, SET, SYNC, REFRESH) that reach this node, on the thread
 * that delivered them: the entries whose rows are owned here are served and answered at once by
 * the {@link RowServer} (store access is short and never blocks), in one answer message per kind;
 * the others go to the {@link Relocator}, which queues or forwards them. Requests arrive checked
 * (the node's dispatch table refuses malformed ones).
 */
public final class RequestServer {
    /** Per thread: a request entry's values, an answer's value, and the entries not owned here. */
    private static final class Scratch {
        final float[] values;
        final float[] answer;
        final IntArrayList missing = new IntArrayList();

        Scratch(int stride) {
            values = new float[stride];
            answer = new float[stride];
        }
    }

    private final NodeContext context;
    private final RowServer rows;
    private final Relocator relocator;
    private final BatcherPool batchers;
    private final MessageBatcher.Sender sender;
    private final ThreadLocal<Scratch> scratch;

    public RequestServer(NodeContext context, RowServer rows, Relocator relocator) {
        this.context = context;
        this.rows = rows;
        this.relocator = relocator;
        this.batchers = new BatcherPool(RowServer.lanes(context.clusterSize()), context.config().maxMessageBytes());
        this.sender = RowServer.laneSender(context.peers());
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(context.maxStride()));
    }

    /** Serves {@code request} from {@code peer}: see the class comment. */
    public void onRequest(int peer, Message request) {
        Table table = context.table(request.table());
        Scratch s = scratch.get();
        s.missing.clear();
        MessageBatcher out = batchers.acquire();
        try {
            rows.serveOwned(request, table, s.values, s.answer, out, s.missing);
        } finally {
            batchers.sendAndRelease(out, sender);
        }
        if (!s.missing.isEmpty()) {
            relocator.forwardOrQueue(request, table, s.missing);
        }
    }
}
