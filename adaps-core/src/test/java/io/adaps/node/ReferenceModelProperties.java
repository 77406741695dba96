package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Initializers;
import io.adaps.api.ParameterAccess;
import io.adaps.api.Table;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;
import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * Random sequences of pull, push and set, by global key and by row, single and batched, on tables
 * with every built-in update rule, give bit-identical results to a plain map of float arrays that
 * implements the documented rule semantics independently.
 */
class ReferenceModelProperties {

    enum Rule { ADD, ASSIGN, SGD, ADAGRAD }

    enum Kind { PULL, PUSH, SET }

    record TableConfig(int rows, int valueLength, Rule rule) {
    }

    /** One call: ids are rows of {@code table} when {@code byRow}, else global keys. */
    record Op(Kind kind, int table, boolean byRow, boolean single, long[] rows, float[] data) {
        @Override
        public String toString() {
            return kind + "(t" + table + (byRow ? " rows " : " keys of rows ") + Arrays.toString(rows)
                    + (single ? " single" : "") + ", " + Arrays.toString(data) + ")";
        }
    }

    record Scenario(List<TableConfig> tables, List<Op> ops) {
    }

    private static final float LEARNING_RATE = 0.25f;
    private static final float EPSILON = 1e-3f;

    @Test
    void behavesLikeTheReferenceModel() {
        Property.forAll(300, ReferenceModelProperties::scenario,
                ReferenceModelProperties::behavesLikeTheReferenceModel);
    }

    private static void behavesLikeTheReferenceModel(Scenario scenario) {
        Map<Long, float[]> values = new HashMap<>();
        Map<Long, float[]> accumulators = new HashMap<>();
        AdaPS.Builder builder = AdaPS.builder();
        for (int t = 0; t < scenario.tables().size(); t++) {
            TableConfig config = scenario.tables().get(t);
            builder.table(TableSpec.of("t" + t, config.rows(), config.valueLength())
                    .withInitializer(Initializers.uniform(-1f, 1f, t))
                    .withUpdateRule(switch (config.rule()) {
                        case ADD -> UpdateRules.add();
                        case ASSIGN -> UpdateRules.assign();
                        case SGD -> UpdateRules.sgd(LEARNING_RATE);
                        case ADAGRAD -> UpdateRules.adagrad(LEARNING_RATE, EPSILON);
                    }));
        }
        try (AdaPS node = builder.build()) {
            Worker worker = node.worker();
            for (Table table : node.tables()) {
                for (long row = 0; row < table.rows(); row++) {
                    float[] initial = new float[table.valueLength()];
                    table.spec().initializer().initialize(row, initial, 0, initial.length);
                    values.put(table.key(row), initial);
                    accumulators.put(table.key(row), new float[table.valueLength()]);
                }
            }
            for (Op op : scenario.ops()) {
                Table table = node.tables().get(op.table());
                Rule rule = scenario.tables().get(op.table()).rule();
                long[] ids = op.rows().clone();
                if (!op.byRow()) {
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = table.key(ids[i]);
                    }
                }
                ParameterAccess access = op.byRow() ? worker.table(table) : worker;
                float[] buffer = op.data().clone();
                int length = table.valueLength();
                switch (op.kind()) {
                    case PULL -> {
                        if (op.single()) {
                            access.pull(ids[0], buffer, 0);
                        } else {
                            access.pull(ids, buffer);
                        }
                        for (int i = 0; i < ids.length; i++) {
                            float[] expected = values.get(table.key(op.rows()[i]));
                            float[] actual = java.util.Arrays.copyOfRange(buffer, i * length, (i + 1) * length);
                            assertThat(actual).as("pull of row %d of %s", op.rows()[i], table).containsExactly(expected);
                        }
                    }
                    case PUSH -> {
                        if (op.single()) {
                            access.push(ids[0], buffer, 0);
                        } else {
                            access.push(ids, buffer);
                        }
                        for (int i = 0; i < ids.length; i++) {
                            long key = table.key(op.rows()[i]);
                            applyReference(rule, values.get(key), accumulators.get(key), op.data(), i * length);
                        }
                    }
                    case SET -> {
                        if (op.single()) {
                            access.set(ids[0], buffer, 0);
                        } else {
                            access.set(ids, buffer);
                        }
                        for (int i = 0; i < ids.length; i++) {
                            System.arraycopy(op.data(), i * length, values.get(table.key(op.rows()[i])), 0, length);
                        }
                    }
                    default -> throw new AssertionError(op.kind());
                }
            }
            for (Table table : node.tables()) {
                float[] actual = new float[table.valueLength()];
                for (long row = 0; row < table.rows(); row++) {
                    worker.pull(table.key(row), actual, 0);
                    assertThat(actual).containsExactly(values.get(table.key(row)));
                }
            }
            assertThat(node.metrics().localPulls()).isGreaterThanOrEqualTo(node.keys());
        }
    }

    /** The documented semantics of each rule, written independently of the implementation. */
    private static void applyReference(Rule rule, float[] value, float[] accumulator, float[] update, int offset) {
        for (int i = 0; i < value.length; i++) {
            float u = update[offset + i];
            switch (rule) {
                case ADD -> value[i] = value[i] + u;
                case ASSIGN -> value[i] = u;
                case SGD -> value[i] = value[i] - LEARNING_RATE * u;
                case ADAGRAD -> {
                    accumulator[i] = accumulator[i] + u * u;
                    value[i] = value[i] - LEARNING_RATE * u / ((float) Math.sqrt(accumulator[i]) + EPSILON);
                }
                default -> throw new AssertionError(rule);
            }
        }
    }

    private static Scenario scenario(Gen gen) {
        List<TableConfig> tables = gen.list(1, 3,
                g -> new TableConfig(g.intIn(1, 12), g.intIn(1, 9), g.choose(Rule.class)));
        return new Scenario(tables, gen.list(0, 40, g -> op(g, tables)));
    }

    private static Op op(Gen gen, List<TableConfig> tables) {
        int t = gen.intIn(0, tables.size() - 1);
        TableConfig config = tables.get(t);
        Kind kind = gen.choose(Kind.class);
        boolean byRow = gen.booleans();
        boolean single = gen.booleans();
        long[] ids = gen.list(1, 5, g -> g.longIn(0, config.rows() - 1)).stream().mapToLong(Long::longValue).toArray();
        long[] used = single ? new long[] {ids[0]} : ids;
        float[] data = new float[used.length * config.valueLength()];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) gen.doubleIn(-4, 4);
        }
        return new Op(kind, t, byRow, single, used, data);
    }
}
