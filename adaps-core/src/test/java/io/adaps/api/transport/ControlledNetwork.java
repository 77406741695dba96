package io.adaps.api.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;

import io.adaps.api.PeerFailedException;

/**
 * A network of {@link ControlledTransport}s on which nothing moves until the test calls
 * {@link #step()}: every message sent waits in the queue of its link (sender, receiver), and each
 * step delivers one message of one link, chosen with a seeded random generator, to the receiver's
 * handler on the calling thread. Links therefore interleave arbitrarily and delays emerge from
 * the choices, yet a run is fully determined by the seed and the calls the test makes: the network
 * has no threads, no clocks and no heartbeats.
 *
 * <p>Within a link, messages keep the order they were sent in, as the {@link Transport} contract
 * promises, unless the network was made with {@code reorderWithinLink}: then a step may deliver
 * any pending message of the chosen link (beyond the contract, for protocols that claim to
 * tolerate it).
 *
 * <p>A node's failure ({@link #kill}, or closing its transport) is reported to every other started
 * node through {@link MessageHandler#onPeerFailure}, once, at a later step of the link from the
 * failed node, after whatever that link still carries. All methods are meant for one thread
 * (they are synchronized only so that a stray call from another thread cannot corrupt the queues).
 */
public final class ControlledNetwork {
    /**
     * What one step delivered: {@code bytes} from {@code from} to {@code to}, or, when
     * {@code bytes} is {@code null}, the news that {@code from} failed. Listeners must not change
     * {@code bytes}.
     */
    public record Delivery(long step, int from, int to, byte[] bytes) {
    }

    private final int size;
    private final SplittableRandom random;
    private final boolean reorderWithinLink;
    private final ControlledTransport[] endpoints;
    /** Per link {@code from * size + to}: the messages in flight, oldest first. */
    private final List<List<byte[]>> links = new ArrayList<>();
    /** Per link: the receiver is still to be told that the sender failed. */
    private final boolean[] failureToReport;
    /** Per node: why it is down (killed, or its transport closed), or {@code null} while it is up. */
    private final String[] down;
    private final int[] candidates;
    private Consumer<Delivery> listener = delivery -> { };
    private Delivery latest;
    private long steps;

    /** A network of {@code size} nodes delivering messages of each link in order. */
    public ControlledNetwork(int size, long seed) {
        this(size, seed, false);
    }

    /**
     * A network of {@code size} nodes whose choices of what to deliver next come from {@code seed}.
     *
     * @param reorderWithinLink whether a step may deliver any pending message of a link, not only
     *                          its oldest
     */
    public ControlledNetwork(int size, long seed, boolean reorderWithinLink) {
        if (size < 2) {
            throw new IllegalArgumentException("size=" + size + " (expected at least 2 nodes)");
        }
        this.size = size;
        this.random = new SplittableRandom(seed);
        this.reorderWithinLink = reorderWithinLink;
        this.endpoints = new ControlledTransport[size];
        for (int link = 0; link < size * size; link++) {
            links.add(new ArrayList<>());
        }
        this.failureToReport = new boolean[size * size];
        this.down = new String[size];
        this.candidates = new int[size * size];
    }

    /** Nodes in the network. */
    public int size() {
        return size;
    }

    /** Calls {@code listener} after each step's delivery (replacing any listener set before). */
    public synchronized void onDelivery(Consumer<Delivery> listener) {
        this.listener = listener;
    }

    /** Steps taken so far: the number of the last delivery. */
    public synchronized long steps() {
        return steps;
    }

    /**
     * The delivery of the latest step, or {@code null} before the first: also while its handler
     * runs, and after the handler threw (then no listener has seen it).
     */
    public synchronized Delivery latest() {
        return latest;
    }

    /** Messages and failure reports waiting for a step, including those for nodes not started yet. */
    public synchronized int pending() {
        int pending = 0;
        for (int link = 0; link < links.size(); link++) {
            pending += links.get(link).size() + (failureToReport[link] ? 1 : 0);
        }
        return pending;
    }

