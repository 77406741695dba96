package io.adaps.rpc;

import org.agrona.MutableDirectBuffer;

import io.adaps.api.ClusterException;
import io.adaps.api.PeerFailedException;
import io.adaps.api.Table;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.directory.LocationCache;
import io.adaps.keys.RowKey;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageBatcher;
import io.adaps.protocol.MessageType;
import io.adaps.relocation.LocalizeSink;
import io.adaps.relocation.Relocator;
import io.adaps.util.BoundedWait;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The remote half of a worker (or of the adaptive manager): collects the rows of an operation
 * that other nodes hold into one request per (peer, table) (more where a request or its answer
 * would exceed the message size), sends them, and tracks them as a {@link RemoteCall} until
 * every answer is in. A row goes to where this node's {@link LocationCache} last saw it, else to
 * its home ({@link #route}).
 *
 * <p>A requester keeps {@value #IN_FLIGHT} calls in a ring indexed by ticket; a new operation
 * whose slot is still busy first waits for it, which bounds what one worker has in flight.
 * Request ids carry {@code worker (16 bits) | part (16 bits) | ticket (low 32 bits)}, so that an
 * answer finds its call without a map ({@link CallRegistry} routes it here by the worker bits).
 * Answers arrive on transport threads ({@link #onAnswer}); everything else runs on the owner's
 * thread.
 */
public final class Requester implements LocalizeSink {
    /** Calls a requester keeps in flight. */
    public static final int IN_FLIGHT = 64;

    private final NodeContext context;
    private final Peers peers;
    private final Relocator relocator;
    private final int workerId;
    private final int self;
    private final int tables;
    private final RemoteCall[] calls = new RemoteCall[IN_FLIGHT];
    /** Destination {@code peer * tables + table}: one request message (or several) per peer and table. */
    private final MessageBatcher requests;
    /** Per destination: where each row's value is in the caller's buffer, and the rows, in order. */
    private final IntArrayList[] positions;
    private final LongArrayList[] rows;
    private final BoundedWait wait;
    private ClusterException unobservedFailure;
    private Operation operation;
    private long remotePulls;
    private long remotePushes;
    private long remoteSets;
    private long locationHits;
    private long locationMisses;

    /**
     * The requester of worker {@code workerId}; {@code relocator} hears of localizes that failed.
     * Answers unpark the thread that sent the call.
     */
    public Requester(NodeContext context, Relocator relocator, int workerId) {
        this.context = context;
        this.peers = context.peers();
        this.relocator = relocator;
        this.workerId = workerId;
        this.self = context.nodeId();
        this.tables = context.tables().size();
        int destinations = context.clusterSize() * tables;
        this.requests = new MessageBatcher(destinations, context.config().maxMessageBytes());
        this.positions = new IntArrayList[destinations];
        this.rows = new LongArrayList[destinations];
        for (int d = 0; d < destinations; d++) {
            positions[d] = new IntArrayList();
            rows[d] = new LongArrayList();
        }
        for (int i = 0; i < IN_FLIGHT; i++) {
            calls[i] = new RemoteCall();
        }
        this.wait = BoundedWait.forWakeUps(context.clock());
    }

    /** Starts collecting the remote rows of an operation. */
    public void begin(Operation operation) {
        if (!requests.isEmpty()) {
            discard(); // an operation that failed before it was sent
        }
        this.operation = operation;
    }

    private void discard() {
        for (int u = 0; u < requests.used(); u++) {
            positions[requests.destination(u)].clear();
            rows[requests.destination(u)].clear();
        }
        requests.clear();
    }

    /** Adds {@code row} of {@code table}, held by {@code peer}, whose value is at {@code buffer[position ..]}. */
    public void add(int peer, Table table, long row, float[] buffer, int position) {
        add(peer, table, row, buffer, position, 0);
    }

    /** {@link #add}; a REFRESH also says which {@code version} of the row the replica has. */
    public void add(int peer, Table table, long row, float[] buffer, int position, long version) {
        int destination = peer * tables + table.id();
        int valueLength = table.valueLength();
        MessageType type = operation.request;
        int entryLength = type.entryLength(valueLength, 0);
        int answerLength = operation.answer.entryLength(valueLength, 0);
        // Every entry of one operation to one destination has the same header.
        int at = requests.append(destination, entryLength, answerLength);
        if (at < 0) {
            at = requests.entry(destination, type, 0, table.id(), 0, self, 0, entryLength, answerLength);
        }
        MutableDirectBuffer message = requests.buffer(destination);
        at = Message.writeRow(message, at, row);
        // The entry's index is its position in its message, which becomes one part of the call.
        at = Message.writeInt(message, at, requests.openCount(destination) - 1);
        if (operation.carriesValues()) {
            Message.writeFloats(message, at, buffer, position, valueLength);
        } else if (operation == Operation.REFRESH) {
            Message.writeVersion(message, at, version);
        }
        positions[destination].add(position);
        rows[destination].add(row);
    }

    /** Adds a row to a LOCALIZE, to be asked of its home. */
    @Override
    public void ask(int home, Table table, long row) {
        add(home, table, row, null, 0);
    }

    /** Where to send a request for {@code row}: its cached location if known (and alive), else its home. */
    public int route(Table table, long row) {
        int cached = context.locations().get(table.id(), row);
        if (cached != LocationCache.UNKNOWN && cached != context.nodeId() && peers.failure(cached) == null) {
            locationHits++;
            return cached;
        }
        locationMisses++;
        return context.home(table, row);
    }

    /** Whether rows were added since {@link #begin}. */
    public boolean hasRows() {
        return !requests.isEmpty();
    }

    /** {@link #send(long, float[], InFlightPushes)} of a call whose pushes nothing counts. */
    public RemoteCall send(long ticket, float[] buffer) {
        return send(ticket, buffer, null);
    }

    /**
     * Sends the collected rows as the call of {@code ticket} and returns it (complete or not).
     * Parts that cannot be sent because their peer failed are closed as failed. {@code inFlight},
     * if not {@code null}, has counted every row of this push; the call uncounts each part's rows
     * when the part closes.
     */
    public RemoteCall send(long ticket, float[] buffer, InFlightPushes inFlight) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        if (!call.complete() || !call.observed) {
            awaitCompletion(call);
            if (call.failure() != null && !call.observed && unobservedFailure == null) {
                unobservedFailure = call.failure();
            }
            call.observed = true;
        }
        call.reset(ticket, operation, buffer, inFlight);
        long requestIdBase = ((long) workerId << 48) | (ticket & 0xFFFF_FFFFL);
        int rowCount = 0;
        for (int u = 0; u < requests.used(); u++) {
            int destination = requests.destination(u);
            int first = 0;
            for (int m = 0; m < requests.messages(destination); m++) {
                int entries = requests.messageCount(destination, m);
                call.positions.addElements(call.positions.size(), positions[destination].elements(), first, entries);
                call.rows.addElements(call.rows.size(), rows[destination].elements(), first, entries);
                first += entries;
                int part = call.addPart(destination / tables, destination % tables, entries);
                Message.writeRequestId(requests.buffer(destination), requests.messageStart(destination, m),
                        requestIdBase | ((long) part << 32));
            }
            rowCount += first;
            positions[destination].clear();
            rows[destination].clear();
        }
        if (operation == Operation.SYNC || operation == Operation.REFRESH) {
            call.clearVersions(rowCount);
        }
        call.open();
        int part = 0;
        for (int u = 0; u < requests.used(); u++) {
            int destination = requests.destination(u);
            int peer = destination / tables;
            for (int m = 0; m < requests.messages(destination); m++, part++) {
                call.partSentNanos[part] = context.clock().nanoTime();
                try {
                    peers.send(peer, requests.buffer(destination), requests.messageStart(destination, m),
                            requests.messageLength(destination, m));
                } catch (ClusterException e) {
                    call.failPart(part, e);
                }
            }
        }
        requests.clear();
        switch (operation) {
            case PULL -> remotePulls += rowCount;
            case PUSH -> remotePushes += rowCount;
            case SET -> remoteSets += rowCount;
            case LOCALIZE, SYNC, REFRESH -> { }
        }
        return call;
    }

    /** Waits for {@code call} and throws its failure, if any. */
    public void await(RemoteCall call) {
        awaitCompletion(call);
        call.observed = true;
        ClusterException failure = call.failure();
        if (failure != null) {
            throw failure;
        }
    }

    /** Waits for the call of {@code ticket} if it is still tracked; throws its failure. */
    public void awaitTicket(long ticket) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        if (call.ticket == ticket && !call.observed) {
            await(call);
        }
    }

    /** Whether the call of {@code ticket} is complete (or no longer tracked). */
    public boolean isDone(long ticket) {
        RemoteCall call = calls[(int) (ticket & (IN_FLIGHT - 1))];
        return call.ticket != ticket || call.complete();
    }

    /** Whether every call with a ticket up to {@code ticket} is complete (answered or failed). */
    public boolean completeThrough(long ticket) {
        for (RemoteCall call : calls) {
            if (call.ticket <= ticket && !call.complete()) {
                return false;
            }
        }
        return true;
    }

    /** Waits for every call; throws the first failure not reported yet. */
    public void awaitAll() {
        ClusterException first = unobservedFailure;
        unobservedFailure = null;
        for (RemoteCall call : calls) {
            if (!call.observed) {
                awaitCompletion(call);
                call.observed = true;
                if (first == null) {
                    first = call.failure();
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Waits, bounded by the operation timeout, until every part of {@code call} is closed: by an
     * answer, or by this thread when the part's peer failed or time ran out.
     */
    private void awaitCompletion(RemoteCall call) {
        wait.start(context.config().operationTimeout().toNanos());
        int failuresSeen = -1;
        while (!call.complete()) {
            if (context.isClosed()) {
                call.failAll(new ClusterException("node " + context.nodeId() + " closed while worker " + workerId
                        + " waited for answers from " + openPeers(call)));
                break;
            }
            int failures = peers.failureCount();
            if (failures != failuresSeen) {
                failuresSeen = failures;
                failPartsOfFailedPeers(call);
                continue;
            }
            if (!wait.idle()) {
                call.failAll(new ClusterException("worker " + workerId + " of node " + context.nodeId() + ": no answer to "
                        + "requests sent to " + openPeers(call) + " within " + context.config().operationTimeout()
                        + peers.describeFailed()));
            }
        }
        if (call.operation == Operation.LOCALIZE && call.failure() != null && !call.observed) {
            LongArrayList keys = new LongArrayList();
            for (int p = 0; p < call.parts; p++) {
                for (int i = 0; i < call.partCount[p]; i++) {
                    keys.add(RowKey.of(call.partTable[p], call.rows.getLong(call.partFirst[p] + i)));
                }
            }
            relocator.abandon(workerId, call.ticket, keys);
        }
    }

    private void failPartsOfFailedPeers(RemoteCall call) {
        for (int part = 0; part < call.parts; part++) {
            PeerFailedException failure = peers.failure(call.partPeer[part]);
            if (failure != null) {
                call.failPart(part, failure);
            }
        }
    }

    private String openPeers(RemoteCall call) {
        StringBuilder open = new StringBuilder();
        for (int part = 0; part < call.parts; part++) {
            String peer = peers.describe(call.partPeer[part]);
            if (call.isOpen(part) && open.indexOf(peer) < 0) {
                open.append(open.length() == 0 ? "" : ", ").append(peer);
            }
        }
        return open.toString();
    }

    /**
     * Handles an answer from {@code peer}: a PULL_REPLY, ACK, ERROR, REFRESHED, UNCHANGED, or the
     * HANDOVER of rows this worker localized (after the node installed them); called on a transport
     * thread, or on any thread that served a request of this node. An answer may cover any subset
     * of a part's rows.
     */
    public void onAnswer(int peer, Message message) {
        long requestId = message.requestId();
        RemoteCall call = calls[(int) (requestId & (IN_FLIGHT - 1))];
        int ticket = (int) requestId;
        int part = (int) (requestId >>> 32) & 0xFFFF;
        if (call.complete() || (int) call.ticket != ticket || part >= call.parts || !call.lockPart(part)) {
            return; // the answer of a part that was failed (timed out) earlier
        }
        if ((int) call.ticket != ticket) {
            call.unlockPart(part, RemoteCall.OPEN); // the call was reused meanwhile
            return;
        }
        byte outcome;
        if (message.type() == MessageType.ERROR) {
            call.fail(refusal(peer, message));
            outcome = RemoteCall.FAILED;
        } else {
            String problem = checkAnswer(call, part, message);
            if (problem != null) {
                call.fail(new ClusterException(peers.describe(peer) + " sent a malformed answer: " + problem));
                outcome = RemoteCall.FAILED;
            } else {
                apply(peer, call, part, message);
                call.partRemaining[part] -= message.count();
                outcome = call.partRemaining[part] == 0 ? RemoteCall.ANSWERED : RemoteCall.OPEN;
                if (outcome == RemoteCall.ANSWERED) {
                    peers.recordRoundTrip(peer, call.operation.request,
                            context.clock().nanoTime() - call.partSentNanos[part]);
                }
            }
        }
        call.unlockPart(part, outcome);
    }

    private ClusterException refusal(int peer, Message error) {
        if ((error.flags() & Message.FLAG_PEER_FAILED) != 0) {
            int failed = error.aux() - 1;
            return new PeerFailedException(failed, peers.describe(failed) + " (reported by " + peers.describe(peer)
                    + "): " + error.errorText());
        }
        return new ClusterException(peers.describe(peer) + " refused a request: " + error.errorText());
    }

    private String checkAnswer(RemoteCall call, int part, Message answer) {
        MessageType type = answer.type();
        if (!call.operation.isAnsweredBy(type)) {
            return "type=" + type + " (expected the answer to a " + call.operation + ")";
        }
        Table table = context.table(call.partTable[part]);
        int stride = context.store(table.id()).stride();
        if (answer.table() != table.id() && type != MessageType.ACK) {
            return "table=" + answer.table() + " (expected " + table.id() + ")";
        }
        String problem = answer.validate(table.valueLength(), stride);
        if (problem != null) {
            return problem;
        }
        if (answer.count() > call.partRemaining[part]) {
            return "count=" + answer.count() + " (expected at most the " + call.partRemaining[part] + " rows unanswered)";
        }
        int entryLength = type.entryLength(table.valueLength(), stride);
        int indexAt = type == MessageType.HANDOVER ? Message.ROW_LENGTH : 0;
        for (int i = 0; i < answer.count(); i++) {
            int index = answer.intAt(answer.entry(i, entryLength) + indexAt);
            if (index < 0 || index >= call.partCount[part]) {
                return "index=" + index + " (expected 0.." + (call.partCount[part] - 1) + ")";
            }
        }
        return null;
    }

    /**
     * Copies pulled values into the caller's buffer and learns where the rows are. Each kind of
     * answer has a loop of its own, which the JIT compiles with the profile of that kind alone
     * (see {@code RowServer.serveOwned}).
     */
    private void apply(int peer, RemoteCall call, int part, Message answer) {
        MessageType type = answer.type();
        if (type == MessageType.HANDOVER) {
            return; // the rows are here now: the node has installed them
        }
        Table table = context.table(call.partTable[part]);
        int valueLength = table.valueLength();
        int entryLength = type.entryLength(valueLength, 0);
        int first = call.partFirst[part];
        switch (type) {
            case PULL_REPLY -> readValues(call, first, answer, entryLength, valueLength);
            case REFRESHED -> readRefreshed(call, first, answer, entryLength, valueLength);
            case UNCHANGED -> readUnchanged(call, first, answer, entryLength);
            default -> { } // ACK: nothing to read
        }
        if (peer != call.partPeer[part]) {
            LocationCache locations = context.locations();
            for (int i = 0; i < answer.count(); i++) {
                int position = first + answer.intAt(answer.entry(i, entryLength));
                locations.put(table.id(), call.rows.getLong(position), peer);
            }
        }
    }

    private static void readValues(RemoteCall call, int first, Message answer, int entryLength, int valueLength) {
        for (int i = 0; i < answer.count(); i++) {
            int entry = answer.entry(i, entryLength);
            int position = first + answer.intAt(entry);
            answer.readFloats(entry + Message.INDEX_LENGTH, call.buffer, call.positions.getInt(position), valueLength);
        }
    }

    private static void readRefreshed(RemoteCall call, int first, Message answer, int entryLength, int valueLength) {
        for (int i = 0; i < answer.count(); i++) {
            int entry = answer.entry(i, entryLength);
            int position = first + answer.intAt(entry);
            answer.readFloats(entry + Message.INDEX_LENGTH + Message.VERSION_LENGTH, call.buffer,
                    call.positions.getInt(position), valueLength);
            call.versions[position] = answer.versionAt(entry + Message.INDEX_LENGTH);
        }
    }

    private static void readUnchanged(RemoteCall call, int first, Message answer, int entryLength) {
        for (int i = 0; i < answer.count(); i++) {
            int entry = answer.entry(i, entryLength);
            long version = answer.versionAt(entry + Message.INDEX_LENGTH);
            call.versions[first + answer.intAt(entry)] = RemoteCall.UNCHANGED | version;
        }
    }

    /**
     * Adds the values pulled, pushed and set at other nodes, and the location-cache hits and
     * misses, to {@code sums[from .. from + 4]}.
     */
    public void addCounters(long[] sums, int from) {
        sums[from] += remotePulls;
        sums[from + 1] += remotePushes;
        sums[from + 2] += remoteSets;
        sums[from + 3] += locationHits;
        sums[from + 4] += locationMisses;
    }

    /** Values accessed at other nodes. */
    public long remoteAccesses() {
        return remotePulls + remotePushes + remoteSets;
    }
}
