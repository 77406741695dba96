package io.adaps.api;

import static io.adaps.util.Checks.checkNonNegative;
import static io.adaps.util.Checks.checkNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TlsSettings;
import io.adaps.api.transport.Transport;
import io.adaps.api.transport.TransportProvider;

/**
 * A running AdaPS node: this process's share of the model's parameters and the handles its
 * training threads use to read and update them.
 *
 * <pre>{@code
 * try (AdaPS node = AdaPS.builder()
 *         .table(TableSpec.of("users", 100_000, 32).withInitializer(Initializers.normal(0f, 0.1f, 1)))
 *         .table(TableSpec.of("items", 20_000, 32).withInitializer(Initializers.normal(0f, 0.1f, 2)))
 *         .build()) {
 *     Worker worker = node.worker();            // one per training thread
 *     TableView users = worker.table("users");
 *     float[] row = new float[32];
 *     users.pull(7, row, 0);
 *     users.push(7, row, 0);
 * }
 * }</pre>
 *
 * <p>A node without peers is a cluster of one and holds every parameter. In a cluster, each row
 * has a home node (see {@link Partitioning}) that holds it; workers reach rows held elsewhere over
 * the network, and update rules run at the holder. Methods on a node are thread-safe; operations
 * after {@link #close()} throw {@link IllegalStateException}.
 */
public interface AdaPS extends AutoCloseable {

    /** A builder for a node. */
    static Builder builder() {
        return new Builder();
    }

    /** This node's id in its cluster, from 0. */
    int nodeId();

    /** Nodes in the cluster. */
    int clusterSize();

    /** The declared tables, in declaration (and key) order. */
    List<Table> tables();

    /**
     * The table called {@code name}.
     *
     * @throws IllegalArgumentException if no such table is declared
     */
    Table table(String name);

    /** Keys in the key space: the rows of all tables. */
    long keys();

    /**
     * A new worker handle for one training thread. It takes part in the tables'
     * {@link Consistency} bounds from its clock 0 (see {@link Worker#advanceClock()}).
     *
     * @throws IllegalStateException if the node is closed
     */
    Worker worker();

    /**
     * A new worker handle for a thread that does not train: bookkeeping, evaluation, combining
     * figures. It never advances its clock ({@link Worker#advanceClock()} throws
     * {@link IllegalStateException}) and takes no part in {@link Consistency} bounds: it holds no
     * other worker back, and its reads and updates are bounded by nothing, as under
     * {@link Consistency#asp()}. Under a bounded model, a worker from {@link #worker()} that
     * stopped ticking would hold every other at most {@code s} clocks ahead of it.
     *
     * @throws IllegalStateException if the node is closed
     */
    Worker unclockedWorker();

    /**
     * Waits until every node of the cluster has called {@code barrier()} (as often as this node).
     * One thread per node calls it. It does not wait for workers' asynchronous operations: call
     * {@link Worker#waitAll()} on each first. On a cluster of one it returns at once.
     *
     * @throws PeerFailedException if a node failed or left
     * @throws ClusterException    if the other nodes did not arrive within the barrier timeout
     */
    void barrier();

    /**
     * Writes a checkpoint of the whole cluster into {@code dir} and returns once it is complete
     * and durable on every node. Collective, like {@link #barrier()}: every node calls it with the
     * same directory, which all of them can reach (a local directory for nodes on one machine, a
     * shared volume otherwise), at the same point of its training, from the thread that calls
     * {@code barrier()}, after its workers' {@link Worker#waitAll()} and before they go on.
     *
     * <p>The cut: the checkpoint holds exactly the updates made before every node entered the
     * call. Inside it, each node stops starting relocations and replicas, waits until the rows on
     * their way to it have arrived, and flushes its replicas' updates to their owners; once all
     * nodes have done so (a barrier), every row is owned by exactly one node and holds every
     * update, and each node copies the rows it owns, with their update-rule state, and its
     * workers' clocks and {@linkplain Worker#checkpointState saved states}, and writes them.
     * Node 0 then publishes the checkpoint by renaming its manifest into place (within the
     * barrier timeout), and removes checkpoints beyond
     * {@link Builder#checkpointsKept}. A failure on any node (a full disk, a dead peer) leaves
     * the directory's previous checkpoints as they were.
     *
     * @throws IllegalArgumentException if {@code dir} cannot be created or is not writable
     * @throws CheckpointException      if this or another node could not write its files, or
     *                                  node 0 could not publish them
     * @throws PeerFailedException      if a node failed or left
     * @throws IllegalStateException    if the node is closed
     */
    CheckpointResult checkpoint(Path dir);

