package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.adaps.api.transport.PeerAddress;

/**
 * The rendezvous of a Kubernetes Indexed Job with a headless Service: pod {@code i} of the job
 * is node {@code i} ({@code JOB_COMPLETION_INDEX}, set by Kubernetes), and every node's address
 * comes from a pattern such as {@code mf-{index}.mf:7000} (the pod's host name
 * {@code <job>-<index>} under the Service's subdomain). {@link #join} waits until every node's
 * name resolves, since the pods start in any order and DNS publishes each name only once its pod
 * exists (the Service needs {@code publishNotReadyAddresses: true}: no pod is ready before its
 * peers connect). Names are retried every {@value #RETRY_MILLIS} ms until the timeout; the JVM
 * caches failed look-ups for 10 s unless {@code networkaddress.cache.negative.ttl} says otherwise
 * (the example image sets it to 1). The node listens at {@code 0.0.0.0} unless told otherwise.
 *
 * <table>
 *   <caption>Environment variables ({@link #fromEnvironment})</caption>
 *   <tr><td>{@code JOB_COMPLETION_INDEX}</td><td>this pod's index, set by Kubernetes for Indexed Jobs</td></tr>
 *   <tr><td>{@code ADAPS_NODES}</td><td>nodes in the cluster: the job's completions and parallelism</td></tr>
 *   <tr><td>{@code ADAPS_PEER_PATTERN}</td><td>every node's {@code host:port} with {@code {index}} for its id</td></tr>
 *   <tr><td>{@code ADAPS_BIND_HOST}</td><td>optional; where to listen, default {@code 0.0.0.0}</td></tr>
 * </table>
 */
public final class KubernetesRendezvous implements Rendezvous {
    /** How long to wait between look-ups of names that did not resolve. */
    static final long RETRY_MILLIS = 500;
    /** The placeholder for a node's index in the pattern. */
    public static final String INDEX = "{index}";

    /** Resolves a host name; throws if it does not (yet) resolve. */
    @FunctionalInterface
    public interface HostResolver {
        /** Looks {@code host} up. */
        void resolve(String host) throws UnknownHostException;
    }

    /** How the wait between look-ups passes: sleeps {@code millis}. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final int index;
    private final List<PeerAddress> peers;
    private final String bindHost;
    private final HostResolver resolver;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;

    private KubernetesRendezvous(int index, List<PeerAddress> peers, String bindHost, HostResolver resolver,
                                 LongSupplier nanoClock, Sleeper sleeper) {
        this.index = index;
        this.peers = peers;
        this.bindHost = bindHost;
        this.resolver = resolver;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    /**
     * Node {@code index} of {@code nodes}, peers at {@code peerPattern} with {@code {index}}
     * replaced by each node's id, listening at {@code bindHost}; names resolved through DNS.
     *
     * @throws IllegalArgumentException if {@code index} is not in {@code 0..nodes-1}, the pattern
     *                                  lacks {@code {index}} or gives no valid {@code host:port},
     *                                  or {@code bindHost} is blank
     */
    public static KubernetesRendezvous of(int index, int nodes, String peerPattern, String bindHost) {
        return of(index, nodes, peerPattern, bindHost, host -> InetAddress.getAllByName(host));
    }

    /** As {@link #of(int, int, String, String)}, resolving names with {@code resolver}. */
    public static KubernetesRendezvous of(int index, int nodes, String peerPattern, String bindHost,
                                          HostResolver resolver) {
        return of(index, nodes, peerPattern, bindHost, resolver, System::nanoTime, Thread::sleep);
    }

