package io.adaps.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/**
 * Random sequences of pushes, snapshots, refreshes, drops, reinstalls, promotions and take-outs on
 * a few rows behave like a plain reference model of the documented semantics, for the add rule
 * and for Adagrad (whose state the model keeps too), bit for bit; and across every sequence the
 * deltas handed out (snapshotted, dropped, promoted) add up to exactly the updates pushed to
 * replicas: nothing lost, nothing counted twice.
 *
 * <p>Each row has a simulated remote owner (value and rule state) that applies every delta it
 * receives through the rule, may receive other nodes' updates, answers refreshes with its value
 * and hands its value and state over on promotion.
 */
class ReplicaProperties {
    enum Rule { ADD, ADAGRAD }

    /** The operations, each with how often it is drawn relative to the others. */
    enum Kind {
        PUSH(8), SNAPSHOT(3), REFRESH(3), REMOTE_UPDATE(2), DROP(2), INSTALL_REPLICA(4), PROMOTE(1), TAKE_OUT(1);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    enum Form { ABSENT, REPLICA, OWNED }

    record Op(Kind kind, int row, float[] data) {
        @Override
        public String toString() {
            return kind + "(" + row + ", " + Arrays.toString(data) + ")";
        }
    }

    record Scenario(Rule rule, List<Op> ops) {
    }

    private static final int ROWS = 3;
    private static final int L = 3;
    private static final float LEARNING_RATE = 0.25f;
    private static final float EPSILON = 1e-3f;
    private static final int[] KIND_WEIGHTS = Arrays.stream(Kind.values()).mapToInt(kind -> kind.weight).toArray();

    /** The reference model of one row: what this node holds, and the simulated remote owner. */
    private static final class Model {
        final Rule rule;
        Form form = Form.ABSENT;
        final float[] value = new float[L];
        final float[] state = new float[L];
        final float[] base = new float[L];
        final float[] delta = new float[L];
        final float[] ownerValue = new float[L];
        final float[] ownerState = new float[L];
        /** Sum of all updates pushed while a replica, and of all deltas handed out. */
        final float[] pushedToReplica = new float[L];
        final float[] handedOut = new float[L];

        Model(Rule rule, int row) {
            this.rule = rule;
            for (int i = 0; i < L; i++) {
                ownerValue[i] = row * 10 + i;
            }
        }

        void apply(float[] w, float[] a, float[] u) {
            for (int i = 0; i < L; i++) {
                if (rule == Rule.ADD) {
                    w[i] += u[i];
                } else {
                    a[i] = a[i] + u[i] * u[i];
                    w[i] -= LEARNING_RATE * u[i] / ((float) Math.sqrt(a[i]) + EPSILON);
                }
            }
        }

        /** The owner receives a delta (ours or another node's) and applies it through the rule. */
        void ownerReceives(float[] u) {
            if (!allZero(u)) {
                apply(ownerValue, ownerState, u);
            }
        }

        void handOut(float[] handed) {
            for (int i = 0; i < L; i++) {
                handedOut[i] += handed[i];
            }
        }
    }

    private static boolean allZero(float[] a) {
        for (float x : a) {
            if (x != 0f) {
                return false;
            }
        }
        return true;
    }

    @Test
    void replicasBehaveLikeTheReferenceModel() {
        Property.forAll(400, gen -> new Scenario(gen.choose(Rule.class), gen.list(1, 60, ReplicaProperties::op)),
                ReplicaProperties::replicasBehaveLikeTheReferenceModel);
    }

    private static void replicasBehaveLikeTheReferenceModel(Scenario scenario) {
        Rule rule = scenario.rule();
        TableSpec spec = TableSpec.of("t", ROWS, L).withUpdateRule(
                rule == Rule.ADD ? UpdateRules.add() : UpdateRules.adagrad(LEARNING_RATE, EPSILON));
        TableStore store = new TableStore(spec);
        Model[] models = new Model[ROWS];
        for (int r = 0; r < ROWS; r++) {
            models[r] = new Model(rule, r);
        }
        for (Op op : scenario.ops()) {
            apply(store, models[op.row()], op);
            check(store, models);
        }
        // Hand out what is still pending; then every pushed update was handed out exactly once.
        for (int r = 0; r < ROWS; r++) {
            Model m = models[r];
            float[] delta = new float[L];
            assertThat(store.dropReplica(r, delta, 0)).isEqualTo(m.form == Form.REPLICA);
            if (m.form == Form.REPLICA) {
                assertThat(delta).containsExactly(m.delta);
                m.handOut(delta);
            }
            assertThat(m.handedOut).as("row %d: deltas handed out vs pushes to the replica", r)
                    .containsExactly(m.pushedToReplica);
        }
        assertThat(store.replicaSlotHighWaterMark()).isLessThanOrEqualTo(ROWS);
        assertThat(store.slotHighWaterMark()).isLessThanOrEqualTo(ROWS);
    }

