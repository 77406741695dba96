package io.adaps.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeMetrics;
import io.adaps.api.PeerFailedException;
import io.adaps.api.PeerMetrics;
import io.adaps.api.Table;
import io.adaps.api.Worker;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;
import io.adaps.transport.MessageHandler;
import io.adaps.transport.Transport;
import io.adaps.transport.TransportConfig;

/**
 * A node: holds the rows it is home of, runs its workers' operations (locally on the calling
 * thread, remotely through the transport), serves other nodes' requests on transport threads, and
 * tracks which peers have failed. A node without a transport is a cluster of one.
 *
 * <p>This is the classic parameter server (Li et al., "Scaling Distributed Machine Learning with
 * the Parameter Server", OSDI 2014): every row stays at its home node (see
 * {@link io.adaps.api.Partitioning}), and update rules run there.
 */
public final class Node implements AdaPS, MessageHandler {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    private static final int MAX_WORKERS = 1 << 16;

    private final NodeConfig config;
    private final List<Table> tables;
    private final KeySpace keys;
    private final TableStore[] stores;
    private final List<NodeWorker> workers = new CopyOnWriteArrayList<>();
    private final Transport transport;
    private final TransportConfig transportConfig;
    private final RequestServer server;
    private final ClusterBarrier barrier;
    private final AtomicReferenceArray<PeerFailedException> peerFailures;
    private final AtomicInteger peerFailureCount = new AtomicInteger();
    /** Per peer: the barriers it had passed when it left, or -1 while it has not left. */
    private final AtomicLongArray barriersPassedWhenLeft;
    private final ThreadLocal<Message> messages = ThreadLocal.withInitial(Message::new);
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final Recorder[] roundTrips;
    private final Histogram[] roundTripTotals;
    private volatile boolean closed;

    /**
     * Starts a node: allocates and initializes the rows it is home of, then (with a transport)
     * joins the cluster, returning once every peer is connected.
     *
     * @param transport       {@code null} for a cluster of one
     * @param transportConfig {@code null} for a cluster of one
     */
    public Node(NodeConfig config, Transport transport, TransportConfig transportConfig) {
        this.config = config;
        this.tables = config.tables();
        this.keys = new KeySpace(tables);
        this.stores = new TableStore[tables.size()];
        this.transport = transport;
        this.transportConfig = transportConfig;
        this.peerFailures = new AtomicReferenceArray<>(config.clusterSize());
        this.barriersPassedWhenLeft = new AtomicLongArray(config.clusterSize());
        for (int peer = 0; peer < config.clusterSize(); peer++) {
            barriersPassedWhenLeft.set(peer, -1);
        }
        this.roundTrips = new Recorder[config.clusterSize()];
        this.roundTripTotals = new Histogram[config.clusterSize()];
        for (int peer = 0; peer < config.clusterSize(); peer++) {
            roundTrips[peer] = new Recorder(3);
            roundTripTotals[peer] = new Histogram(3);
        }
        long floats = 0;
        for (Table table : tables) {
            TableStore store = new TableStore(table.spec());
            for (long row = 0; row < table.rows(); row++) {
                if (config.clusterSize() == 1 || config.partitioning().home(table, row, config.clusterSize()) == config.nodeId()) {
                    store.allocate(row, SlotKind.OWNED);
                }
            }
            stores[table.id()] = store;
            floats += (long) store.heldRows() * (table.valueLength() + table.spec().updateRule().stateLength(table.valueLength()));
        }
        this.server = new RequestServer(this, stores);
        this.barrier = new ClusterBarrier(this);
        if (transport != null) {
            transport.start(transportConfig, this);
        }
        LOG.info("node {} of {} started: {} table(s), {} keys, {} MiB of parameters held here", config.nodeId(),
                config.clusterSize(), tables.size(), keys.endKey(), floats * Float.BYTES >> 20);
    }

    NodeConfig config() {
        return config;
    }

    @Override
    public int nodeId() {
        return config.nodeId();
    }

    @Override
    public int clusterSize() {
        return config.clusterSize();
    }

    @Override
    public List<Table> tables() {
        return tables;
    }