    static KubernetesRendezvous of(int index, int nodes, String peerPattern, String bindHost, HostResolver resolver,
                                   LongSupplier nanoClock, Sleeper sleeper) {
        checkNotNull(peerPattern, "peerPattern");
        checkNotNull(bindHost, "bindHost");
        checkNotNull(resolver, "resolver");
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes=" + nodes + " (expected >= 1)");
        }
        if (index < 0 || index >= nodes) {
            throw new IllegalArgumentException("index=" + index + " (expected 0.." + (nodes - 1) + ")");
        }
        if (!peerPattern.contains(INDEX)) {
            throw new IllegalArgumentException("peerPattern='" + peerPattern + "' (expected host:port with " + INDEX
                    + ", e.g. mf-" + INDEX + ".mf:7000)");
        }
        if (bindHost.isBlank()) {
            throw new IllegalArgumentException("bindHost='" + bindHost + "' (expected a host name or address)");
        }
        List<PeerAddress> peers = new ArrayList<>(nodes);
        for (int node = 0; node < nodes; node++) {
            peers.add(PeerAddress.parse(peerPattern.replace(INDEX, Integer.toString(node))));
        }
        return new KubernetesRendezvous(index, List.copyOf(peers), bindHost, resolver, nanoClock, sleeper);
    }

    /**
     * From the variables in the class comment.
     *
     * @throws IllegalArgumentException naming the variable that is missing or malformed
     */
    public static KubernetesRendezvous fromEnvironment(Map<String, String> environment) {
        checkNotNull(environment, "environment");
        int index = integer(environment, "JOB_COMPLETION_INDEX");
        int nodes = integer(environment, "ADAPS_NODES");
        String pattern = required(environment, "ADAPS_PEER_PATTERN");
        String bind = environment.getOrDefault("ADAPS_BIND_HOST", "0.0.0.0").trim();
        try {
            return of(index, nodes, pattern.trim(), bind);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Kubernetes rendezvous (JOB_COMPLETION_INDEX, ADAPS_NODES, "
                    + "ADAPS_PEER_PATTERN, ADAPS_BIND_HOST): " + e.getMessage(), e);
        }
    }

    /** Every node's address, in id order, as the pattern gives them. */
    public List<PeerAddress> peers() {
        return peers;
    }

    /**
     * Waits until every node's host name resolves, looking up again every {@value #RETRY_MILLIS}
     * ms the names that did not.
     *
     * @throws ClusterException naming the names that still do not resolve after {@code timeout},
     *                          or if the thread is interrupted
     */
    @Override
    public Membership join(Duration timeout) {
        checkNotNull(timeout, "timeout");
        long deadline = nanoClock.getAsLong() + timeout.toNanos();
        Map<String, String> unresolved = new LinkedHashMap<>();
        for (PeerAddress peer : peers) {
            unresolved.put(peer.host(), "not looked up");
        }
        while (true) {
            unresolved.replaceAll((host, lastError) -> lookUp(host));
            unresolved.values().removeIf(error -> error == null);
            if (unresolved.isEmpty()) {
                return new Membership(index, peers, bindHost);
            }
            long left = deadline - nanoClock.getAsLong();
            if (left <= 0) {
                throw new ClusterException("node " + index + ": Kubernetes rendezvous: " + unresolved.keySet()
                        + " did not resolve within " + timeout + " (expected a pod of the Indexed Job for each, named "
                        + "by a headless Service with publishNotReadyAddresses: true); last errors: " + unresolved);
            }
            try {
                sleeper.sleep(Math.min(RETRY_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("node " + index + ": interrupted while resolving " + unresolved.keySet(), e);
            }
        }
    }

    /** Null if {@code host} resolves, else why not. */
    private String lookUp(String host) {
        try {
            resolver.resolve(host);
            return null;
        } catch (UnknownHostException e) {
            return String.valueOf(e.getMessage());
        }
    }

    private static String required(Map<String, String> environment, String variable) {
        String value = environment.get(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(variable + (value == null ? " unset" : "='" + value + "'")
                    + " (expected it for the Kubernetes rendezvous)");
        }
        return value;
    }

    private static int integer(Map<String, String> environment, String variable) {
        String value = required(environment, variable);
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(variable + "='" + value + "' (expected an integer)");
        }
    }
}
