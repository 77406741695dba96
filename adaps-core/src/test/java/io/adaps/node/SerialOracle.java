package io.adaps.node;

import java.util.Arrays;
import java.util.SplittableRandom;

import io.adaps.api.UpdateRule;

/**
 * The judge of a zero-initialized table with a stateful update rule (Adagrad): it lets at most one
 * pull or push of a row be in flight at a time (localizes are free to overlap anything), so the
 * pushes of each row apply in the order they started, and it replays them on its own copy of value
 * and rule state. Every pull and the final value must then equal that replay bit for bit; a row
 * whose rule state did not travel with it (reset, or left behind at its previous holder) drifts
 * from the replay at its next push.
 */
final class SerialOracle implements RowOracle {
    private final UpdateRule rule;
    private final int valueLength;
    /** Per row: value followed by rule state, as the store keeps them. */
    private final float[][] replay;
    private final boolean[] busy;

    SerialOracle(int rows, int valueLength, UpdateRule rule) {
        this.rule = rule;
        this.valueLength = valueLength;
        this.replay = new float[rows][valueLength + rule.stateLength(valueLength)];
        this.busy = new boolean[rows];
    }

    @Override
    public boolean mayAccess(long[] rows) {
        for (int j = 0; j < rows.length; j++) {
            if (busy[(int) rows[j]]) {
                return false;
            }
            for (int k = 0; k < j; k++) {
                if (rows[k] == rows[j]) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void startPush(long[] rows, float[] updates, SplittableRandom random) {
        for (int j = 0; j < rows.length; j++) {
            for (int i = 0; i < valueLength; i++) {
                updates[j * valueLength + i] = random.nextInt(1, 4) * (random.nextBoolean() ? 1 : -1);
            }
            rule.apply(replay[(int) rows[j]], 0, valueLength, updates, j * valueLength);
            busy[(int) rows[j]] = true;
        }
    }

    @Override
    public void pushCompleted(long[] rows, float[] updates) {
        for (long row : rows) {
            busy[(int) row] = false;
        }
    }

    @Override
    public PullCheck startPull(long[] rows) {
        float[] expected = new float[rows.length * valueLength];
        for (int j = 0; j < rows.length; j++) {
            System.arraycopy(replay[(int) rows[j]], 0, expected, j * valueLength, valueLength);
            busy[(int) rows[j]] = true;
        }
        return values -> {
            for (int j = 0; j < rows.length; j++) {
                busy[(int) rows[j]] = false;
                check("pull of row " + rows[j] + " returned", values, j * valueLength, expected, j * valueLength);
            }
        };
    }

    @Override
    public void checkFinal(long row, float[] values, int offset) {
        check("row " + row + " is at the end", values, offset, replay[(int) row], 0);
    }

    private void check(String what, float[] values, int offset, float[] expected, int expectedOffset) {
        float[] actual = Arrays.copyOfRange(values, offset, offset + valueLength);
        float[] wanted = Arrays.copyOfRange(expected, expectedOffset, expectedOffset + valueLength);
        if (!Arrays.equals(actual, wanted)) {
            throw new AssertionError(what + " " + Arrays.toString(actual) + " (expected " + Arrays.toString(wanted)
                    + ", the serial replay of its pushes with " + rule + ": lost rule state or a lost update)");
        }
    }
}
