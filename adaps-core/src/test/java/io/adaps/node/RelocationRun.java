package io.adaps.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

import io.adaps.api.ClusterException;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.UpdateRule;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.api.transport.ControlledNetwork;
import io.adaps.api.transport.ControlledNetwork.Delivery;
import io.adaps.rpc.Requester;

/**
 * One seeded run of the relocation protocol: a {@link ControlledCluster} of 3 or 4 nodes with one
 * table of 12 to 48 rows, driven entirely from the test's thread. Its workers (one or two per node) start random
 * asynchronous pulls, pushes and localizes of 1 to 5 random rows (half of them from a few hot rows,
 * so that nodes compete for rows), and between operations the network takes a random number of
 * steps. The seed fixes everything: cluster shape, partitioning, pace, operations and the order of
 * deliveries.
 *
 * <p>Checked as it runs:
 * <ul>
 *   <li>after every step, and after every operation started: no row is held by two nodes;</li>
 *   <li>every completed pull, by the {@link RowOracle};</li>
 *   <li>a completed localize left its rows at the localizing node, unless another localize of the
 *       row overlapped it in time (then the row may have moved on, or not waited for: see
 *       {@link io.adaps.api.ParameterAccess}); under {@link Technique#STATIC}, at their home;</li>
 *   <li>whenever the network falls quiet (now and then, and at the end): every operation has
 *       completed, and none failed.</li>
 * </ul>
 * At the end: every row is held by exactly one node, which its home's directory names, and pulls
 * of every row through every node give the oracle's final value.
 *
 * <p>Blocking operations are never called while messages are pending (deliveries only happen in
 * {@link ControlledNetwork#step()}, so they would wait forever), and a worker starts a new
 * operation only while its oldest one in flight is less than 64 tickets back, because a worker's
 * 65th call waits for its first.
 */
final class RelocationRun {
    /** What a run found besides its checks: rows away from their home at the end, and localizes started. */
    record Outcome(int rowsAway, int localizes) {
    }

    private enum Kind { PULL, PUSH, LOCALIZE }

    /** A worker, owned by the test's thread, and its operations in flight in ticket order. */
    private static final class Client {
        final int node;
        final Worker worker;
        final ArrayDeque<Op> inFlight = new ArrayDeque<>();
        long lastTicket;

        Client(int node, Worker worker) {
            this.node = node;
            this.worker = worker;
        }

        boolean mayStart() {
            return inFlight.isEmpty() || lastTicket + 1 - inFlight.peekFirst().ticket < Requester.IN_FLIGHT;
        }

        @Override
        public String toString() {
            return "worker " + node + "." + worker.id();
        }
    }

    /** An asynchronous operation in flight. */
    private static final class Op {
        final Kind kind;
        final Client client;
        final long[] rows;
        final float[] buffer;
        final RowOracle.PullCheck check;
        /** Localizes: whether another localize of {@code rows[j]} overlapped this one. */
        final boolean[] contended;
        long ticket;

        Op(Kind kind, Client client, long[] rows, float[] buffer, RowOracle.PullCheck check) {
            this.kind = kind;
            this.client = client;
            this.rows = rows;
            this.buffer = buffer;
            this.check = check;
            this.contended = kind == Kind.LOCALIZE ? new boolean[rows.length] : null;
        }

        @Override
        public String toString() {
            return client + " t" + ticket + " " + kind + " " + Arrays.toString(rows);
        }
    }

    /** A step of the test itself, for the trace: formatted only when shown. */
    private record OpEvent(String what, Op op) {
        @Override
        public String toString() {
            return what + " " + op;
        }
    }

    private static final int OPERATIONS = 300;
    private static final int HOT_ROWS = 4;
    private static final long MAX_QUIESCE_STEPS = 1_000_000;
    private static final int EVENTS_SHOWN = 40;

    private final long seed;
    private final boolean reorderWithinLink;
    private final UpdateRule rule;
    private final Technique technique;
    private final boolean trace;
    private final SplittableRandom random;
    private final ControlledNetwork network;
    private final ControlledCluster cluster;
    private final RowOracle oracle;
    private final int rows;
    private final int valueLength;
    private final int maxStepsBetween;
    private final long[] hotRows = new long[HOT_ROWS];
    private final List<Client> clients = new ArrayList<>();
    /** Per row: the localizes in flight that named it. */
    private final List<List<Op>> localizing = new ArrayList<>();
    /** The latest events (deliveries and operations), for the failure message. */
    private final ArrayDeque<Object> events = new ArrayDeque<>();
    /** The latest delivery whose handler returned. */
    private Delivery delivered;
    private int localizes;