    /**
     * {@link #checkpoint} without waiting for the files: returns once the cut is taken and this
     * node's rows are copied (as much memory again as the rows it owns), and writes and publishes
     * them in the background while training goes on; the ticket tells when that is done. The
     * same contract as {@code checkpoint}: collective, at the same point on every node, workers
     * between operations. A later checkpoint on this node first waits for this one.
     *
     * @throws IllegalArgumentException if {@code dir} cannot be created or is not writable
     * @throws PeerFailedException      if a node failed or left while the cut was taken
     * @throws IllegalStateException    if the node is closed
     */
    CheckpointTicket checkpointAsync(Path dir);

    /**
     * The checkpoint this node was started from ({@link Builder#restoreFrom}), with what every
     * worker saved in it; empty for a node that started fresh.
     */
    Optional<RestoredCheckpoint> restoredFrom();

    /** The last checkpoint this node took part in (explicit or periodic), if any. */
    Optional<CheckpointResult> lastCheckpoint();

    /** A snapshot of this node's counters. */
    NodeMetrics metrics();

    /** Whether {@link #close()} has been called. */
    boolean isClosed();

    /**
     * Stops the node: first waits for a checkpoint this node is still writing or publishing
     * ({@link #checkpointAsync}, periodic ones) to be complete or failed, at most twice the barrier
     * timeout, so that the last checkpoint taken is not lost; then tells its peers it is leaving,
     * closes its connections and threads; every later operation on it or its workers throws
     * {@link IllegalStateException}. Idempotent.
     */
    @Override
    void close();