    /**
     * Delivers one message (or failure report) of a randomly chosen link whose receiver is
     * started, on the calling thread; returns {@code false} if there was nothing to deliver.
     */
    public synchronized boolean step() {
        int count = collectCandidates();
        if (count == 0) {
            return false;
        }
        int link = candidates[random.nextInt(count)];
        int from = link / size;
        int to = link % size;
        List<byte[]> queue = links.get(link);
        steps++;
        if (queue.isEmpty()) {
            failureToReport[link] = false;
            latest = new Delivery(steps, from, to, null);
            endpoints[to].handler().onPeerFailure(new PeerFailedException(from, down[from]));
        } else {
            byte[] bytes = queue.remove(reorderWithinLink ? random.nextInt(queue.size()) : 0);
            latest = new Delivery(steps, from, to, bytes);
            endpoints[to].handler().onMessage(from, new UnsafeBuffer(bytes), 0, bytes.length);
        }
        listener.accept(latest);
        return true;
    }

    /**
     * Steps until nothing is pending; returns the steps taken.
     *
     * @throws IllegalStateException if messages are still pending after {@code maxSteps} steps
     */
    public synchronized long deliverAll(long maxSteps) {
        for (long taken = 0; ; taken++) {
            if (taken == maxSteps) {
                if (collectCandidates() > 0) {
                    throw new IllegalStateException("network did not quiesce within " + maxSteps + " steps ("
                            + pending() + " deliveries still pending)");
                }
                return taken;
            }
            if (!step()) {
                return taken;
            }
        }
    }

    /** Fills {@link #candidates} with the links that have something for a started, live receiver; returns how many. */
    private int collectCandidates() {
        int count = 0;
        for (int link = 0; link < candidates.length; link++) {
            int to = link % size;
            if (endpoints[to] != null && down[to] == null && (!links.get(link).isEmpty() || failureToReport[link])) {
                candidates[count++] = link;
            }
        }
        return count;
    }

    /**
     * Crashes {@code node}: what it sent and what was sent to it and not delivered yet is lost; the
     * other nodes are told of the failure at later steps; sends to it throw
     * {@link PeerFailedException}, and its own sends {@link IllegalStateException}.
     */
    public synchronized void kill(int node) {
        checkNode(node);
        if (down[node] != null) {
            return;
        }
        for (int other = 0; other < size; other++) {
            links.get(node * size + other).clear();
        }
        goDown(node, "was killed");
    }

    /** Called by a transport when it is closed: what it sent already is still delivered, then its failure. */
    synchronized void closed(int node) {
        if (down[node] == null) {
            goDown(node, "closed");
        }
    }

    private void goDown(int node, String what) {
        down[node] = describe(node) + " " + what;
        for (int other = 0; other < size; other++) {
            links.get(other * size + node).clear();
            failureToReport[other * size + node] = false;
            failureToReport[node * size + other] = other != node && down[other] == null;
        }
    }

    /** Registers the started transport of {@code node}. */
    synchronized void register(int node, ControlledTransport transport) {
        checkNode(node);
        if (endpoints[node] != null) {
            throw new IllegalStateException("node=" + node + " (expected a node id no started transport uses)");
        }
        endpoints[node] = transport;
    }

    /** Queues a copy of a message on the link {@code from -> to}. */
    synchronized void send(int from, int to, byte[] bytes) {
        if (down[from] != null) {
            throw new IllegalStateException(down[from] + " (expected a live sender)");
        }
        if (down[to] != null) {
            throw new PeerFailedException(to, down[to]);
        }
        links.get(from * size + to).add(bytes);
    }

    /** The address of a started node, for failure messages. */
    private String describe(int node) {
        return endpoints[node] == null ? "(not started)" : endpoints[node].address();
    }

    private void checkNode(int node) {
        if (node < 0 || node >= size) {
            throw new IllegalArgumentException("node=" + node + " (expected 0.." + (size - 1) + ")");
        }
    }
}
