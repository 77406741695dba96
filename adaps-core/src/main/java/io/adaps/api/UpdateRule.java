package io.adaps.api;

/**
 * How a pushed update changes a parameter. Rules run where the parameter lives (the "user-defined
 * functions on servers" of Li et al., OSDI'14), under that parameter's write lock, so
 * {@link #apply} sees and leaves one consistent state and concurrent pushes never lose an update.
 *
 * <p>A rule may keep per-parameter state beside the value (Adagrad's squared-gradient
 * accumulator): {@link #stateLength} floats stored directly after the value, zero-initialized,
 * moved together with the value. Implementations must be immutable and thread-safe, must not block
 * and must not keep references to the arrays they are given. Built-in rules are in
 * {@link UpdateRules}.
 *
 * <p>Every node of a cluster must use the same rule for a table: nodes compare the rules'
 * {@link #descriptor()}s when they connect.
 */
public interface UpdateRule {
    /**
     * Floats of per-parameter state this rule keeps beside a value of {@code valueLength} floats.
     *
     * @return 0 (the default) for stateless rules
     */
    default int stateLength(int valueLength) {
        return 0;
    }

    /**
     * Applies {@code update} to one parameter.
     *
     * @param row          storage holding the value at {@code [offset, offset + valueLength)} followed by
     *                     the rule's state at {@code [offset + valueLength, offset + valueLength + stateLength)}
     * @param offset       where the value starts in {@code row}
     * @param valueLength  floats in the value
     * @param update       the pushed update, {@code valueLength} floats from {@code updateOffset}
     * @param updateOffset where the update starts in {@code update}
     */
    void apply(float[] row, int offset, int valueLength, float[] update, int updateOffset);

    /**
     * Whether pushing the sum of several updates once stands for pushing them one by one, so that
     * a replica may add up the updates its workers push and hand the sum to the owner at the next
     * synchronization. Exactly so for additive and SGD rules; for Adagrad the summed update is one
     * larger step (as with a larger mini-batch). Rules that return {@code false} (such as
     * {@link UpdateRules#assign()}) keep their parameters unreplicated: every technique only moves
     * them. Every rule says which it is: nothing is assumed.
     */
    boolean accumulates();

    /**
     * The rule and every parameter that changes what it does, e.g.
     * {@code adagrad(learningRate=0.05, epsilon=1.0E-6)}: two nodes agree on a table's rule when
     * their descriptors are equal.
     */
    String descriptor();
}
