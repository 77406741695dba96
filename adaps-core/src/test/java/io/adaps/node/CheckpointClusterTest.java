package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointException;
import io.adaps.api.CheckpointResult;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.ClusterException;
import io.adaps.api.Initializers;
import io.adaps.api.RestoredCheckpoint;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.checkpoint.CheckpointFiles;
import io.adaps.checkpoint.FileEntry;
import io.adaps.checkpoint.Manifest;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.store.SlotKind;
import io.adaps.testing.Await;
import io.adaps.testing.Concurrently;

/**
 * Checkpoints of in-JVM clusters whose rows are relocated and replicated at the moment of the
 * checkpoint, with replicas holding updates their owners have not seen yet, restored onto
 * clusters of the same and of other sizes: every row's value and update-rule state must come
 * back bit for bit, every update made before the checkpoint must be in it, and every worker's
 * saved state must come back. The same holds for a chain of a full checkpoint and increments
 * ({@code fullCheckpointEvery}) taken while rows move between them, and an increment holds
 * exactly the rows written since the checkpoint before.
 */
class CheckpointClusterTest {
    @RegisterExtension
    static final ClusterFixture FIXTURE = ClusterFixture.inJvm();

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** Additive, zero initial values: every row's value counts the pushes it got. */
    private static final TableSpec SUMS = TableSpec.of("sums", 48, 3);
    /** Adagrad: values and accumulators that depend on every step. */
    private static final TableSpec STEPS = TableSpec.of("steps", 30, 2)
            .withInitializer(Initializers.normal(0f, 0.1f, 7)).withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f));
    private static final long[] HOT_SUMS = {0, 1, 2, 3, 16, 17};
    private static final long[] HOT_STEPS = {5, 6};

    @TempDir
    Path dir;

    /** Every technique, with a lone full checkpoint and with a chain of a full one and two increments. */
    static Stream<Arguments> techniquesAndChains() {
        return Arrays.stream(Technique.values()).flatMap(t -> Stream.of(Arguments.of(t, 1), Arguments.of(t, 3)));
    }

    @ParameterizedTest(name = "{0}, chain of {1}")
    @MethodSource("techniquesAndChains")
    void checkpointsOfMovingAndReplicatedRowsRestoreBitExactly(Technique technique, int chain) throws Exception {
        Snapshot saved = trainAndCheckpoint(3, technique, chain);
        restoreAndCompare(saved, 3, technique);
    }

    @ParameterizedTest(name = "chain of {0}")
    @ValueSource(ints = {1, 3})
    void threeNodesRestoreOntoTwo(int chain) throws Exception {
        Snapshot saved = trainAndCheckpoint(3, Technique.ADAPTIVE, chain);
        restoreAndCompare(saved, 2, Technique.ADAPTIVE);
    }

    @ParameterizedTest(name = "chain of {0}")
    @ValueSource(ints = {1, 3})
    void oneNodeRestoresOntoThree(int chain) throws Exception {
        Snapshot saved = trainAndCheckpoint(1, Technique.ADAPTIVE, chain);
        restoreAndCompare(saved, 3, Technique.RELOCATION_ONLY);
    }

    @ParameterizedTest
    @EnumSource(value = Technique.class, names = {"ADAPTIVE", "RELOCATION_ONLY"})
    void aRestoreOntoTheSameClusterPutsMovedRowsBackWhereTheyWere(Technique technique) throws Exception {
        trainAndCheckpoint(3, technique, 3);
        try (TestCluster cluster = FIXTURE.cluster(3, b -> b.table(SUMS).table(STEPS).technique(technique)
                .restoreFrom(dir))) {
            for (int n = 0; n < 3; n++) {
                AdaPS node = cluster.node(n);
                assertThat(node.restoredFrom().orElseThrow().placementRestored()).isTrue();
                // The rows node n alone used had moved there before the cut (awaited, or localized),
                // those localized for the chain's second checkpoint too: unchanged since, they are not
                // in the newest increment, but they are still placed there.
                assertPlacedOn(cluster, n, node.table("sums"), ownRows(n)[0]);
                for (long row : concat(movedSteps(n, 2), movedSteps(n, 3))) {
                    assertPlacedOn(cluster, n, node.table("steps"), row);
                }
            }
        }
    }

    /**
     * Without relocation or replication every write is to the row's one owned copy, so an
     * increment holds exactly the rows any node wrote since the checkpoint before, local or
     * remote writes alike: counted per table, against the rows written.
     */
    @Test
    void anIncrementHoldsExactlyTheRowsWrittenSinceTheCheckpointBefore() throws Exception {
        int nodes = 3;
        try (TestCluster cluster = FIXTURE.cluster(nodes, b -> b.table(SUMS).table(STEPS).technique(Technique.STATIC)
                .fullCheckpointEvery(3))) {
            TableSpec[] tables = {SUMS, STEPS};
            for (int checkpoint = 1; checkpoint <= 4; checkpoint++) {
                BitSet[][] written = new BitSet[nodes][tables.length];
                long seed = checkpoint;
                Concurrently.run(nodes, PATIENCE, n -> {
                    SplittableRandom random = new SplittableRandom(seed * 31 + n);
                    try (Worker worker = cluster.node(n).worker()) {
                        for (int t = 0; t < tables.length; t++) {
                            written[n][t] = new BitSet();
                            for (int i = random.nextInt(6); i > 0; i--) {
                                int row = random.nextInt((int) tables[t].rows());
                                worker.table(tables[t].name()).push(row, new float[tables[t].valueLength()], 0);
                                written[n][t].set(row);
                            }
                        }
                        worker.waitAll();
                    }
                    cluster.node(n).checkpoint(dir);
                });
                Manifest manifest = Manifest.read(dir.resolve(CheckpointFiles.manifest(checkpoint)));
                assertThat(manifest.base()).as("checkpoint %d's base: every third is full", checkpoint)
                        .isEqualTo(checkpoint % 3 == 1 ? 0 : checkpoint - 1);
                for (int t = 0; t < tables.length; t++) {
                    BitSet rows = new BitSet();
                    for (int n = 0; n < nodes; n++) {
                        rows.or(written[n][t]);
                    }
                    assertThat(manifest.dataFiles(t).stream().mapToLong(FileEntry::rows).sum())
                            .as("rows of %s in checkpoint %d", tables[t].name(), checkpoint)
                            .isEqualTo(manifest.full() ? tables[t].rows() : rows.cardinality());
                }
            }
        }
    }

    @Test
    void aRestoreStartsEveryRowAtItsHomeWhenAskedOrWhenThePlacementCannotApply() throws Exception {
        trainAndCheckpoint(3, Technique.ADAPTIVE, 1);
        record Case(int nodes, Technique technique, boolean restorePlacement) {
        }
        for (Case c : List.of(new Case(3, Technique.ADAPTIVE, false), new Case(3, Technique.STATIC, true),
                new Case(2, Technique.ADAPTIVE, true))) {
            try (TestCluster cluster = FIXTURE.cluster(c.nodes(), b -> b.table(SUMS).table(STEPS).technique(c.technique())
                    .restoreFrom(dir).restorePlacement(c.restorePlacement()))) {
                for (int n = 0; n < c.nodes(); n++) {
                    AdaPS node = cluster.node(n);
                    assertThat(node.restoredFrom().orElseThrow().placementRestored()).as("%s, node %d", c, n).isFalse();
                    for (Table table : node.tables()) {
                        for (long row = 0; row < table.rows(); row++) {
                            assertThat(Internals.kindOf(node, table, row) == SlotKind.OWNED)
                                    .as("%s: row %d of %s owned on node %d", c, row, table.name(), n)
                                    .isEqualTo(Internals.home(node, table, row) == n);
                        }
                    }
                }
            }
        }
    }

    @Test
    void nodesThatDisagreeOnFullCheckpointEveryAreRefused() {
        assertThatThrownBy(() -> FIXTURE.cluster(2, (id, b) -> b.table(SUMS).connectTimeout(Duration.ofSeconds(10))
                .fullCheckpointEvery(id == 0 ? 1 : 4)))
                .isInstanceOf(AssertionError.class)
                .cause().isInstanceOf(ClusterException.class).hasMessageContaining("fullCheckpointEvery");
    }

    @Test
    void aNodeThatCannotWriteFailsTheCheckpointOnEveryNodeAndThePreviousOneStays() throws Exception {
        try (TestCluster cluster = FIXTURE.cluster(3, b -> b.table(SUMS).table(STEPS))) {
            Concurrently.run(3, PATIENCE, n -> cluster.node(n).checkpoint(dir));
            // Node 1 cannot create its first file of generation 2: a directory is in the way.
            Path obstacle = Files.createDirectory(dir.resolve("g00000002-t0-n1.data.tmp"));
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            Concurrently.run(3, PATIENCE, n -> {
                try {
                    cluster.node(n).checkpoint(dir);
                } catch (CheckpointException e) {
                    failures.add(e);
                }
            });
            assertThat(failures).hasSize(3);
            assertThat(dir.resolve("MANIFEST-00000002")).doesNotExist();
            // Now node 2 cannot write: node 1's list of files from the failed attempt must not count.
            Files.delete(obstacle);
            obstacle = Files.createDirectory(dir.resolve("g00000002-t1-n2.data.tmp"));
            failures.clear();
            Concurrently.run(3, PATIENCE, n -> {
                try {
                    cluster.node(n).checkpoint(dir);
                } catch (CheckpointException e) {
                    failures.add(e);
                }
            });
            assertThat(failures).hasSize(3);
            assertThat(dir.resolve("MANIFEST-00000002")).doesNotExist();
            Files.delete(obstacle);
            CheckpointResult[] results = new CheckpointResult[3];
            Concurrently.run(3, PATIENCE, n -> results[n] = cluster.node(n).checkpoint(dir));
            assertThat(results[2].generation()).isEqualTo(2);
        }
        try (TestCluster restored = FIXTURE.cluster(2, b -> b.table(SUMS).table(STEPS).restoreFrom(dir))) {
            assertThat(restored.node(1).restoredFrom().orElseThrow().generation()).isEqualTo(2);
        }
    }

    @Test
    void aNodeThatDiesBeforeWritingItsFilesFailsTheCheckpointWithoutWaitingForTheTimeout() throws Exception {
        try (TestCluster cluster = FIXTURE.cluster(2, b -> b.table(SUMS).barrierTimeout(Duration.ofMinutes(10)))) {
            Files.createDirectory(dir.resolve("g00000001-t0-n1.data.tmp")); // node 1 cannot write its files
            Files.createDirectory(dir.resolve("g00000001-n1.failed.tmp")); // nor mark its attempt failed
            CheckpointTicket[] tickets = new CheckpointTicket[2];
            Concurrently.run(2, PATIENCE, n -> tickets[n] = cluster.node(n).checkpointAsync(dir));
            assertThatThrownBy(tickets[1]::await).isInstanceOf(CheckpointException.class);
            cluster.transport(1).close(); // node 1 dies
            assertThatThrownBy(tickets[0]::await).isInstanceOf(CheckpointException.class)
                    .hasMessageContaining("node 1 failed before it wrote its files");
            assertThat(dir.resolve("MANIFEST-00000001")).doesNotExist();
            assertThat(dir.resolve("g00000001.failed")).exists();
        }
    }

    @Test
    void periodicCheckpointsAreTakenAtBarriersByEveryNode() throws Exception {
        Path never = dir.resolve("never");
        try (TestCluster cluster = FIXTURE.cluster(3, b -> b.table(SUMS).table(STEPS)
                .checkpointEvery(dir, Duration.ofNanos(1)));
             TestCluster idle = FIXTURE.cluster(2, b -> b.table(SUMS).checkpointEvery(never, Duration.ofHours(1)))) {
            for (int i = 1; i <= 3; i++) {
                float step = i;
                Concurrently.run(3, PATIENCE, n -> {
                    try (Worker worker = cluster.node(n).worker()) {
                        worker.table("sums").push(n, new float[] {step, step, step}, 0);
                    }
                    cluster.node(n).barrier();
                });
            }
            for (int n = 0; n < 3; n++) {
                AdaPS node = cluster.node(n);
                CheckpointResult last = Await.until("node " + n + "'s third periodic checkpoint", PATIENCE,
                        () -> node.lastCheckpoint().orElse(null), result -> result != null && result.generation() == 3);
                assertThat(last.manifest()).isEqualTo(dir.resolve("MANIFEST-00000003"));
            }
            assertThat(dir.resolve("MANIFEST-00000002")).exists();
            assertThat(dir.resolve("MANIFEST-00000001")).doesNotExist();
            Concurrently.run(2, PATIENCE, n -> idle.node(n).barrier());
            assertThat(idle.node(1).lastCheckpoint()).isEmpty();
            assertThat(never).doesNotExist();
        }
        try (AdaPS single = AdaPS.builder().table(SUMS).checkpointEvery(never, Duration.ofNanos(1)).build()) {
            single.barrier();
            assertThat(Await.until("the single node's periodic checkpoint", PATIENCE,
                    () -> single.lastCheckpoint().orElse(null), result -> result != null).manifest())
                    .isEqualTo(never.resolve("MANIFEST-00000001"));
        }
    }

    @Test
    void aBackgroundCheckpointHoldsTheCutWhileTrainingGoesOn() throws Exception {
        try (TestCluster cluster = FIXTURE.cluster(3, b -> b.table(SUMS).table(STEPS))) {
            CheckpointTicket[] tickets = new CheckpointTicket[3];
            Concurrently.run(3, PATIENCE, n -> {
                try (Worker worker = cluster.node(n).worker()) {
                    worker.table("sums").push(n, new float[] {1f, 2f, 3f}, 0);
                    worker.waitAll();
                    tickets[n] = cluster.node(n).checkpointAsync(dir);
                    // Training goes on while the files are written: none of this is in the checkpoint.
                    worker.table("sums").push(n, new float[] {10f, 10f, 10f}, 0);
                }
            });
            for (CheckpointTicket ticket : tickets) {
                CheckpointResult result = ticket.await();
                assertThat(ticket.isDone()).isTrue();
                assertThat(result.generation()).isEqualTo(1);
                assertThat(result.pause()).isEqualTo(ticket.pause());
                assertThat(result.duration()).isGreaterThanOrEqualTo(result.pause());
            }
        }
        try (TestCluster restored = FIXTURE.cluster(2, b -> b.table(SUMS).table(STEPS).restoreFrom(dir))) {
            float[] value = new float[3];
            try (Worker worker = restored.node(0).worker()) {
                for (int n = 0; n < 3; n++) {
                    worker.table("sums").pull(n, value, 0);
                    assertThat(value).as("row %d as at the cut", n).containsExactly(1f, 2f, 3f);
                }
            }
        }
    }

    /** Every row's value and rule state as the checkpoint must hold them, and its expected sums. */
    private record Snapshot(Map<String, float[][]> rows, int nodes, long generation) {
    }

    /**
     * Trains on {@code nodes} nodes, moving rows and replicating hot ones, and takes
     * {@code checkpoints} checkpoints, a full one and increments of it, each after more training
     * that moves other rows and leaves updates in replicas; returns every row as the last holds it.
     */
    private Snapshot trainAndCheckpoint(int nodes, Technique technique, int checkpoints) throws Exception {
        AtomicIntegerArray pushes = new AtomicIntegerArray((int) SUMS.rows());
        try (TestCluster cluster = nodes == 1 ? null : FIXTURE.cluster(nodes, b -> b.table(SUMS).table(STEPS)
                .technique(technique).fullCheckpointEvery(checkpoints));
             AdaPS single = nodes == 1 ? AdaPS.builder().table(SUMS).table(STEPS).fullCheckpointEvery(checkpoints).build()
                     : null) {
            AdaPS[] all = new AdaPS[nodes];
            for (int n = 0; n < nodes; n++) {
                all[n] = nodes == 1 ? single : cluster.node(n);
            }
            CheckpointResult[][] results = new CheckpointResult[checkpoints][nodes];
            Concurrently.run(nodes, PATIENCE, n -> {
                Worker worker = all[n].worker();
                long[] own = ownRows(n);
                long[] ownSteps = ownSteps(n);
                worker.table("sums").intent(concat(HOT_SUMS, own), 0, 1_000_000);
                worker.table("steps").intent(concat(HOT_STEPS, ownSteps), 0, 1_000_000);
                for (int checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
                    // Other rows move here before each checkpoint of the chain, and are written.
                    long[] moved = movedSteps(n, checkpoint);
                    worker.table("steps").localize(moved);
                    for (int round = 0; round < 20; round++) {
                        push(worker, pushes, concat(HOT_SUMS, own), concat(HOT_STEPS, concat(ownSteps, moved)), round);
                    }
                    awaitPlacement(all[n], n, nodes, technique, own);
                    // Updates made now sit in replicas until the checkpoint flushes them.
                    push(worker, pushes, concat(HOT_SUMS, own), concat(HOT_STEPS, ownSteps), 20);
                    worker.checkpointState(state(n, worker.id(), checkpoint));
                    worker.waitAll();
                    results[checkpoint - 1][n] = all[n].checkpoint(dir);
                }
            });
            for (int checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
                for (CheckpointResult result : results[checkpoint - 1]) {
                    assertThat(result.manifest()).isEqualTo(results[checkpoint - 1][0].manifest()).exists();
                    assertThat(result.generation()).isEqualTo(checkpoint);
                }
                Manifest manifest = Manifest.read(results[checkpoint - 1][0].manifest());
                assertThat(manifest.base()).as("checkpoint %d's base", checkpoint).isEqualTo(checkpoint - 1);
                if (!manifest.full()) {
                    assertThat(manifest.dataFiles(0).stream().mapToLong(FileEntry::rows).sum())
                            .as("rows of sums in increment %d: at most those pushed", checkpoint)
                            .isLessThanOrEqualTo(HOT_SUMS.length + nodes * ownRows(0).length);
                }
            }
            Map<String, float[][]> rows = new HashMap<>();
            for (Table table : all[0].tables()) {
                rows.put(table.name(), ownedRows(all, table));
            }
            float[][] sums = rows.get("sums");
            for (int row = 0; row < SUMS.rows(); row++) {
                float count = pushes.get(row);
                assertThat(sums[row]).as("sums row %d: every push before the checkpoint", row)
                        .containsExactly(count, count, count);
            }
            return new Snapshot(rows, nodes, checkpoints);
        }
    }

    /** What worker {@code worker} of node {@code node} saves with checkpoint {@code checkpoint}. */
    private static byte[] state(int node, int worker, long checkpoint) {
        return ("node " + node + " worker " + worker + " at checkpoint " + checkpoint).getBytes(StandardCharsets.UTF_8);
    }

    private void restoreAndCompare(Snapshot saved, int nodes, Technique technique) throws Exception {
        try (TestCluster cluster = FIXTURE.cluster(nodes, b -> b.table(SUMS).table(STEPS).technique(technique)
                .restoreFrom(dir))) {
            AdaPS[] all = new AdaPS[nodes];
            for (int n = 0; n < nodes; n++) {
                all[n] = cluster.node(n);
            }
            for (Table table : all[0].tables()) {
                float[][] restored = ownedRows(all, table);
                float[][] expected = saved.rows().get(table.name());
                for (int row = 0; row < table.rows(); row++) {
                    assertThat(bits(restored[row])).as("table %s row %d, value and rule state", table.name(), row)
                            .containsExactly(bits(expected[row]));
                }
            }
            RestoredCheckpoint restored = all[0].restoredFrom().orElseThrow();
            assertThat(restored.nodes()).isEqualTo(saved.nodes());
            assertThat(restored.generation()).isEqualTo(saved.generation());
            for (int n = 0; n < saved.nodes(); n++) {
                assertThat(restored.state(n, 0)).as("node %d's worker's state", n).contains(state(n, 0, saved.generation()));
            }
            if (nodes == saved.nodes()) {
                Concurrently.run(nodes, PATIENCE, n -> assertThat(all[n].worker().restoredState())
                        .contains(state(n, 0, saved.generation())));
            }
        }
    }

    /** Waits until the manager has placed rows as the technique does: replicas, or rows moved here. */
    private static void awaitPlacement(AdaPS node, int n, int nodes, Technique technique, long[] own)
            throws InterruptedException {
        if (nodes == 1) {
            return;
        }
        Table sums = node.table("sums");
        if (technique.replicates()) {
            Await.until("a replica of a hot row on node " + n, PATIENCE, () -> {
                for (long row : HOT_SUMS) {
                    if (Internals.kindOf(node, sums, row) == SlotKind.REPLICA) {
                        return true;
                    }
                }
                return false;
            });
        }
        if (technique == Technique.ADAPTIVE || technique == Technique.RELOCATION_ONLY) {
            Await.until("node " + n + "'s own rows moved there", PATIENCE,
                    () -> Internals.kindOf(node, sums, own[0]) == SlotKind.OWNED);
        }
    }

    private static void push(Worker worker, AtomicIntegerArray pushes, long[] sums, long[] steps, int round) {
        float[] ones = new float[sums.length * 3];
        Arrays.fill(ones, 1f);
        worker.table("sums").push(sums, ones);
        for (long row : sums) {
            pushes.incrementAndGet((int) row);
        }
        float[] gradients = new float[steps.length * 2];
        for (int i = 0; i < gradients.length; i++) {
            gradients[i] = (i % 3 - 1) * 0.25f + round * 0.01f;
        }
        worker.table("steps").push(steps, gradients);
    }

    /** Every row of {@code table} from the node that owns it (waiting for rows on their way). */
    private static float[][] ownedRows(AdaPS[] nodes, Table table) throws InterruptedException {
        int stride = Internals.stride(nodes[0], table);
        float[][] rows = new float[(int) table.rows()][];
        for (int row = 0; row < table.rows(); row++) {
            long r = row;
            rows[row] = Await.until("an owner of row " + row + " of " + table.name(), PATIENCE, () -> {
                List<float[]> owned = new ArrayList<>();
                for (AdaPS node : nodes) {
                    float[] value = new float[stride];
                    if (Internals.copyOwned(node, table, r, value)) {
                        owned.add(value);
                    }
                }
                return owned.size() == 1 ? owned.get(0) : null;
            }, value -> value != null);
        }
        return rows;
    }

    /** Rows of {@code sums} that node {@code n} alone uses: homed at the next node. */
    private static long[] ownRows(int n) {
        long first = 8 + 16L * ((n + 1) % 3);
        return new long[] {first, first + 1, first + 2, first + 3};
    }

    /** Rows of "steps" homed on another node that node {@code n} localizes before checkpoint {@code checkpoint}. */
    private static long[] movedSteps(int n, int checkpoint) {
        long first = 10L * ((n + 2) % 3) + (checkpoint % 2 == 1 ? 8 : 4);
        return new long[] {first, first + (checkpoint % 2 == 1 ? 1 : 3)};
    }

    /** Asserts that {@code node} owns {@code row} and that the row's home says so. */
    private static void assertPlacedOn(TestCluster cluster, int node, Table table, long row) {
        AdaPS owner = cluster.node(node);
        int home = Internals.home(owner, table, row);
        assertThat(home).as("row %d of %s is homed elsewhere", row, table.name()).isNotEqualTo(node);
        assertThat(Internals.kindOf(owner, table, row)).as("row %d of %s on node %d", row, table.name(), node)
                .isEqualTo(SlotKind.OWNED);
        assertThat(Internals.kindOf(cluster.node(home), table, row)).as("row %d of %s at its home", row, table.name())
                .isNotEqualTo(SlotKind.OWNED);
        assertThat(Internals.directoryOwner(cluster.node(home), table, row)).as("the directory of row %d", row)
                .isEqualTo(node);
    }

    private static long[] ownSteps(int n) {
        long first = 10L * ((n + 1) % 3);
        return new long[] {first, first + 1, first + 2, first + 3};
    }

    private static long[] concat(long[] a, long[] b) {
        long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static int[] bits(float[] values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Float.floatToRawIntBits(values[i]);
        }
        return bits;
    }
}