    private static void apply(TableStore store, Model m, Op op) {
        int row = op.row();
        float[] u = op.data();
        float[] out = new float[L];
        switch (op.kind()) {
            case PUSH -> {
                assertThat(store.push(row, u, 0)).isEqualTo(m.form != Form.ABSENT);
                if (m.form != Form.ABSENT) {
                    m.apply(m.value, m.state, u);
                }
                if (m.form == Form.REPLICA) {
                    for (int i = 0; i < L; i++) {
                        m.delta[i] += u[i];
                        m.pushedToReplica[i] += u[i];
                    }
                }
            }
            case SNAPSHOT -> {
                int result = store.snapshotDelta(row, out, 0);
                if (m.form != Form.REPLICA) {
                    assertThat(result).isEqualTo(TableStore.NOT_HELD);
                    return;
                }
                assertThat(out).containsExactly(m.delta);
                assertThat(result).isEqualTo(allZero(m.delta) ? TableStore.ZERO_DELTA : TableStore.DELTA);
                m.handOut(out);
                m.ownerReceives(out);
                Arrays.fill(m.delta, 0f);
                System.arraycopy(m.value, 0, m.base, 0, L);
            }
            case REFRESH -> {
                float[] fresh = m.form == Form.OWNED ? u : m.ownerValue.clone();
                assertThat(store.refreshReplica(row, fresh, 0)).isEqualTo(m.form == Form.REPLICA);
                if (m.form == Form.REPLICA) {
                    for (int i = 0; i < L; i++) {
                        m.value[i] = fresh[i] + (m.value[i] - m.base[i]);
                        m.base[i] = fresh[i];
                    }
                }
            }
            case REMOTE_UPDATE -> {
                if (m.form != Form.OWNED) {
                    m.ownerReceives(u);
                }
            }
            case DROP -> {
                assertThat(store.dropReplica(row, out, 0)).isEqualTo(m.form == Form.REPLICA);
                if (m.form == Form.REPLICA) {
                    assertThat(out).containsExactly(m.delta);
                    m.handOut(out);
                    m.ownerReceives(out);
                    m.form = Form.ABSENT;
                }
            }
            case INSTALL_REPLICA -> {
                if (m.form != Form.ABSENT) {
                    assertThatThrownBy(() -> store.installReplica(row, u, 0))
                            .isInstanceOf(IllegalStateException.class);
                    return;
                }
                store.installReplica(row, m.ownerValue, 0);
                m.form = Form.REPLICA;
                System.arraycopy(m.ownerValue, 0, m.value, 0, L);
                Arrays.fill(m.state, 0f);
                System.arraycopy(m.ownerValue, 0, m.base, 0, L);
                Arrays.fill(m.delta, 0f);
            }
            case PROMOTE -> {
                float[] handed = new float[store.stride()];
                System.arraycopy(m.ownerValue, 0, handed, 0, L);
                if (handed.length > L) {
                    System.arraycopy(m.ownerState, 0, handed, L, L);
                }
                if (m.form == Form.OWNED) {
                    assertThatThrownBy(() -> store.promote(row, handed, 0)).isInstanceOf(IllegalStateException.class);
                    return;
                }
                store.promote(row, handed, 0);
                System.arraycopy(m.ownerValue, 0, m.value, 0, L);
                System.arraycopy(m.ownerState, 0, m.state, 0, L);
                if (m.form == Form.REPLICA) {
                    if (!allZero(m.delta)) {
                        m.apply(m.value, m.state, m.delta);
                    }
                    m.handOut(m.delta);
                }
                m.form = Form.OWNED;
            }
            case TAKE_OUT -> {
                float[] moved = new float[store.stride()];
                assertThat(store.takeOut(row, moved, 0)).isEqualTo(m.form == Form.OWNED);
                if (m.form == Form.OWNED) {
                    // The row moves to another node, which becomes the (simulated) owner.
                    assertThat(Arrays.copyOf(moved, L)).containsExactly(m.value);
                    System.arraycopy(m.value, 0, m.ownerValue, 0, L);
                    if (moved.length > L) {
                        assertThat(Arrays.copyOfRange(moved, L, 2 * L)).containsExactly(m.state);
                    }
                    System.arraycopy(m.state, 0, m.ownerState, 0, L);
                    m.form = Form.ABSENT;
                }
            }
        }
    }

    private static void check(TableStore store, Model[] models) {
        int replicas = 0;
        int held = 0;
        for (int r = 0; r < ROWS; r++) {
            Model m = models[r];
            float[] value = new float[L];
            assertThat(store.kind(r)).as("kind of row %d", r)
                    .isEqualTo(switch (m.form) {
                        case ABSENT -> null;
                        case REPLICA -> SlotKind.REPLICA;
                        case OWNED -> SlotKind.OWNED;
                    });
            assertThat(store.pull(r, value, 0)).isEqualTo(m.form != Form.ABSENT);
            if (m.form != Form.ABSENT) {
                assertThat(value).as("value of row %d", r).containsExactly(m.value);
                held++;
            }
            assertThat(store.pullOwned(r, value, 0)).isEqualTo(m.form == Form.OWNED);
            replicas += m.form == Form.REPLICA ? 1 : 0;
        }
        assertThat(store.replicaRows()).isEqualTo(replicas);
        assertThat(store.heldRows()).isEqualTo(held);
    }

    private static Op op(Gen gen) {
        Kind kind = Kind.values()[gen.weightedIndex(KIND_WEIGHTS)];
        int row = gen.intIn(0, ROWS - 1);
        float[] update = new float[L];
        for (int i = 0; i < L; i++) {
            update[i] = gen.intIn(-3, 3);
        }
        return new Op(kind, row, update);
    }
}