    @Override
    public Table table(String name) {
        for (Table table : tables) {
            if (table.name().equals(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("table='" + name + "' (expected one of " + tables.stream().map(Table::name).toList() + ")");
    }

    @Override
    public long keys() {
        return keys.endKey();
    }

    @Override
    public synchronized Worker worker() {
        checkOpen();
        if (workers.size() == MAX_WORKERS) {
            throw new IllegalStateException("workers=" + MAX_WORKERS + " (expected fewer workers per node)");
        }
        NodeWorker worker = new NodeWorker(this, keys, stores, workers.size());
        workers.add(worker);
        return worker;
    }

    @Override
    public void barrier() {
        checkOpen();
        if (clusterSize() > 1) {
            barrier.await();
        }
    }

    @Override
    public NodeMetrics metrics() {
        long[] sums = new long[7];
        for (NodeWorker worker : workers) {
            worker.addCounters(sums);
        }
        List<PeerMetrics> peers = new ArrayList<>();
        for (int peer = 0; peer < clusterSize(); peer++) {
            if (peer != nodeId()) {
                peers.add(roundTripMetrics(peer));
            }
        }
        return new NodeMetrics(nodeId(), workers.size(), sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6],
                messagesSent.sum(), bytesSent.sum(), messagesReceived.sum(), bytesReceived.sum(), 0, 0, 0, 0, 0, peers,
                List.of());
    }

    private PeerMetrics roundTripMetrics(int peer) {
        Histogram total = roundTripTotals[peer];
        synchronized (total) {
            total.add(roundTrips[peer].getIntervalHistogram());
            return new PeerMetrics(peer, total.getTotalCount(), total.getValueAtPercentile(50) / 1e3,
                    total.getValueAtPercentile(99) / 1e3, total.getMaxValue() / 1e3);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (transport != null) {
            for (int peer = 0; peer < clusterSize(); peer++) {
                if (peer != nodeId() && peerFailures.get(peer) == null) {
                    try {
                        sendControl(peer, MessageType.LEAVE, barrier.passed());
                    } catch (RuntimeException e) {
                        LOG.debug("node {}: could not say goodbye to {}: {}", nodeId(), describePeer(peer), e.getMessage());
                    }
                }
            }
            transport.close();
        }
        LOG.info("node {} closed: {}", nodeId(), metrics().describe());
    }

    /** Throws unless the node is open. */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("node " + nodeId() + " is closed (expected an open node)");
        }
    }

    // ---------------------------------------------------------------- messages

    @Override
    public void onMessage(int peer, DirectBuffer buffer, int offset, int length) {
        messagesReceived.increment();
        bytesReceived.add(length);
        Message message = messages.get().wrap(buffer, offset, length);
        MessageType type = length >= Message.HEADER_LENGTH ? message.type() : null;
        if (type == null) {
            LOG.error("node {}: dropped a malformed message of {} bytes from {}", nodeId(), length, describePeer(peer));
            return;
        }
        switch (type) {
            case PULL, PUSH, SET -> server.serve(peer, message);
            case PULL_REPLY, ACK, ERROR -> routeAnswer(peer, message);
            case BARRIER_ENTER -> {
                if (nodeId() == 0) {
                    barrier.onEnter(message.requestId());
                } else {
                    LOG.error("node {}: dropped BARRIER_ENTER from {} (expected only at node 0)", nodeId(), describePeer(peer));
                }
            }
            case BARRIER_RELEASE -> barrier.onRelease(message.requestId());
            case LEAVE -> {
                long passed = message.requestId();
                barriersPassedWhenLeft.set(peer, passed);
                markFailed(PeerFailedException.left(peer, "(" + transportConfig.peers().get(peer)
                        + ") left the cluster after barrier " + passed));
            }
            default -> throw new AssertionError(type);
        }
    }

    private void routeAnswer(int peer, Message message) {
        int workerId = (int) (message.requestId() >>> 48);
        RemoteOperations remote = workerId < workers.size() ? workers.get(workerId).remote() : null;
        if (remote == null) {
            LOG.error("node {}: dropped an answer from {} for unknown worker {}", nodeId(), describePeer(peer), workerId);
            return;
        }
        remote.onAnswer(peer, message);
    }

    @Override
    public void onPeerFailure(PeerFailedException failure) {
        markFailed(failure);
    }

    private void markFailed(PeerFailedException failure) {
        if (!peerFailures.compareAndSet(failure.peer(), null, failure)) {
            return;
        }
        peerFailureCount.incrementAndGet();
        if (closed || failure.left()) {
            LOG.info("node {}: {}", nodeId(), failure.getMessage());
        } else {
            LOG.warn("node {}: {}", nodeId(), failure.getMessage());
        }
        for (NodeWorker worker : workers) {
            Thread thread = worker.ownerThread();
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
        barrier.onPeerFailure();
    }

    /** Sends a message to {@code peer}, counting it; throws if the peer has failed. */
    void send(int peer, DirectBuffer buffer, int offset, int length) {
        PeerFailedException failure = peerFailures.get(peer);
        if (failure != null) {
            throw failure;
        }
        transport.send(peer, buffer, offset, length);
        messagesSent.increment();
        bytesSent.add(length);
    }

    /** Sends a header-only message (barrier, leave). */
    void sendControl(int peer, MessageType type, long id) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[Message.HEADER_LENGTH]);
        Message.writeHeader(buffer, 0, type, 0, 0, id);
        send(peer, buffer, 0, Message.HEADER_LENGTH);
    }

    /** The failure of {@code peer}, or {@code null} while it is alive. */
    PeerFailedException peerFailure(int peer) {
        return peerFailures.get(peer);
    }

    /**
     * The failure of a peer that keeps {@code barrier} from completing, or {@code null}: a peer that
     * failed, or left before passing it. A peer that left after passing it is no obstacle: the
     * coordinator's release is on its way (it may travel slower than the goodbye).
     */
    PeerFailedException barrierObstacle(long barrier) {
        for (int peer = 0; peer < clusterSize(); peer++) {
            PeerFailedException failure = peerFailures.get(peer);
            if (failure != null && !(failure.left() && barriersPassedWhenLeft.get(peer) >= barrier)) {
                return failure;
            }
        }
        return null;
    }

    /** Changes whenever a peer fails; lets waiters notice failures cheaply. */
    int peerFailureCount() {
        return peerFailureCount.get();
    }

    void recordRoundTrip(int peer, long nanos) {
        roundTrips[peer].recordValue(Math.max(0, nanos));
    }

    /** Whether this node holds {@code row} of {@code table} now (for tests and metrics). */
    boolean holdsRow(Table table, long row) {
        return stores[table.id()].holds(row);
    }

    /**
     * The owner of {@code row} of {@code table} by this node's directory, or -1 if this node is
     * not the row's home (for tests).
     */
    int directoryOwner(Table table, long row) {
        return home(table, row) == nodeId() ? nodeId() : -1;
    }

    /** The home node of {@code row} of {@code table}. */
    int home(Table table, long row) {
        return config.partitioning().home(table, row, clusterSize());
    }

    String describePeer(int peer) {
        return transportConfig == null ? "node " + peer : transportConfig.describe(peer);
    }

    void logRefusedRequest(int peer, String problem) {
        LOG.error("node {}: refused a request from {}: {}", nodeId(), describePeer(peer), problem);
    }
}