    /**
     * Configures and starts a node. Each setter validates its argument at once and leaves the
     * builder unchanged when it throws.
     *
     * <p>Without {@link #peers} the node is a cluster of one. With peers, every node of the cluster
     * is started with the same peer list, tables, cluster id and partitioning, each with its own
     * {@link #nodeId}; {@link #build()} returns once all nodes are connected. Launchers can pass
     * the same through environment variables, read by {@link #fromEnvironment()}:
     * <table>
     *   <caption>Environment variables</caption>
     *   <tr><td>{@code ADAPS_NODE_ID}</td><td>this node's id, 0 .. nodes - 1</td></tr>
     *   <tr><td>{@code ADAPS_PEERS}</td><td>{@code host:port,host:port,...}, every node's address in id order</td></tr>
     *   <tr><td>{@code ADAPS_CLUSTER_ID}</td><td>optional; nodes of different clusters refuse each other</td></tr>
     *   <tr><td>{@code ADAPS_TECHNIQUE}</td><td>optional; a {@link Technique} name</td></tr>
     *   <tr><td>{@code ADAPS_SAMPLING}</td><td>optional; a {@link SamplingScheme} name</td></tr>
     *   <tr><td>{@code ADAPS_CONSISTENCY}</td><td>optional; the default {@link Consistency}: {@code asp}, {@code bsp},
     *       {@code ssp:S} or {@code essp:S}</td></tr>
     *   <tr><td>{@code ADAPS_RENDEZVOUS}</td><td>optional; {@code static} (default: the two above) or
     *       {@code kubernetes}, see {@link KubernetesRendezvous}</td></tr>
     *   <tr><td>{@code ADAPS_BIND_HOST}</td><td>optional; where to listen (e.g. {@code 0.0.0.0}), see {@link #bindHost}</td></tr>
     *   <tr><td>{@code ADAPS_TLS_CERT}, {@code ADAPS_TLS_KEY}, {@code ADAPS_TLS_CA}</td><td>optional; TLS from PEM
     *       files, see {@link TlsSettings#pem}</td></tr>
     *   <tr><td>{@code ADAPS_TLS_KEYSTORE}, {@code ADAPS_TLS_KEYSTORE_PASSWORD}, {@code ADAPS_TLS_TRUSTSTORE},
     *       {@code ADAPS_TLS_TRUSTSTORE_PASSWORD}</td><td>optional; TLS from key stores, see {@link TlsSettings#keyStore}</td></tr>
     *   <tr><td>{@code ADAPS_CLUSTER_SECRET} or {@code ADAPS_CLUSTER_SECRET_FILE}</td><td>optional; the cluster secret
     *       (text, or a file's bytes without trailing line breaks), see {@link #clusterSecret}</td></tr>
     * </table>
     */
    final class Builder {
        private final List<TableSpec> specs = new ArrayList<>();
        private int nodeId;
        private List<PeerAddress> peers = List.of();
        private String clusterId = "adaps";
        private Partitioning partitioning = Partitioning.RANGE;
        private Technique technique = Technique.ADAPTIVE;
        private SamplingScheme sampling = SamplingScheme.NAIVE;
        private Consistency consistency = Consistency.asp();
        private int samplePoolSize = SamplingScheme.DEFAULT_POOL_SIZE;
        private int samplePoolReuse = SamplingScheme.DEFAULT_POOL_REUSE;
        private Transport transport;
        private Rendezvous rendezvous;
        private String bindHost;
        private TlsSettings tls;
        private ClusterSecret clusterSecret;
        private Duration connectTimeout = Duration.ofSeconds(30);
        private Duration heartbeatInterval = Duration.ofMillis(500);
        private Duration failureTimeout = Duration.ofSeconds(3);
        private Duration operationTimeout = Duration.ofSeconds(30);
        private Duration barrierTimeout = Duration.ofMinutes(10);
        private int maxMessageBytes = 4 << 20;
        private Path restoreFrom;
        private boolean restorePlacement = true;
        private int checkpointsKept = 2;
        private int fullCheckpointEvery = 1;
        private Path checkpointDir;
        private Duration checkpointEvery;

        Builder() {
        }

        /**
         * Declares a table; its keys follow those of the tables declared before.
         *
         * @throws IllegalArgumentException if a table of the same name is declared already
         */
        public Builder table(TableSpec spec) {
            checkNotNull(spec, "spec");
            for (TableSpec declared : specs) {
                if (declared.name().equals(spec.name())) {
                    throw new IllegalArgumentException("table='" + spec.name() + "' (expected a name not declared yet)");
                }
            }
            specs.add(spec);
            return this;
        }

        /** This node's id in the cluster: an index into {@link #peers}. Default 0. */
        public Builder nodeId(int nodeId) {
            checkNonNegative(nodeId, "nodeId");
            this.nodeId = nodeId;
            return this;
        }

        /**
         * Every node's listening address ({@code host:port}), in node id order, this node's
         * included. An empty list means a cluster of one.
         */
        public Builder peers(List<String> addresses) {
            checkNotNull(addresses, "peers");
            List<PeerAddress> parsed = new ArrayList<>(addresses.size());
            for (String address : addresses) {
                PeerAddress peer = PeerAddress.parse(address);
                if (parsed.contains(peer)) {
                    throw new IllegalArgumentException("peers=" + addresses + " (expected distinct addresses; "
                            + peer + " is listed twice)");
                }
                parsed.add(peer);
            }
            this.peers = List.copyOf(parsed);
            return this;
        }

