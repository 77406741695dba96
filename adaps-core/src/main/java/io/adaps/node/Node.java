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
import io.adaps.api.ClusterException;
import io.adaps.api.NodeMetrics;
import io.adaps.api.PeerFailedException;
import io.adaps.api.PeerMetrics;
import io.adaps.api.ReplicationMetrics;
import io.adaps.api.SamplingMetrics;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.api.Technique;
import io.adaps.api.Worker;
import io.adaps.api.WorkerMetrics;
import io.adaps.directory.LocationCache;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.sampling.SamplePool;
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
 * <p>Every row starts at its home node (see {@link io.adaps.api.Partitioning}), as in the classic
 * parameter server (Li et al., "Scaling Distributed Machine Learning with the Parameter Server",
 * OSDI 2014), and update rules run wherever the row is held. Rows move between nodes through the
 * {@link Relocator}.
 */
public final class Node implements AdaPS, MessageHandler {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    /** Worker ids fit 16 bits of a request id, and the highest is the manager's. */
    private static final int MAX_WORKERS = AdaptiveManager.WORKER_ID;

    private final NodeConfig config;
    private final List<Table> tables;
    private final KeySpace keys;
    private final TableStore[] stores;
    private final List<NodeWorker> workers = new CopyOnWriteArrayList<>();
    private final Transport transport;
    private final TransportConfig transportConfig;
    private final RequestServer server;
    private final Relocator relocator;
    private final LocationCache locations;
    private final ClusterBarrier barrier;
    /** Turns intents into placements and synchronizes replicas; {@code null} if the technique needs neither. */
    private final AdaptiveManager manager;
    /** Per table: the pool of {@link SamplingScheme#POOL}, or {@code null} (not sampled, or another scheme). */
    private final SamplePool[] samplePools;
    /** Per table: how its samples are drawn, or {@code null} if it is not sampled. */
    private final Sampler[] samplers;
    /** Pushes on their way to other nodes; {@code null} unless replicas are created on intent. */
    private final InFlightPushes inFlightPushes;
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
            TableStore store = new TableStore(table.spec(), config.nodeId(), config.clusterSize());
            for (long row = 0; row < table.rows(); row++) {
                if (config.clusterSize() == 1 || config.partitioning().home(table, row, config.clusterSize()) == config.nodeId()) {
                    store.allocate(row, SlotKind.OWNED);
                }
            }
            if (config.technique() == Technique.FULL_REPLICATION && config.clusterSize() > 1
                    && table.spec().updateRule().accumulates()) {
                for (long row = 0; row < table.rows(); row++) {
                    if (!store.holds(row)) {
                        store.installReplica(row, null, 0);
                    }
                }
            }
            stores[table.id()] = store;
            floats += (long) store.heldRows() * (table.valueLength() + table.spec().updateRule().stateLength(table.valueLength()));
        }
        if (config.clusterSize() > 1) {
            long[] rows = tables.stream().mapToLong(Table::rows).toArray();
            this.locations = new LocationCache(rows);
            this.relocator = new Relocator(this, stores, locations);
        } else {
            this.locations = null;
            this.relocator = null;
        }
        this.server = new RequestServer(this, stores, relocator);
        this.samplePools = new SamplePool[tables.size()];
        for (Table table : tables) {
            if (config.sampling() == SamplingScheme.POOL && table.spec().sampling() != null) {
                samplePools[table.id()] = new SamplePool(table.spec().sampling(), table.rows(), config.samplePoolSize(),
                        config.samplePoolReuse(), 0x5DEECE66DL * (config.nodeId() + 1) + table.id());
            }
        }
        Technique technique = config.technique();
        this.manager = config.clusterSize() > 1 && (technique.signalsIntent() || technique.replicates())
                ? new AdaptiveManager(this, stores) : null;
        this.samplers = new Sampler[tables.size()];
        for (Table table : tables) {
            if (table.spec().sampling() != null) {
                samplers[table.id()] = Sampler.of(config.sampling(), table, stores[table.id()], config.clusterSize(),
                        samplePools[table.id()], manager);
            }
        }
        this.inFlightPushes = manager != null && technique.signalsIntent() && technique.replicates()
                ? new InFlightPushes() : null;
        this.barrier = new ClusterBarrier(this);
        if (transport != null) {
            transport.start(transportConfig, this);
        }
        if (manager != null) {
            manager.start();
        }
        LOG.info("node {} of {} started: {} table(s), {} keys, {} MiB of parameters held here", config.nodeId(),
                config.clusterSize(), tables.size(), keys.endKey(), floats * Float.BYTES >> 20);
    }

    NodeConfig config() {
        return config;
    }

    /** The sampler of table {@code table}; {@code null} if it is not sampled. */
    Sampler sampler(int table) {
        return samplers[table];
    }

    /** Per table: its {@link SamplingScheme#POOL} pool, or {@code null}. The manager refills them. */
    SamplePool[] samplePools() {
        return samplePools;
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
        NodeWorker worker = new NodeWorker(this, keys, stores, workers.size(), manager);
        workers.add(worker);
        return worker;
    }

    @Override
    public void barrier() {
        checkOpen();
        if (clusterSize() > 1) {
            barrier.await();
            long passed = barrier.passed();
            if (manager != null && manager.sync().replicasHeld() > 0) {
                // Every node's updates reached the owners before it entered the barrier (waitSync),
                // so one more round makes this node's replicas converge to the owners' values.
                try {
                    manager.awaitRound();
                } catch (ClusterException e) {
                    if (barrierObstacle(passed) != null) {
                        throw e;
                    }
                    // An owner that passed the barrier and left: its rows are gone with it.
                    LOG.debug("node {}: refresh after barrier {}: {}", nodeId(), passed, e.getMessage());
                }
            }
        }
    }

    @Override
    public NodeMetrics metrics() {
        long[] sums = new long[9];
        List<WorkerMetrics> perWorker = new ArrayList<>(workers.size());
        for (NodeWorker worker : workers) {
            worker.addCounters(sums);
            perWorker.add(worker.metrics());
        }
        List<PeerMetrics> peers = new ArrayList<>();
        for (int peer = 0; peer < clusterSize(); peer++) {
            if (peer != nodeId()) {
                peers.add(roundTripMetrics(peer));
            }
        }
        return new NodeMetrics(nodeId(), workers.size(), sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6],
                messagesSent.sum(), bytesSent.sum(), messagesReceived.sum(), bytesReceived.sum(),
                relocator == null ? 0 : relocator.relocationsIn.sum(), relocator == null ? 0 : relocator.relocationsOut.sum(),
                relocator == null ? 0 : relocator.forwarded.sum(), sums[7], sums[8], replicationMetrics(), samplingMetrics(),
                peers, perWorker);
    }

    private SamplingMetrics samplingMetrics() {
        long[] sums = new long[6];
        for (NodeWorker worker : workers) {
            worker.addSamplingCounters(sums);
        }
        long refills = 0;
        for (SamplePool pool : samplePools) {
            if (pool != null) {
                refills += pool.refills();
            }
        }
        return new SamplingMetrics(config.sampling(), sums[0], sums[1], sums[2], sums[3], sums[4], refills, sums[5]);
    }

    private ReplicationMetrics replicationMetrics() {
        if (manager == null) {
            return ReplicationMetrics.NONE;
        }
        ReplicaSync sync = manager.sync();
        return new ReplicationMetrics(sync.replicasHeld(), manager.replicasCreated.sum(), sync.replicasDropped.sum(),
                sync.rounds.sum(), sync.deltaBytes.sum(), manager.relocations.sum(), manager.windowClocks());
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
        if (manager != null) {
            manager.close(config.operationTimeout().toMillis());
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
        LOG.info("node {} closed", nodeId());
        if (LOG.isDebugEnabled()) {
            LOG.debug("node {} at close: {}", nodeId(), metrics().describe());
        }
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
        handle(peer, messages.get().wrap(buffer, offset, length));
    }

    private void handle(int peer, Message message) {
        if (closed) {
            return; // leaving: peers were told, and treat what they still need from here as failed
        }
        int length = message.length();
        MessageType type = length >= Message.HEADER_LENGTH ? message.type() : null;
        if (type == null) {
            LOG.error("node {}: dropped a malformed message of {} bytes from {}", nodeId(), length, describePeer(peer));
            return;
        }
        switch (type) {
            case PULL, PUSH, SET, SYNC, REFRESH, LOCALIZE, RELINQUISH, HANDOVER, INTENT -> server.serve(peer, message);
            case PLACEMENT -> {
                if (manager != null) {
                    manager.onPlacement(message);
                } else {
                    LOG.error("node {}: dropped a PLACEMENT from {} (technique {} places nothing)", nodeId(),
                            describePeer(peer), config.technique());
                }
            }
            case PULL_REPLY, ACK, ERROR, REFRESHED, UNCHANGED -> routeAnswer(peer, message);
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

    /** Hands an answer (or the HANDOVER of a localize) to the worker whose request id it carries. */
    void routeAnswer(int peer, Message message) {
        int workerId = (int) (message.requestId() >>> 48);
        RemoteOperations remote = workerId < workers.size() ? workers.get(workerId).remote()
                : workerId == AdaptiveManager.WORKER_ID && manager != null ? manager.remote() : null;
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

    /**
     * Sends a message to {@code peer}, counting it; throws if the peer has failed. A message to
     * this node itself (a request for a row whose home is here, an answer to a request of this
     * node that came back) is handled at once, on the calling thread, from a copy.
     */
    void send(int peer, DirectBuffer buffer, int offset, int length) {
        if (peer == nodeId()) {
            byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            handle(peer, new Message().wrap(new UnsafeBuffer(copy), 0, length));
            return;
        }
        PeerFailedException failure = peerFailures.get(peer);
        if (failure != null) {
            throw failure;
        }
        transport.send(peer, buffer, offset, length);
        messagesSent.increment();
        bytesSent.add(length);
    }

    /**
     * Sends an answer or forwarded message whose recipient may have failed meanwhile, or while this
     * node closes: then it is dropped (failures are handled elsewhere), with a debug log.
     */
    void sendQuietly(int peer, DirectBuffer buffer, int offset, int length) {
        try {
            send(peer, buffer, offset, length);
        } catch (PeerFailedException e) {
            LOG.debug("node {}: dropped a message to {}: {}", nodeId(), describePeer(peer), e.getMessage());
        } catch (IllegalStateException e) {
            if (!closed) {
                throw e;
            }
            LOG.debug("node {}: closed; dropped a message to {}", nodeId(), describePeer(peer));
        }
    }

    /** Sends a header-only message (barrier, leave). */
    void sendControl(int peer, MessageType type, long id) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[Message.HEADER_LENGTH]);
        Message.writeHeader(buffer, 0, type, 0, 0, 0, id, nodeId(), 0);
        send(peer, buffer, 0, Message.HEADER_LENGTH);
    }

    /**
     * Refuses request {@code requestId} of node {@code peer} with an ERROR saying {@code text};
     * {@code failedPeer} is the node whose failure is the reason, or -1.
     */
    void sendError(int peer, long requestId, int failedPeer, String text) {
        int length = Math.min(text.length(), 1000);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[Message.HEADER_LENGTH + length]);
        buffer.putStringWithoutLengthAscii(Message.HEADER_LENGTH, text, 0, length);
        Message.writeHeader(buffer, 0, MessageType.ERROR, failedPeer >= 0 ? Message.FLAG_PEER_FAILED : 0, 0, length,
                requestId, peer, failedPeer + 1);
        sendQuietly(peer, buffer, 0, buffer.capacity());
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

    /** How this node holds {@code row} of {@code table} now, or {@code null} (for tests). */
    SlotKind kindOf(Table table, long row) {
        return stores[table.id()].kind(row);
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
        if (home(table, row) != nodeId()) {
            return -1;
        }
        return relocator == null ? nodeId() : relocator.directoryOwner(table.id(), row);
    }

    /** The most slots the store of {@code table} has used at once (for tests of slot reuse). */
    int slotHighWaterMark(Table table) {
        return stores[table.id()].slotHighWaterMark();
    }

    /** Pushes on their way to other nodes, if this node creates replicas on intent, else {@code null}. */
    InFlightPushes inFlightPushes() {
        return inFlightPushes;
    }

    /** Moves rows here and finds rows elsewhere; {@code null} on a cluster of one. */
    Relocator relocator() {
        return relocator;
    }

    /** Where rows were last seen; {@code null} on a cluster of one. */
    LocationCache locations() {
        return locations;
    }

    /** Floats per slot of {@code table}: value and update-rule state. */
    int stride(Table table) {
        return stores[table.id()].stride();
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
