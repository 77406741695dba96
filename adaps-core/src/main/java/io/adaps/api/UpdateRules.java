package io.adaps.api;

import static io.adaps.util.Checks.checkPositiveFinite;

/**
 * The built-in {@link UpdateRule}s. With value {@code w}, pushed update {@code u} and component
 * index {@code i}:
 * <table>
 *   <caption>Built-in update rules</caption>
 *   <tr><th>rule</th><th>effect of a push</th><th>state</th></tr>
 *   <tr><td>{@link #add()} (default)</td><td>{@code w[i] += u[i]}</td><td>none</td></tr>
 *   <tr><td>{@link #assign()}</td><td>{@code w[i] = u[i]}</td><td>none</td></tr>
 *   <tr><td>{@link #sgd(float)}</td><td>{@code w[i] -= lr * u[i]} ({@code u} is a gradient)</td><td>none</td></tr>
 *   <tr><td>{@link #adagrad(float, float)}</td>
 *       <td>{@code a[i] += u[i]^2; w[i] -= lr * u[i] / (sqrt(a[i]) + eps)}</td>
 *       <td>accumulator {@code a}, one float per component, starting at 0</td></tr>
 * </table>
 * {@code set} operations bypass the rule: they replace the value and leave the state alone.
 */
public final class UpdateRules {
    private static final UpdateRule ADD = new Add();
    private static final UpdateRule ASSIGN = new Assign();

    private UpdateRules() {
    }

    /** Adds the update to the value (the default). */
    public static UpdateRule add() {
        return ADD;
    }

    /** Replaces the value with the update. */
    public static UpdateRule assign() {
        return ASSIGN;
    }

    /**
     * Plain stochastic gradient descent: the update is a gradient and the value moves against it.
     *
     * @param learningRate finite and positive
     */
    public static UpdateRule sgd(float learningRate) {
        return new Sgd(checkPositiveFinite(learningRate, "learningRate"));
    }

    /**
     * Adagrad (Duchi, Hazan, Singer, JMLR 2011), diagonal form, with its accumulator stored beside
     * the value.
     *
     * @param learningRate finite and positive
     * @param epsilon      finite and positive; keeps the first steps bounded
     */
    public static UpdateRule adagrad(float learningRate, float epsilon) {
        return new Adagrad(checkPositiveFinite(learningRate, "learningRate"), checkPositiveFinite(epsilon, "epsilon"));
    }

    private record Add() implements UpdateRule {
        @Override
        public void apply(float[] row, int offset, int valueLength, float[] update, int updateOffset) {
            for (int i = 0; i < valueLength; i++) {
                row[offset + i] += update[updateOffset + i];
            }
        }

        @Override
        public boolean accumulates() {
            return true;
        }

        @Override
        public String descriptor() {
            return "add";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }

    private record Assign() implements UpdateRule {
        @Override
        public void apply(float[] row, int offset, int valueLength, float[] update, int updateOffset) {
            System.arraycopy(update, updateOffset, row, offset, valueLength);
        }

        @Override
        public boolean accumulates() {
            return false;
        }

        @Override
        public String descriptor() {
            return "assign";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }

    private record Sgd(float learningRate) implements UpdateRule {
        @Override
        public void apply(float[] row, int offset, int valueLength, float[] update, int updateOffset) {
            for (int i = 0; i < valueLength; i++) {
                row[offset + i] -= learningRate * update[updateOffset + i];
            }
        }

        @Override
        public boolean accumulates() {
            return true;
        }

        @Override
        public String descriptor() {
            return "sgd(learningRate=" + learningRate + ")";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }

    private record Adagrad(float learningRate, float epsilon) implements UpdateRule {
        @Override
        public int stateLength(int valueLength) {
            return valueLength;
        }

        @Override
        public void apply(float[] row, int offset, int valueLength, float[] update, int updateOffset) {
            int accumulator = offset + valueLength;
            for (int i = 0; i < valueLength; i++) {
                float g = update[updateOffset + i];
                float a = row[accumulator + i] + g * g;
                row[accumulator + i] = a;
                row[offset + i] -= learningRate * g / ((float) Math.sqrt(a) + epsilon);
            }
        }

        @Override
        public boolean accumulates() {
            return true;
        }

        @Override
        public String descriptor() {
            return "adagrad(learningRate=" + learningRate + ", epsilon=" + epsilon + ")";
        }

        @Override
        public String toString() {
            return descriptor();
        }
    }
}