    /**
     * @param rule      {@code add} (judged by {@link AdditiveOracle}) or a stateful rule (judged by
     *                  {@link SerialOracle})
     * @param technique every node's
     * @param trace     whether to print every event to standard output
     */
    RelocationRun(long seed, boolean reorderWithinLink, UpdateRule rule, Technique technique, boolean trace) {
        this.seed = seed;
        this.reorderWithinLink = reorderWithinLink;
        this.rule = rule;
        this.technique = technique;
        this.trace = trace;
        this.random = new SplittableRandom(seed);
        int nodes = 3 + random.nextInt(2);
        this.rows = 12 + random.nextInt(37);
        this.valueLength = 2 + random.nextInt(3);
        this.maxStepsBetween = 1 + random.nextInt(12);
        Partitioning partitioning = random.nextBoolean() ? Partitioning.RANGE : Partitioning.HASH;
        for (int i = 0; i < HOT_ROWS; i++) {
            hotRows[i] = random.nextInt(rows);
        }
        this.oracle = rule.equals(UpdateRules.add()) ? new AdditiveOracle(rows, valueLength)
                : new SerialOracle(rows, valueLength, rule);
        this.network = new ControlledNetwork(nodes, random.nextLong(), reorderWithinLink);
        this.cluster = new ControlledCluster(network, TableSpec.of("t", rows, valueLength).withUpdateRule(rule), partitioning,
                technique);
        for (int node = 0; node < nodes; node++) {
            int workers = 1 + random.nextInt(2);
            for (int w = 0; w < workers; w++) {
                clients.add(new Client(node, cluster.node(node).worker()));
            }
        }
        for (int row = 0; row < rows; row++) {
            localizing.add(new ArrayList<>());
        }
        network.onDelivery(this::afterStep);
    }

    /** Runs, checks and closes the cluster; a failure names the seed, the step and the latest events. */
    Outcome run() {
        try (cluster) {
            for (int i = 0; i < OPERATIONS; i++) {
                Client client = clients.get(random.nextInt(clients.size()));
                if (client.mayStart()) {
                    start(client);
                }
                int steps = random.nextInt(maxStepsBetween + 1);
                for (int s = 0; s < steps && network.step(); s++) {
                    poll();
                }
                if (random.nextInt(100) == 0) {
                    quiesce();
                }
            }
            quiesce();
            return checkEnd();
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(describeFailure(e), e);
        }
    }

    private void afterStep(Delivery delivery) {
        delivered = delivery;
        record(delivery);
        checkNoRowHeldTwice();
    }

    private void checkNoRowHeldTwice() {
        long row = cluster.rowHeldTwice();
        if (row >= 0) {
            throw new AssertionError("row " + row + " is held by nodes " + Arrays.toString(cluster.holders(row))
                    + " at once");
        }
    }

    private void start(Client client) {
        int draw = random.nextInt(20);
        Kind kind = draw < 7 ? Kind.PULL : draw < 14 ? Kind.PUSH : Kind.LOCALIZE;
        long[] ids = new long[1 + random.nextInt(5)];
        for (int j = 0; j < ids.length; j++) {
            ids[j] = random.nextBoolean() ? hotRows[random.nextInt(HOT_ROWS)] : random.nextInt(rows);
        }
        if (kind != Kind.LOCALIZE && !oracle.mayAccess(ids)) {
            return;
        }
        Op op;
        switch (kind) {
            case PULL -> {
                op = new Op(kind, client, ids, new float[ids.length * valueLength], oracle.startPull(ids));
                op.ticket = client.worker.pullAsync(ids, 0, ids.length, op.buffer, 0);
            }
            case PUSH -> {
                float[] updates = new float[ids.length * valueLength];
                oracle.startPush(ids, updates, random);
                op = new Op(kind, client, ids, updates, null);
                op.ticket = client.worker.pushAsync(ids, 0, ids.length, updates, 0);
            }
            case LOCALIZE -> {
                op = new Op(kind, client, distinct(ids), null, null);
                noteContention(op);
                op.ticket = client.worker.localizeAsync(ids, 0, ids.length);
                localizes++;
            }
            default -> throw new AssertionError(kind);
        }
        if (op.ticket != client.lastTicket + 1) {
            throw new AssertionError(op + ": ticket " + op.ticket + " (expected " + (client.lastTicket + 1) + ")");
        }
        client.lastTicket = op.ticket;
        client.inFlight.addLast(op);
        record(new OpEvent("start", op));
        checkNoRowHeldTwice();
        poll();
    }

    private static long[] distinct(long[] ids) {
        return Arrays.stream(ids).distinct().toArray();
    }

    /**
     * Marks {@code op} contended for each row some localize in flight names, and those localizes
     * of other nodes contended by {@code op} (one of the same node is unaffected: {@code op} does
     * not move the row for it).
     */
    private void noteContention(Op op) {
        for (int j = 0; j < op.rows.length; j++) {
            List<Op> others = localizing.get((int) op.rows[j]);
            op.contended[j] = !others.isEmpty();
            for (Op other : others) {
                if (other.client.node != op.client.node) {
                    other.contended[indexOf(other.rows, op.rows[j])] = true;
                }
            }
            others.add(op);
        }
    }

    private static int indexOf(long[] rows, long row) {
        for (int j = 0; j < rows.length; j++) {
            if (rows[j] == row) {
                return j;
            }
        }
        throw new AssertionError(row);
    }

