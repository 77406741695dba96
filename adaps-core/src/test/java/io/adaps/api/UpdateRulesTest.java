package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UpdateRulesTest {
    private static float[] apply(UpdateRule rule, float[] row, float... update) {
        rule.apply(row, 1, update.length, update, 0);
        return row;
    }

    @Test
    void addAssignAndSgd() {
        assertThat(apply(UpdateRules.add(), new float[] {9, 1, 2, 9}, 10, 20)).containsExactly(9, 11, 22, 9);
        assertThat(apply(UpdateRules.assign(), new float[] {9, 1, 2, 9}, 10, 20)).containsExactly(9, 10, 20, 9);
        assertThat(apply(UpdateRules.sgd(0.5f), new float[] {9, 1, 2, 9}, 10, 20)).containsExactly(9, -4, -8, 9);
    }

    @Test
    void adagradKeepsItsAccumulatorBesideTheValue() {
        UpdateRule adagrad = UpdateRules.adagrad(1f, 1e-4f);
        assertThat(adagrad.stateLength(2)).isEqualTo(2);
        // offset 1: value at [1, 3), accumulator at [3, 5)
        float[] row = {9, 1, 1, 0, 0, 9};
        adagrad.apply(row, 1, 2, new float[] {3, 4}, 0);
        assertThat(row[3]).isEqualTo(9f);
        assertThat(row[4]).isEqualTo(16f);
        assertThat(row[1]).isEqualTo(1f - 3f / (3f + 1e-4f));
        adagrad.apply(row, 1, 2, new float[] {4, 3}, 0);
        assertThat(row[3]).isEqualTo(25f);
        assertThat(row[4]).isEqualTo(25f);
        assertThat(row[0]).isEqualTo(9f);
        assertThat(row[5]).isEqualTo(9f);
    }

    @Test
    void namesCarryTheParameters() {
        assertThat(UpdateRules.add()).hasToString("add");
        assertThat(UpdateRules.sgd(0.25f)).hasToString("sgd(learningRate=0.25)").isEqualTo(UpdateRules.sgd(0.25f));
        assertThat(UpdateRules.adagrad(0.5f, 0.125f)).hasToString("adagrad(learningRate=0.5, epsilon=0.125)");
    }

    @Test
    void setLeavesTheAccumulatorAlone() {
        try (AdaPS node = AdaPS.builder()
                .table(TableSpec.of("t", 1, 1).withUpdateRule(UpdateRules.adagrad(1f, 1e-6f))).build()) {
            Worker worker = node.worker();
            worker.push(0, new float[] {2}, 0);        // accumulator 4
            worker.set(0, new float[] {10}, 0);
            worker.push(0, new float[] {0}, 0);        // accumulator still 4: no change
            worker.push(0, new float[] {3}, 0);        // accumulator 13
            float[] value = new float[1];
            worker.pull(0, value, 0);
            assertThat(value[0]).isEqualTo(10f - 3f / ((float) Math.sqrt(13f) + 1e-6f));
        }
    }
}