        /** Nodes of different clusters refuse each other's handshake. Default {@code adaps}. */
        public Builder clusterId(String clusterId) {
            checkNotNull(clusterId, "clusterId");
            if (clusterId.isBlank()) {
                throw new IllegalArgumentException("clusterId='" + clusterId + "' (expected a non-blank id)");
            }
            this.clusterId = clusterId;
            return this;
        }

        /** How rows are assigned to home nodes. Default {@link Partitioning#RANGE}. */
        public Builder partitioning(Partitioning partitioning) {
            this.partitioning = checkNotNull(partitioning, "partitioning");
            return this;
        }

        /**
         * How this node manages parameter placement. Default {@link Technique#ADAPTIVE}. Techniques
         * that {@linkplain Technique#signalsIntent() signal intent} allow at most 64 nodes.
         */
        public Builder technique(Technique technique) {
            this.technique = checkNotNull(technique, "technique");
            return this;
        }

        /**
         * The consistency model of every table that does not choose one
         * ({@link TableSpec#withConsistency}). Default {@link Consistency#asp()}.
         */
        public Builder consistency(Consistency consistency) {
            this.consistency = checkNotNull(consistency, "consistency");
            return this;
        }

        /** How this node serves sampling access. Default {@link SamplingScheme#NAIVE}. */
        public Builder sampling(SamplingScheme scheme) {
            this.sampling = checkNotNull(scheme, "scheme");
            return this;
        }

        /**
         * The pool of {@link SamplingScheme#POOL}: {@code size} keys per generation of each sampled
         * table's pool, each handed out {@code reuse} times before a fresh generation replaces
         * it. Larger pools hold more keys local; a larger reuse bound refreshes the pool less
         * often and makes samples more dependent. Default {@value SamplingScheme#DEFAULT_POOL_SIZE}
         * and {@value SamplingScheme#DEFAULT_POOL_REUSE}.
         *
         * @throws IllegalArgumentException if {@code size} is not a power of two in
         *                                  {@value SamplingScheme#MIN_POOL_SIZE}..{@value SamplingScheme#MAX_POOL_SIZE}
         *                                  or {@code reuse} not in 1..{@value SamplingScheme#MAX_POOL_REUSE}
         */
        public Builder samplePool(int size, int reuse) {
            SamplingScheme.checkPoolSize(size);
            SamplingScheme.checkPoolReuse(reuse);
            this.samplePoolSize = size;
            this.samplePoolReuse = reuse;
            return this;
        }

        /**
         * The transport to other nodes. Default: the first {@link TransportProvider} found on the
         * class path (the Netty transport of {@code adaps-transport}).
         */
        public Builder transport(Transport transport) {
            this.transport = checkNotNull(transport, "transport");
            return this;
        }

        /**
         * Where this node learns its id and every node's address: {@link #settings()} and
         * {@link #build()} join it (waiting at most the connect timeout) and take the node id, the
         * peers and, unless {@link #bindHost} is set, the bind host from it, in place of
         * {@link #nodeId} and {@link #peers}. Default: none, those two.
         */
        public Builder rendezvous(Rendezvous rendezvous) {
            this.rendezvous = checkNotNull(rendezvous, "rendezvous");
            return this;
        }

        /**
         * Where this node listens, when that is not its address in {@link #peers}: e.g.
         * {@code 0.0.0.0} in a container that peers reach by a DNS name. Its port is the one in the
         * peer list. Default: the host of this node's entry in the peer list.
         */
        public Builder bindHost(String host) {
            checkNotNull(host, "bindHost");
            if (host.isBlank()) {
                throw new IllegalArgumentException("bindHost='" + host + "' (expected a host name or address)");
            }
            this.bindHost = host;
            return this;
        }

        /**
         * Encrypts and mutually authenticates every link between nodes with TLS. All nodes of a
         * cluster must use TLS, or none: a node with TLS refuses a peer without it, a peer whose
         * certificate does not chain to its trusted CAs, and an expired certificate, and both
         * sides' {@link #build()} throw saying why. Default: plaintext links.
         */
        public Builder tls(TlsSettings settings) {
            this.tls = checkNotNull(settings, "tls");
            return this;
        }

