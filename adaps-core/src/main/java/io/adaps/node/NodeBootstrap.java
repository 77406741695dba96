package io.adaps.node;

import java.util.List;
import java.util.ServiceLoader;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.api.AdaPS;
import io.adaps.api.NodeFactory;
import io.adaps.api.NodeSettings;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportConfig;
import io.adaps.api.transport.TransportProvider;
import io.adaps.checkpoint.CheckpointRestorer;
import io.adaps.checkpoint.Placement;
import io.adaps.context.NodeConfig;
import io.adaps.consistency.ClusterClocks;
import io.adaps.context.NodeContext;
import io.adaps.context.Peers;
import io.adaps.directory.LocationCache;
import io.adaps.intent.HomeIntents;
import io.adaps.placement.AdaptiveManager;
import io.adaps.placement.HomePlacement;
import io.adaps.protocol.Message;
import io.adaps.protocol.MessageType;
import io.adaps.relocation.Relocator;
import io.adaps.relocation.RequestServer;
import io.adaps.relocation.RowServer;
import io.adaps.rpc.CallRegistry;
import io.adaps.rpc.InFlightPushes;
import io.adaps.sampling.SamplePool;
import io.adaps.sampling.Sampler;
import io.adaps.store.SlotKind;
import io.adaps.store.TableStore;
import io.adaps.worker.WorkerServices;
import io.adaps.worker.Workers;

/**
 * Starts a node: checks the settings against what the runtime can do, allocates the rows the
 * node is home of, creates its parts, fills the dispatch table, connects to the peers and starts
 * the manager. The only class that knows every part; the parts know only what they use.
 *
 * <pre>
 *   NodeContext (config, tables, stores, key space, locations, Peers, clock)
 *     +-- RowServer &lt;- RequestServer, Relocator      serving and moving rows
 *     +-- CallRegistry -&gt; Requesters                  answers to workers and the manager
 *     +-- HomePlacement, AdaptiveManager             placement by intent
 *     +-- Workers -&gt; NodeWorker                       the application's handles
 *     +-- ClusterBarrier, Dispatcher                  coordination, the dispatch table
 * </pre>
 */
public final class NodeBootstrap implements NodeFactory {
    private static final Logger LOG = LoggerFactory.getLogger(NodeBootstrap.class);

    @Override
    public AdaPS start(NodeSettings settings) {
        return start(settings, SystemNanoClock.INSTANCE);
    }

    /**
     * Starts a node whose timing decisions (timeouts, lingering, decision delay, round pacing) read
     * {@code clock}: tests drive them with a controlled clock.
     */
    public static LocalNode start(NodeSettings settings, NanoClock clock) {
        NodeConfig config = check(settings);
        CheckpointRestorer restore = settings.restoreFrom() == null ? null
                : CheckpointRestorer.open(settings.restoreFrom(), Schema.describeTables(config.tables()), config.tables());
        Placement placement = restore == null || !settings.restorePlacement() || !config.isCluster()
                || !config.technique().relocates() ? null
                : restore.placement(config.clusterSize(), config.partitioning().toString(), config.tables().size());
        TableStore[] stores = allocate(config, restore, placement);
        RestoredCheckpoint restored = restore == null ? null : restore.restored(placement != null);
        Transport transport = null;
        TransportConfig transportConfig = null;
        if (config.isCluster()) {
            transport = transport(settings);
            transportConfig = transportConfig(settings, config);
        }
        Peers peers = new Peers(config.nodeId(), config.clusterSize(), transport, transportConfig);
        LocationCache locations = config.isCluster()
                ? new LocationCache(config.tables().stream().mapToLong(Table::rows).toArray()) : null;
        NodeContext context = new NodeContext(config, stores, locations, peers, clock);
        ClusterClocks clocks = new ClusterClocks(context);
        Dispatcher dispatcher = new Dispatcher(context);
        CheckpointSchedule schedule = new CheckpointSchedule(settings.checkpointDir(), settings.checkpointEvery(), clock);
        ClusterBarrier barrier = new ClusterBarrier(context, schedule::takeIfDue);
        SamplePool[] pools = pools(config);
        Relocator relocator = null;
        CallRegistry calls = null;
        AdaptiveManager manager = null;
        InFlightPushes inFlight = null;
        if (config.isCluster()) {
            Technique technique = config.technique();
            RowServer rows = new RowServer(context);
            relocator = new Relocator(context, rows);
            if (placement != null) {
                place(context, relocator, placement);
            }
            RequestServer requests = new RequestServer(context, rows, relocator);
            calls = new CallRegistry(peers);
            boolean managed = technique.signalsIntent() || technique.replicates();
            HomePlacement home = new HomePlacement(context, relocator, managed);
            if (managed) {
                inFlight = technique.signalsIntent() && technique.replicates() ? new InFlightPushes() : null;
                manager = new AdaptiveManager(context, clocks, relocator, home, calls, inFlight, pools);
            }
            route(dispatcher, requests, relocator, calls, home, manager, barrier, config.nodeId());
            dispatcher.on(MessageType.CLOCK, (peer, message) -> clocks.onPeer(peer, message.requestId()));
            peers.onFailure(failure -> {
                if (failure.left()) {
                    clocks.onPeerLeft(failure.peer());
                }
            });
        }
        if (manager == null) {
            clocks.withoutReplicas();
        }
        Sampler[] samplers = samplers(config, stores, pools, manager);
        Workers workers = new Workers(new WorkerServices(context, clocks, relocator, calls, manager, inFlight, samplers,
                restored));
        peers.onFailure(failure -> workers.unparkAll());
        peers.onFailure(failure -> barrier.onPeerFailure());
        NodeCheckpoints checkpoints = new NodeCheckpoints(context, workers, barrier, manager, relocator,
                settings.checkpointsKept(), settings.fullCheckpointEvery());
        if (restored != null) {
            checkpoints.restored(settings.restoreFrom(), restored.generation()); // before any update can arrive
        }
        LocalNode node = new LocalNode(context, workers, barrier, manager, relocator, pools, checkpoints, schedule,
                restored);
        peers.connect(dispatcher, dispatcher);
        if (manager != null) {
            manager.start();
        }
        LOG.info("node {} of {} started: {} table(s), {} keys, {} MiB of parameters held here", config.nodeId(),
                config.clusterSize(), config.tables().size(), context.keys().endKey(), heldBytes(config, stores) >> 20);
        return node;
    }

