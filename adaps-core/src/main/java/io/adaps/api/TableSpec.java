package io.adaps.api;

import static io.adaps.util.Checks.checkNotNull;

import java.util.regex.Pattern;


/**
 * The declaration of a table: a name, a number of rows, the floats per row (value length), how
 * rows are initialized and how pushes update them. Immutable; the {@code with...} methods return
 * changed copies.
 *
 * <pre>{@code
 * TableSpec users = TableSpec.of("users", 1_000_000, 32)
 *         .withInitializer(Initializers.normal(0f, 0.1f, 42))
 *         .withUpdateRule(UpdateRules.add());
 * }</pre>
 */
public final class TableSpec {
    /**
     * Most rows in one table. Rows are indexed directly (one {@code int} per row), so a table is
     * bounded by Java's array size; declare several tables for larger models.
     */
    public static final long MAX_ROWS = Integer.MAX_VALUE - 8;
    /** Most floats in one row. */
    public static final int MAX_VALUE_LENGTH = 1 << 16;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private final String name;
    private final long rows;
    private final int valueLength;
    private final Initializer initializer;
    private final UpdateRule updateRule;
    private final KeyDistribution sampling;
    /** {@code null}: the node's default ({@link AdaPS.Builder#consistency}). */
    private final Consistency consistency;

    private TableSpec(String name, long rows, int valueLength, Initializer initializer, UpdateRule updateRule,
                      KeyDistribution sampling, Consistency consistency) {
        this.name = name;
        this.rows = rows;
        this.valueLength = valueLength;
        this.initializer = initializer;
        this.updateRule = updateRule;
        this.sampling = sampling;
        this.consistency = consistency;
    }

    /**
     * A table of {@code rows} rows of {@code valueLength} floats, zero-initialized, with additive
     * updates.
     *
     * @param name        1 to 64 characters from {@code [A-Za-z0-9_.-]}
     * @param rows        1 to {@link #MAX_ROWS}
     * @param valueLength 1 to {@link #MAX_VALUE_LENGTH}
     * @throws IllegalArgumentException naming the first value out of range
     */
    public static TableSpec of(String name, long rows, int valueLength) {
        checkNotNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name='" + name + "' (expected 1 to 64 characters from [A-Za-z0-9_.-])");
        }
        if (rows <= 0 || rows > MAX_ROWS) {
            throw new IllegalArgumentException("rows=" + rows + " (expected 1.." + MAX_ROWS + ") for table '" + name + "'");
        }
        if (valueLength <= 0 || valueLength > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException("valueLength=" + valueLength + " (expected 1.." + MAX_VALUE_LENGTH
                    + ") for table '" + name + "'");
        }
        return new TableSpec(name, rows, valueLength, Initializers.zeros(), UpdateRules.add(), null, null);
    }

    /** A copy of this spec with {@code initializer}. */
    public TableSpec withInitializer(Initializer initializer) {
        return new TableSpec(name, rows, valueLength, checkNotNull(initializer, "initializer"), updateRule, sampling,
                consistency);
    }

    /** A copy of this spec with {@code updateRule}. */
    public TableSpec withUpdateRule(UpdateRule updateRule) {
        return new TableSpec(name, rows, valueLength, initializer, checkNotNull(updateRule, "updateRule"), sampling,
                consistency);
    }

    /**
     * A copy of this spec whose rows can be sampled ({@link TableView#prepareSample}) from
     * {@code distribution}, whose keys are rows of this table. Every node must declare the same
     * distribution.
     *
     * @throws IllegalArgumentException if the distribution has more keys than the table has rows
     */
    public TableSpec withSampling(KeyDistribution distribution) {
        checkNotNull(distribution, "distribution");
        if (distribution.size() > rows) {
            throw new IllegalArgumentException("distribution.size()=" + distribution.size() + " (expected at most rows="
                    + rows + " of table '" + name + "')");
        }
        return new TableSpec(name, rows, valueLength, initializer, updateRule, distribution, consistency);
    }

    /**
     * A copy of this spec whose reads follow {@code consistency} (see {@link Consistency}) instead
     * of the node's default. Every node must declare the same model for the table.
     */
    public TableSpec withConsistency(Consistency consistency) {
        return new TableSpec(name, rows, valueLength, initializer, updateRule, sampling,
                checkNotNull(consistency, "consistency"));
    }

    /** The table's consistency model, or {@code null} if it takes the node's default. */
    public Consistency consistency() {
        return consistency;
    }

    /** The table's name, unique in a node. */
    public String name() {
        return name;
    }

    /** Rows in the table. */
    public long rows() {
        return rows;
    }

    /** Floats per row. */
    public int valueLength() {
        return valueLength;
    }

    /** How rows get their initial values. */
    public Initializer initializer() {
        return initializer;
    }

    /** How pushes change rows. */
    public UpdateRule updateRule() {
        return updateRule;
    }

    /** The distribution samples of this table are drawn from, or {@code null} if it is not sampled. */
    public KeyDistribution sampling() {
        return sampling;
    }

    @Override
    public String toString() {
        return "TableSpec[name=" + name + ", rows=" + rows + ", valueLength=" + valueLength
                + ", initializer=" + initializer + ", updateRule=" + updateRule
                + (sampling == null ? "" : ", sampling=" + sampling)
                + (consistency == null ? "" : ", consistency=" + consistency) + "]";
    }
}