        /**
         * Authenticates every connection's handshake with a secret shared by the nodes of the
         * cluster (see {@link ClusterSecret}; combines with {@link #tls}). A node with a secret
         * refuses peers without one or with another, and both sides' {@link #build()} throw
         * saying why. Default: none.
         */
        public Builder clusterSecret(ClusterSecret secret) {
            this.clusterSecret = checkNotNull(secret, "clusterSecret");
            return this;
        }

        /** How long {@link #build()} waits for all peers to connect. Default 30 s. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = checkPositiveDuration(timeout, "connectTimeout");
            return this;
        }

        /** How often idle connections send a heartbeat. Default 500 ms. */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = checkPositiveDuration(interval, "heartbeatInterval");
            return this;
        }

        /**
         * A peer silent for this long has failed: operations that need it throw
         * {@link PeerFailedException}. Default 3 s; at least twice the heartbeat interval.
         */
        public Builder failureTimeout(Duration timeout) {
            this.failureTimeout = checkPositiveDuration(timeout, "failureTimeout");
            return this;
        }

        /**
         * The longest a worker waits for the answers of one operation from live peers before it
         * throws {@link ClusterException}. Default 30 s.
         */
        public Builder operationTimeout(Duration timeout) {
            this.operationTimeout = checkPositiveDuration(timeout, "operationTimeout");
            return this;
        }

        /** The longest {@link AdaPS#barrier()} waits for the other nodes. Default 10 min. */
        public Builder barrierTimeout(Duration timeout) {
            this.barrierTimeout = checkPositiveDuration(timeout, "barrierTimeout");
            return this;
        }