    /** Fills the dispatch table of a node of a cluster. */
    private static void route(Dispatcher dispatcher, RequestServer requests, Relocator relocator, CallRegistry calls,
                              HomePlacement home, AdaptiveManager manager, ClusterBarrier barrier, int nodeId) {
        for (MessageType type : new MessageType[] {MessageType.PULL, MessageType.PUSH, MessageType.SET, MessageType.SYNC,
                MessageType.REFRESH}) {
            dispatcher.onChecked(type, requests::onRequest);
        }
        dispatcher.onChecked(MessageType.LOCALIZE, relocator::onLocalize)
                .onChecked(MessageType.RELINQUISH, relocator::onRelinquish)
                .onChecked(MessageType.HANDOVER, (peer, handover) -> {
                    relocator.onHandover(peer, handover);
                    calls.onAnswer(peer, handover); // the worker that asked for the rows hears of them
                })
                .onChecked(MessageType.INTENT, home::onIntent);
        if (manager != null) {
            dispatcher.onChecked(MessageType.PLACEMENT, manager::onPlacement);
        }
        for (MessageType type : new MessageType[] {MessageType.PULL_REPLY, MessageType.ACK, MessageType.ERROR,
                MessageType.REFRESHED, MessageType.UNCHANGED}) {
            dispatcher.on(type, calls::onAnswer);
        }
        if (nodeId == 0) {
            dispatcher.on(MessageType.BARRIER_ENTER, barrier::onEnter);
        }
        dispatcher.on(MessageType.BARRIER_RELEASE, barrier::onRelease)
                .on(MessageType.LEAVE, barrier::onLeave);
    }

    /**
     * The node's configuration, after checking what the builder could not.
     *
     * @throws IllegalStateException naming the setting that does not work
     */
    private static NodeConfig check(NodeSettings settings) {
        for (Table table : settings.tables()) {
            TableSpec spec = table.spec();
            // The largest message about one row: its hand-over to another node, value and rule state.
            int stride = spec.valueLength() + spec.updateRule().stateLength(spec.valueLength());
            long rowBytes = Message.HEADER_LENGTH + (long) MessageType.HANDOVER.entryLength(spec.valueLength(), stride);
            if (rowBytes > settings.maxMessageBytes()) {
                throw new IllegalStateException("maxMessageBytes=" + settings.maxMessageBytes() + " (expected at least "
                        + rowBytes + ", the bytes that move one row of table '" + spec.name() + "')");
            }
        }
        int nodes = settings.clusterSize();
        if (settings.technique().signalsIntent() && nodes > HomeIntents.MAX_NODES) {
            throw new IllegalStateException("technique=" + settings.technique() + " with " + nodes + " nodes (expected at most "
                    + HomeIntents.MAX_NODES + " nodes, or technique STATIC or FULL_REPLICATION)");
        }
        return new NodeConfig(settings.nodeId(), nodes, settings.tables(), settings.partitioning(), settings.technique(),
                settings.sampling(), settings.samplePoolSize(), settings.samplePoolReuse(), settings.operationTimeout(),
                settings.barrierTimeout(), settings.maxMessageBytes());
    }

