package io.adaps.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRule;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * Seeded properties of the round trip on one node: for random tables (sizes, value lengths,
 * rules), random pushes and sets of any float bits (NaNs, infinities, signed zeros, subnormals),
 * and random saved states, a restored node holds every value bit for bit, and continuing the same
 * pushes on it gives bit for bit what they give on the node that wrote the checkpoint: its rule
 * state (Adagrad's accumulators) came back too. The same through chains of increments, taken
 * into two directories in turn: each increment holds exactly the rows written since the
 * directory's checkpoint before.
 */
class CheckpointRoundTripProperties {
    @TempDir
    Path base;

    /** One case: tables, then operations (table, row, set?, floats). */
    record Case(List<TableSpec> tables, List<Op> ops, List<Op> after, byte[] state) {
        @Override
        public String toString() {
            return "Case[tables=" + tables + ", ops=" + ops + ", after=" + after + ", state=" + Arrays.toString(state) + "]";
        }
    }

    /** A chain case: tables, every how many checkpoints one is full, steps, then operations after the last. */
    record ChainCase(List<TableSpec> tables, int fullEvery, List<Step> steps, List<Op> after) {
    }

    /** Operations, then a checkpoint into the first directory or the second. */
    record Step(List<Op> ops, boolean second) {
    }

    record Op(int table, long row, boolean set, float[] floats) {
        @Override
        public String toString() {
            return (set ? "set" : "push") + "(" + table + ", " + row + ", " + Arrays.toString(floats) + ")";
        }
    }

    private static Case draw(Gen gen) {
        List<TableSpec> named = tables(gen);
        return new Case(named, ops(gen, named), ops(gen, named), gen.bytes(0, 64));
    }

    private static ChainCase drawChain(Gen gen) {
        List<TableSpec> tables = tables(gen);
        return new ChainCase(tables, gen.intIn(1, 4), gen.list(1, 8, g -> new Step(ops(g, tables), g.booleans())),
                ops(gen, tables));
    }

    private static List<TableSpec> tables(Gen gen) {
        List<TableSpec> tables = gen.list(1, 3, g -> {
            UpdateRule rule = switch (g.intIn(0, 3)) {
                case 0 -> UpdateRules.add();
                case 1 -> UpdateRules.sgd(0.1f);
                case 2 -> UpdateRules.adagrad(0.05f, 1e-6f);
                default -> UpdateRules.assign();
            };
            return TableSpec.of("t", g.intIn(1, 40), g.intIn(1, 6)).withUpdateRule(rule)
                    .withInitializer(Initializers.normal(0f, 0.1f, g.intIn(0, 1000)));
        });
        List<TableSpec> named = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            TableSpec t = tables.get(i);
            named.add(TableSpec.of("t" + i, t.rows(), t.valueLength()).withUpdateRule(t.updateRule())
                    .withInitializer(t.initializer()));
        }
        return named;
    }

    private static List<Op> ops(Gen gen, List<TableSpec> tables) {
        return gen.list(0, 60, g -> {
            int table = g.intIn(0, tables.size() - 1);
            TableSpec spec = tables.get(table);
            float[] floats = new float[spec.valueLength()];
            boolean set = g.intIn(0, 4) == 0;
            for (int i = 0; i < floats.length; i++) {
                floats[i] = set && g.intIn(0, 3) == 0 ? Float.intBitsToFloat(g.ints()) : (float) g.doubleIn(-1, 1);
            }
            return new Op(table, g.longIn(0, spec.rows() - 1), set, floats);
        });
    }

    private static AdaPS.Builder builder(List<TableSpec> tables) {
        AdaPS.Builder builder = AdaPS.builder();
        tables.forEach(builder::table);
        return builder;
    }

    private static void apply(AdaPS node, List<Op> ops) {
        try (Worker worker = node.worker()) {
            for (Op op : ops) {
                if (op.set()) {
                    worker.table("t" + op.table()).set(op.row(), op.floats(), 0);
                } else {
                    worker.table("t" + op.table()).push(op.row(), op.floats(), 0);
                }
            }
        }
    }

    /**
     * Every value's bits: raw (NaN payloads as stored), or with every NaN as the canonical one,
     * for values computed from NaNs, whose payloads the JIT may pick differently from run to run.
     */
    private static int[][] bits(AdaPS node, List<TableSpec> tables, boolean raw) {
        try (Worker worker = node.worker()) {
            List<int[]> rows = new ArrayList<>();
            for (int t = 0; t < tables.size(); t++) {
                TableSpec spec = tables.get(t);
                float[] value = new float[spec.valueLength()];
                for (long row = 0; row < spec.rows(); row++) {
                    worker.table("t" + t).pull(row, value, 0);
                    int[] bits = new int[value.length];
                    for (int i = 0; i < value.length; i++) {
                        bits[i] = raw ? Float.floatToRawIntBits(value[i]) : Float.floatToIntBits(value[i]);
                    }
                    rows.add(bits);
                }
            }
            return rows.toArray(int[][]::new);
        }
    }

    @Test
    void aRestoredNodeContinuesBitForBit() {
        int[] caseNumber = {0};
        Property.forAll(40, CheckpointRoundTripProperties::draw, c -> {
            Path dir = Files.createDirectories(base.resolve("case" + caseNumber[0]++));
            int[][] saved;
            int[][] continued;
            try (AdaPS node = builder(c.tables()).build()) {
                apply(node, c.ops());
                try (Worker worker = node.worker()) {
                    worker.checkpointState(c.state());
                }
                node.checkpoint(dir);
                saved = bits(node, c.tables(), true);
                apply(node, c.after());
                continued = bits(node, c.tables(), false);
            }
            try (AdaPS node = builder(c.tables()).restoreFrom(dir).build()) {
                assertThat(bits(node, c.tables(), true)).isDeepEqualTo(saved);
                assertThat(node.restoredFrom().orElseThrow().state(0, 0)).hasValueSatisfying(
                        state -> assertThat(state).containsExactly(c.state()));
                apply(node, c.after());
                assertThat(bits(node, c.tables(), false)).isDeepEqualTo(continued);
            }
        });
    }

    @Test
    void aChainOfIncrementsRestoresBitForBitAndHoldsExactlyTheRowsWritten() {
        int[] caseNumber = {0};
        Property.forAll(25, CheckpointRoundTripProperties::drawChain, c -> {
            Path caseDir = base.resolve("chain" + caseNumber[0]++);
            Path[] dirs = {Files.createDirectories(caseDir.resolve("a")), Files.createDirectories(caseDir.resolve("b"))};
            int[] taken = new int[2];
            int[][][] saved = new int[2][][];
            BitSet[][] written = new BitSet[2][c.tables().size()];
            for (BitSet[] perTable : written) {
                Arrays.setAll(perTable, t -> new BitSet());
            }
            int[][] continued;
            try (AdaPS node = builder(c.tables()).fullCheckpointEvery(c.fullEvery()).build()) {
                for (Step step : c.steps()) {
                    apply(node, step.ops());
                    for (Op op : step.ops()) {
                        written[0][op.table()].set((int) op.row());
                        written[1][op.table()].set((int) op.row());
                    }
                    int d = step.second() ? 1 : 0;
                    long generation = node.checkpoint(dirs[d]).generation();
                    Manifest manifest = Manifest.read(dirs[d].resolve(CheckpointFiles.manifest(generation)));
                    assertThat(manifest.base()).as("checkpoint %d in %s", generation, dirs[d])
                            .isEqualTo(taken[d]++ % c.fullEvery() == 0 ? 0 : generation - 1);
                    for (int t = 0; t < c.tables().size(); t++) {
                        assertThat(manifest.dataFiles(t).get(0).rows()).as("rows of t%d in checkpoint %d", t, generation)
                                .isEqualTo(manifest.full() ? c.tables().get(t).rows() : written[d][t].cardinality());
                        written[d][t].clear();
                    }
                    saved[d] = bits(node, c.tables(), true);
                }
                apply(node, c.after());
                continued = bits(node, c.tables(), false);
            }
            int last = c.steps().get(c.steps().size() - 1).second() ? 1 : 0;
            for (int d = 0; d < 2; d++) {
                if (taken[d] == 0) {
                    continue;
                }
                try (AdaPS node = builder(c.tables()).restoreFrom(dirs[d]).build()) {
                    assertThat(bits(node, c.tables(), true)).as("restored from %s", dirs[d]).isDeepEqualTo(saved[d]);
                    if (d == last) {
                        apply(node, c.after());
                        assertThat(bits(node, c.tables(), false)).as("continued, rule state too").isDeepEqualTo(continued);
                    }
                }
            }
        });
    }

    @Test
    void generationsAreReadBackFromFileNames() throws IOException {
        assertThat(CheckpointFiles.generationOf(CheckpointFiles.manifest(12))).isEqualTo(12);
        assertThat(CheckpointFiles.generationOf(CheckpointFiles.manifest(12) + CheckpointFiles.TMP)).isEqualTo(12);
        assertThat(CheckpointFiles.generationOf(CheckpointFiles.data(7, 3, 11))).isEqualTo(7);
        assertThat(CheckpointFiles.generationOf(CheckpointFiles.state(123_456_789_012L, 0))).isEqualTo(123_456_789_012L);
        assertThat(CheckpointFiles.generationOf("notes.txt")).isEqualTo(-1);
        assertThat(CheckpointFiles.nextGeneration(Files.createDirectories(base.resolve("empty")))).isEqualTo(1);
    }
}