    /** Completes every operation that is done, oldest first per worker. */
    private void poll() {
        for (Client client : clients) {
            Iterator<Op> ops = client.inFlight.iterator();
            while (ops.hasNext()) {
                Op op = ops.next();
                if (client.worker.isDone(op.ticket)) {
                    ops.remove();
                    complete(op);
                }
            }
        }
    }

    private void complete(Op op) {
        record(new OpEvent("done", op));
        try {
            op.client.worker.waitFor(op.ticket);
        } catch (ClusterException e) {
            throw new AssertionError(op + " failed: " + e.getMessage(), e);
        }
        switch (op.kind) {
            case PULL -> op.check.completed(op.buffer);
            case PUSH -> oracle.pushCompleted(op.rows, op.buffer);
            case LOCALIZE -> {
                for (int j = 0; j < op.rows.length; j++) {
                    long row = op.rows[j];
                    localizing.get((int) row).remove(op);
                    if (technique == Technique.STATIC) {
                        expectHolder(op, row, cluster.home(row), "its home: under STATIC nothing moves");
                    } else if (!op.contended[j]) {
                        expectHolder(op, row, op.client.node, "no other localize of it overlapped");
                    }
                }
            }
            default -> throw new AssertionError(op.kind);
        }
    }

    private void expectHolder(Op op, long row, int node, String why) {
        if (!Internals.holdsRow(cluster.node(node), cluster.table, row)) {
            throw new AssertionError(op + " completed, but row " + row + " is held by "
                    + Arrays.toString(cluster.holders(row)) + " (expected node " + node + ", " + why + ")");
        }
    }

    /** Delivers everything; then every operation must be complete, and none may have failed. */
    private void quiesce() {
        network.deliverAll(MAX_QUIESCE_STEPS);
        poll();
        for (Client client : clients) {
            if (!client.inFlight.isEmpty()) {
                throw new AssertionError("nothing is in flight, yet " + client.inFlight.size()
                        + " operation(s) never completed, the first " + client.inFlight.peekFirst());
            }
        }
        for (Client client : clients) {
            try {
                client.worker.waitAll();
            } catch (ClusterException e) {
                throw new AssertionError(client + " had a failed operation: " + e.getMessage(), e);
            }
        }
    }

    private Outcome checkEnd() {
        int away = 0;
        for (long row = 0; row < rows; row++) {
            int[] holders = cluster.holders(row);
            if (holders.length != 1) {
                throw new AssertionError("row " + row + " is held by nodes " + Arrays.toString(holders)
                        + " at the end (expected exactly one)");
            }
            int owner = cluster.directoryOwner(row);
            if (owner != holders[0]) {
                throw new AssertionError("row " + row + " is held by node " + holders[0] + ", but the directory of its home "
                        + cluster.home(row) + " names " + owner);
            }
            if (holders[0] != cluster.home(row)) {
                away++;
            }
        }
        long[] all = new long[rows];
        Arrays.setAll(all, row -> row);
        int node = -1;
        for (Client client : clients) {
            if (client.node != node) {
                node = client.node;
                Op read = new Op(Kind.PULL, client, all, new float[rows * valueLength], values -> {
                    for (int row = 0; row < rows; row++) {
                        oracle.checkFinal(row, values, row * valueLength);
                    }
                });
                read.ticket = client.worker.pullAsync(all, 0, rows, read.buffer, 0);
                client.lastTicket = read.ticket;
                client.inFlight.addLast(read);
                record(new OpEvent("start final", read));
            }
        }
        quiesce();
        return new Outcome(away, localizes);
    }

    private void record(Object event) {
        if (trace) {
            System.out.println(format(event));
        }
        events.addLast(event);
        if (events.size() > EVENTS_SHOWN) {
            events.removeFirst();
        }
    }

    private String format(Object event) {
        return event instanceof Delivery delivery ? cluster.describe(delivery) : "   " + event;
    }

    private String describeFailure(Throwable failure) {
        StringBuilder text = new StringBuilder()
                .append("seed=").append(seed).append(" reorderWithinLink=").append(reorderWithinLink)
                .append(" rule=").append(rule).append(" technique=").append(technique)
                .append(" (nodes=").append(cluster.size()).append(", rows=").append(rows)
                .append(", valueLength=").append(valueLength).append(", maxStepsBetween=").append(maxStepsBetween)
                .append("), at step ").append(network.steps()).append(": ").append(failure).append('\n')
                .append("latest events (deliveries as #step from->to):\n");
        for (Object event : events) {
            text.append("  ").append(format(event)).append('\n');
        }
        Delivery latest = network.latest();
        if (latest != delivered) {
            text.append("  ").append(format(latest)).append("   <- failed while delivering this\n");
        }
        return text.append("rerun this seed alone, printing every event: ./mvnw -o -q test -pl adaps-core")
                .append(" -Dtest=RelocationProtocolTest -Dadaps.seed=").append(seed).append(" -Dadaps.trace=true")
                .toString();
    }
}