    private static Transport transport(NodeSettings settings) {
        if (settings.transport() != null) {
            return settings.transport();
        }
        return ServiceLoader.load(TransportProvider.class, NodeBootstrap.class.getClassLoader()).findFirst()
                .map(TransportProvider::create)
                .orElseThrow(() -> new IllegalStateException("peers=" + settings.peers() + " (expected a transport for a "
                        + "cluster: add io.adaps:adaps-transport to the class path, or set transport(...))"));
    }

    private static TransportConfig transportConfig(NodeSettings settings, NodeConfig config) {
        try {
            return new TransportConfig(config.nodeId(), settings.peers(), settings.clusterId(),
                    Schema.describe(config.tables(), config.partitioning(), settings.fullCheckpointEvery()),
                    settings.connectTimeout(),
                    settings.heartbeatInterval(), settings.failureTimeout(), settings.operationTimeout(),
                    config.maxMessageBytes(), 4L * config.maxMessageBytes(), settings.bindHost(), settings.tls(),
                    settings.clusterSecret());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * A restore's placement, once the stores hold the rows placed here: the directory of each row
     * homed here records the node the row is placed on, and every node's location cache knows
     * where the moved rows are, so that the first requests go there directly.
     */
    private static void place(NodeContext context, Relocator relocator, Placement placement) {
        for (Table table : context.tables()) {
            placement.forEachMoved(table.id(), (row, owner) -> {
                if (context.config().home(table, row) == context.nodeId()) {
                    relocator.restoreOwner(table, row, owner);
                }
                if (owner != context.nodeId()) {
                    context.locations().put(table.id(), row, owner);
                }
            });
        }
        LOG.info("node {}: restored the checkpoint's placement, {} row(s) away from their home", context.nodeId(),
                placement.movedRows());
    }

    /**
     * The stores of the tables, holding the rows this node is home of (every row on a cluster of
     * one), or those placed here by a restore's {@code placement}, initialized or, with
     * {@code restore}, as the checkpoint saved them, and, under
     * {@link Technique#FULL_REPLICATION}, replicas of every other row whose rule accumulates.
     */
    private static TableStore[] allocate(NodeConfig config, CheckpointRestorer restore, Placement placement) {
        List<Table> tables = config.tables();
        TableStore[] stores = new TableStore[tables.size()];
        for (Table table : tables) {
            TableStore store = new TableStore(table.spec(), config.nodeId(), config.clusterSize());
            if (restore != null) {
                restore.load(table, store, row -> !config.isCluster() || (placement == null ? config.home(table, row)
                        : placement.owner(table.id(), row, config.home(table, row))) == config.nodeId());
            } else {
                for (long row = 0; row < table.rows(); row++) {
                    if (!config.isCluster() || config.home(table, row) == config.nodeId()) {
                        store.allocate(row, SlotKind.OWNED);
                    }
                }
            }
            if (config.technique() == Technique.FULL_REPLICATION && config.isCluster()
                    && table.spec().updateRule().accumulates()) {
                for (long row = 0; row < table.rows(); row++) {
                    if (!store.holds(row)) {
                        store.installReplica(row, null, 0);
                    }
                }
            }
            stores[table.id()] = store;
        }
        return stores;
    }

    private static long heldBytes(NodeConfig config, TableStore[] stores) {
        long floats = 0;
        for (Table table : config.tables()) {
            floats += (long) stores[table.id()].heldRows() * stores[table.id()].stride();
        }
        return floats * Float.BYTES;
    }

    /** Per table: the pool of {@link SamplingScheme#POOL}, or {@code null} (not sampled, or another scheme). */
    private static SamplePool[] pools(NodeConfig config) {
        SamplePool[] pools = new SamplePool[config.tables().size()];
        for (Table table : config.tables()) {
            if (config.sampling() == SamplingScheme.POOL && table.spec().sampling() != null) {
                pools[table.id()] = new SamplePool(table.spec().sampling(), table.rows(), config.samplePoolSize(),
                        config.samplePoolReuse(), 0x5DEECE66DL * (config.nodeId() + 1) + table.id());
            }
        }
        return pools;
    }

    /** Per table: how its samples are drawn, or {@code null} if it is not sampled. */
    private static Sampler[] samplers(NodeConfig config, TableStore[] stores, SamplePool[] pools, AdaptiveManager manager) {
        Sampler[] samplers = new Sampler[config.tables().size()];
        for (Table table : config.tables()) {
            if (table.spec().sampling() != null) {
                samplers[table.id()] = Sampler.of(config.sampling(), table, stores[table.id()], config.clusterSize(),
                        pools[table.id()], manager == null ? null : manager::wake);
            }
        }
        return samplers;
    }
}