        /** The largest message between nodes; larger operations are split. Default 4 MiB. */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 64 * 1024 || bytes > 256 << 20) {
                throw new IllegalArgumentException("maxMessageBytes=" + bytes + " (expected 65536..268435456)");
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * Starts the node from the newest complete checkpoint in {@code dir} (see
         * {@link AdaPS#checkpoint}) instead of the tables' initial values: every node of the new
         * cluster, of any size, is given the same directory and loads the rows it is home of,
         * with their values and update-rule state as saved. The tables declared must be those
         * of the checkpoint (names, sizes, initializers, rules); partitioning and technique may
         * differ. What the workers saved comes back through {@link AdaPS#restoredFrom()} and
         * {@link Worker#restoredState()}. {@link #build()} checks the checkpoint completely
         * (manifest, sizes, checksums) and throws {@link CheckpointException} naming what is
         * wrong, starting nothing.
         *
         * @throws IllegalArgumentException if {@code dir} is not a directory
         */
        public Builder restoreFrom(Path dir) {
            checkNotNull(dir, "dir");
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("restoreFrom=" + dir + " (expected a directory holding a checkpoint)");
            }
            this.restoreFrom = dir;
            return this;
        }

        /**
         * Whether a {@linkplain #restoreFrom restore} puts the rows that had moved (relocated to
         * the nodes that used them) back where they were at the checkpoint, so that a cluster
         * restarted after a failure starts warm instead of moving them again. Default
         * {@code true}. It applies when the new cluster has as many nodes and the same
         * partitioning as the one that wrote the checkpoint, and its technique relocates
         * ({@link Technique#relocates()}); otherwise every row starts at its home, as with
         * {@code false}. {@link RestoredCheckpoint#placementRestored()} tells which happened.
         */
        public Builder restorePlacement(boolean restore) {
            this.restorePlacement = restore;
            return this;
        }

        /**
         * How many complete checkpoints a directory keeps: after a checkpoint is published, node
         * 0 removes the older ones beyond this many, except those that a kept increment builds on
         * (see {@link #fullCheckpointEvery}). Default 2, so that one complete checkpoint remains
         * even if the newest turns out damaged.
         */
        public Builder checkpointsKept(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("checkpointsKept=" + count + " (expected >= 1)");
            }
            this.checkpointsKept = count;
            return this;
        }

        /**
         * Makes every {@code n}-th checkpoint in a directory full and the ones between
         * <em>increments</em>: they hold only the rows changed since the checkpoint before (their
         * base), so that they cost what changed rather than the whole model. Explicit, async and
         * periodic checkpoints count alike, per directory. Default 1: every checkpoint full.
         * Restoring an increment reads its chain, the full checkpoint and each increment since
         * ({@link #restoreFrom} takes the newest, as always), so a damaged full checkpoint makes
         * the increments on it unrestorable too; {@link #checkpointsKept} keeps every checkpoint a
         * kept one needs. Telling changed rows costs training nothing (each row's
         * version exists already) and each node 8 bytes per row per directory. Every node must
         * have the same setting: the handshake compares it. A full checkpoint's format is
         * unchanged; an increment is written in manifest format 2, which AdaPS before increments
         * refuses as newer.
         *
         * @throws IllegalArgumentException if {@code n} is less than 1
         */
        public Builder fullCheckpointEvery(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("fullCheckpointEvery=" + n + " (expected >= 1)");
            }
            this.fullCheckpointEvery = n;
            return this;
        }

        /**
         * Takes periodic checkpoints into {@code dir}: at the first {@link AdaPS#barrier()} after
         * {@code period} has passed since the last one (or the start), as node 0's clock says, so
         * that every node takes it at the same barrier. The barrier is the cut, as for
         * {@link AdaPS#checkpoint}: call it with the workers between operations. Training stands
         * still for the cut and the copy of the rows; the files are written in the background,
         * as by {@link AdaPS#checkpointAsync} ({@link AdaPS#lastCheckpoint()} tells the last one
         * complete, with its pause). Give every node the same setting. {@link #checkpointsKept} bounds how many stay.
         *
         * @throws IllegalArgumentException if {@code period} is not positive
         */
        public Builder checkpointEvery(Path dir, Duration period) {
            checkNotNull(dir, "dir");
            checkPositiveDuration(period, "period");
            this.checkpointDir = dir;
            this.checkpointEvery = period;
            return this;
        }

        /** Reads the {@code ADAPS_*} variables described above from the process environment. */
        public Builder fromEnvironment() {
            return fromEnvironment(System.getenv());
        }

        /**
         * Reads the {@code ADAPS_*} variables described above from {@code environment}; absent
         * variables leave their settings unchanged.
         */
        public Builder fromEnvironment(Map<String, String> environment) {
            checkNotNull(environment, "environment");
            String id = environment.get("ADAPS_NODE_ID");
            String peerList = environment.get("ADAPS_PEERS");
            String cluster = environment.get("ADAPS_CLUSTER_ID");
            Technique parsedTechnique = parseEnum(environment, "ADAPS_TECHNIQUE", Technique.class, technique);
            SamplingScheme parsedSampling = parseEnum(environment, "ADAPS_SAMPLING", SamplingScheme.class, sampling);
            String model = environment.get("ADAPS_CONSISTENCY");
            Consistency parsedConsistency = consistency;
            if (model != null) {
                try {
                    parsedConsistency = Consistency.parse(model);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("ADAPS_CONSISTENCY='" + model + "' (expected asp, bsp, ssp:S or "
                            + "essp:S with S in 0.." + Consistency.MAX_STALENESS + ")");
                }
            }
            String bind = environment.get("ADAPS_BIND_HOST");
            if (bind != null && bind.isBlank()) {
                throw new IllegalArgumentException("ADAPS_BIND_HOST='" + bind + "' (expected a host name or address)");
            }
            Rendezvous parsedRendezvous = Rendezvous.fromEnvironment(environment);
            TlsSettings parsedTls = SecurityEnvironment.tls(environment);
            ClusterSecret parsedSecret = SecurityEnvironment.secret(environment);
            int parsedId = nodeId;
            if (id != null) {
                try {
                    parsedId = Integer.parseInt(id.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("ADAPS_NODE_ID='" + id + "' (expected a node id 0, 1, ...)");
                }
            }
            List<String> addresses = peerList == null ? null
                    : List.of(peerList.trim().split("\\s*,\\s*"));
            // Validate everything before changing anything.
            Builder probe = new Builder().nodeId(parsedId);
            if (addresses != null) {
                probe.peers(addresses);
            }
            if (cluster != null) {
                probe.clusterId(cluster);
            }
            nodeId = probe.nodeId;
            if (addresses != null) {
                peers = probe.peers;
            }
            if (cluster != null) {
                clusterId = probe.clusterId;
            }
            technique = parsedTechnique;
            sampling = parsedSampling;
            consistency = parsedConsistency;
            if (bind != null) {
                bindHost = bind.trim();
            }
            if (parsedRendezvous != null) {
                rendezvous = parsedRendezvous;
            }
            if (parsedTls != null) {
                tls = parsedTls;
            }
            if (parsedSecret != null) {
                clusterSecret = parsedSecret;
            }
            return this;
        }

        private static <E extends Enum<E>> E parseEnum(Map<String, String> environment, String variable, Class<E> type,
                                                       E current) {
            String name = environment.get(variable);
            if (name == null) {
                return current;
            }
            try {
                return Enum.valueOf(type, name.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(variable + "='" + name + "' (expected one of "
                        + Arrays.toString(type.getEnumConstants()) + ")");
            }
        }

        /**
         * The settings {@link #build()} starts a node with, checked against each other; with a
         * {@link #rendezvous}, after joining it.
         *
         * @throws IllegalStateException if no table is declared or the node id is not an index
         *                               into the peers
         * @throws ClusterException      if the rendezvous did not complete within the connect timeout
         */
        public NodeSettings settings() {
            if (specs.isEmpty()) {
                throw new IllegalStateException("tables=0 (expected at least one table(...) before build())");
            }
            int id = nodeId;
            List<PeerAddress> addresses = peers;
            String bind = bindHost;
            if (rendezvous != null) {
                Membership membership = checkNotNull(rendezvous.join(connectTimeout), "membership");
                id = membership.nodeId();
                addresses = membership.peers();
                bind = bindHost != null ? bindHost : membership.bindHost();
            }
            int nodes = Math.max(1, addresses.size());
            if (id >= nodes) {
                throw new IllegalStateException("nodeId=" + id + " (expected 0.." + (nodes - 1) + ", an index into peers="
                        + addresses + ")");
            }
            List<TableSpec> resolved = new ArrayList<>(specs.size());
            for (TableSpec spec : specs) {
                resolved.add(spec.consistency() == null ? spec.withConsistency(consistency) : spec);
            }
            return new NodeSettings(resolved, id, addresses, clusterId, partitioning, technique, sampling, samplePoolSize,
                    samplePoolReuse, transport, bind, tls, clusterSecret, connectTimeout, heartbeatInterval, failureTimeout, operationTimeout,
                    barrierTimeout, maxMessageBytes, restoreFrom, restorePlacement, checkpointsKept, fullCheckpointEvery,
                    checkpointDir,
                    checkpointEvery);
        }

        /**
         * Starts the node: allocates and initializes the parameters it is home of and, in a
         * cluster, connects to every peer.
         *
         * @throws IllegalStateException if no table is declared, a row of some table (with its
         *                               update-rule state) does not fit one message, the node id
         *                               is not an index into the peers, the technique signals
         *                               intent on more than 64 nodes, or a cluster has no transport
         * @throws ClusterException      if peers did not connect in time or refused the handshake
         */
        public AdaPS build() {
            return NodeFactory.load().start(settings());
        }

        private static Duration checkPositiveDuration(Duration duration, String name) {
            checkNotNull(duration, name);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + "=" + duration + " (expected > 0)");
            }
            return duration;
        }
    }
}
